-- Saves with no trigger (issue 14): the names are a stored generated column (three key lookups on
-- the new row) and the staff search's GIN index folds them. An index on a column is written again
-- only when the column changes, so a save that changes no name stays an update in place (HOT) and
-- folds nothing, as 0009's triggers did, without a trigger's cost on every save.
-- staff_names_fold is server/staff/searchFold.ts foldSql('names'); a test compares them.
-- The answers compressed with LZ4 where the server has it (PostgreSQL built with lz4; PGlite is
-- not): a save reads the stored answers and writes them again, and pglz took a third of a save's
-- time in PostgreSQL. Rows keep their compression until they are next written.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE "applications" ALTER COLUMN "answer" SET COMPRESSION lz4;
  END IF;
END $$;--> statement-breakpoint
DROP TRIGGER "applications_staff_search_update" ON "applications";--> statement-breakpoint
DROP TRIGGER "applications_staff_search_insert" ON "applications";--> statement-breakpoint
DROP FUNCTION applications_staff_search();--> statement-breakpoint
DROP INDEX "applications_staff_search";--> statement-breakpoint
ALTER TABLE "applications" DROP COLUMN "staff_search";--> statement-breakpoint
DROP FUNCTION staff_search_fold(jsonb);--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "staff_names" text GENERATED ALWAYS AS (coalesce(answer->>'first_name', '') || ' ' || coalesce(answer->>'preferred_name', '') || ' ' || coalesce(answer->>'last_name', '')) STORED;--> statement-breakpoint
CREATE FUNCTION staff_names_fold(names text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN trim(regexp_replace(replace(lower(replace(replace(replace(replace(replace(replace(replace(replace(translate(names, 'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝàáâãäåçèéêëìíîïðñòóôõöøùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĐđĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİıĴĵĶķĹĺĻļĽľŁłŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžſƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳḀḁḂḃḄḅḆḇḈḉḊḋḌḍḎḏḐḑḒḓḔḕḖḗḘḙḚḛḜḝḞḟḠḡḢḣḤḥḦḧḨḩḪḫḬḭḮḯḰḱḲḳḴḵḶḷḸḹḺḻḼḽḾḿṀṁṂṃṄṅṆṇṈṉṊṋṌṍṎṏṐṑṒṓṔṕṖṗṘṙṚṛṜṝṞṟṠṡṢṣṤṥṦṧṨṩṪṫṬṭṮṯṰṱṲṳṴṵṶṷṸṹṺṻṼṽṾṿẀẁẂẃẄẅẆẇẈẉẊẋẌẍẎẏẐẑẒẓẔẕẖẗẘẙẛẠạẢảẤấẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặẸẹẺẻẼẽẾếỀềỂểỄễỆệỈỉỊịỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợỤụỦủỨứỪừỬửỮữỰựỲỳỴỵỶỷỸỹ''’‘`', 'aaaaaaceeeeiiiidnoooooouuuuyaaaaaaceeeeiiiidnoooooouuuuyyaaaaaaccccccccddddeeeeeeeeeegggggggghhiiiiiiiiiijjkkllllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzzsoouuaaiioouuuuuuuuuuaaaaggkkoooojggnnaaaaaaeeeeiiiioooorrrruuuusstthhaaeeooooooooyyaabbbbbbccddddddddddeeeeeeeeeeffgghhhhhhhhhhiiiikkkkkkllllllllmmmmmmnnnnnnnnoooooooopppprrrrrrrrssssssssssttttttttuuuuuuuuuuvvvvwwwwwwwwwwxxxxyyzzzzzzhtwysaaaaaaaaaaaaaaaaaaaaaaaaeeeeeeeeeeeeeeeeiiiioooooooooooooooooooooooouuuuuuuuuuuuuuyyyyyyyy'), 'ß', 'ss'), 'ẞ', 'ss'), 'æ', 'ae'), 'Æ', 'ae'), 'œ', 'oe'), 'Œ', 'oe'), 'þ', 'th'), 'Þ', 'th')), '&', ' and '), '[^a-z0-9]+', ' ', 'g'));
--> statement-breakpoint
CREATE INDEX "applications_staff_search" ON "applications" USING gin (to_tsvector('simple', staff_names_fold("staff_names")));
