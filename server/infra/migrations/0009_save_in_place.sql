-- Saves as HOT updates (issue 14): no index of the row may be on an expression of `answer`, and
-- nothing is folded on a save that changes no name.
-- The entry term, filtered on by the staff list, as a column of its own with its index.
-- The folded names (server/staff/searchFold.ts STAFF_SEARCH_SQL, as 0008 generated them) kept by
-- triggers instead of a generated column: written on insert, and on a save only when a name changes.
DROP INDEX "applications_entry_term";--> statement-breakpoint
ALTER TABLE "applications" ALTER COLUMN "staff_search" DROP EXPRESSION;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "entry_term" text GENERATED ALWAYS AS (answer->>'entry_term') STORED;--> statement-breakpoint
CREATE INDEX "applications_entry_term" ON "applications" USING btree ("entry_term");--> statement-breakpoint
CREATE FUNCTION staff_search_fold(answer jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN trim(regexp_replace(replace(lower(replace(replace(replace(replace(replace(replace(replace(replace(translate(coalesce(answer->>'first_name', '') || ' ' || coalesce(answer->>'preferred_name', '') || ' ' || coalesce(answer->>'last_name', ''), 'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝàáâãäåçèéêëìíîïðñòóôõöøùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĐđĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİıĴĵĶķĹĺĻļĽľŁłŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžſƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳḀḁḂḃḄḅḆḇḈḉḊḋḌḍḎḏḐḑḒḓḔḕḖḗḘḙḚḛḜḝḞḟḠḡḢḣḤḥḦḧḨḩḪḫḬḭḮḯḰḱḲḳḴḵḶḷḸḹḺḻḼḽḾḿṀṁṂṃṄṅṆṇṈṉṊṋṌṍṎṏṐṑṒṓṔṕṖṗṘṙṚṛṜṝṞṟṠṡṢṣṤṥṦṧṨṩṪṫṬṭṮṯṰṱṲṳṴṵṶṷṸṹṺṻṼṽṾṿẀẁẂẃẄẅẆẇẈẉẊẋẌẍẎẏẐẑẒẓẔẕẖẗẘẙẛẠạẢảẤấẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặẸẹẺẻẼẽẾếỀềỂểỄễỆệỈỉỊịỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợỤụỦủỨứỪừỬửỮữỰựỲỳỴỵỶỷỸỹ''’‘`', 'aaaaaaceeeeiiiidnoooooouuuuyaaaaaaceeeeiiiidnoooooouuuuyyaaaaaaccccccccddddeeeeeeeeeegggggggghhiiiiiiiiiijjkkllllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzzsoouuaaiioouuuuuuuuuuaaaaggkkoooojggnnaaaaaaeeeeiiiioooorrrruuuusstthhaaeeooooooooyyaabbbbbbccddddddddddeeeeeeeeeeffgghhhhhhhhhhiiiikkkkkkllllllllmmmmmmnnnnnnnnoooooooopppprrrrrrrrssssssssssttttttttuuuuuuuuuuvvvvwwwwwwwwwwxxxxyyzzzzzzhtwysaaaaaaaaaaaaaaaaaaaaaaaaeeeeeeeeeeeeeeeeiiiioooooooooooooooooooooooouuuuuuuuuuuuuuyyyyyyyy'), 'ß', 'ss'), 'ẞ', 'ss'), 'æ', 'ae'), 'Æ', 'ae'), 'œ', 'oe'), 'Œ', 'oe'), 'þ', 'th'), 'Þ', 'th')), '&', ' and '), '[^a-z0-9]+', ' ', 'g'));
--> statement-breakpoint
CREATE FUNCTION applications_staff_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.staff_search := staff_search_fold(NEW.answer);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER applications_staff_search_insert BEFORE INSERT ON applications FOR EACH ROW EXECUTE FUNCTION applications_staff_search();
--> statement-breakpoint
CREATE TRIGGER applications_staff_search_update BEFORE UPDATE ON applications FOR EACH ROW
WHEN (OLD.answer->'first_name' IS DISTINCT FROM NEW.answer->'first_name'
   OR OLD.answer->'preferred_name' IS DISTINCT FROM NEW.answer->'preferred_name'
   OR OLD.answer->'last_name' IS DISTINCT FROM NEW.answer->'last_name'
   OR OLD.staff_search IS DISTINCT FROM NEW.staff_search)
EXECUTE FUNCTION applications_staff_search();
