import { sql } from 'drizzle-orm';
import type { components } from '../../generated/api';
import type { LookupCategory } from '../../domain/catalogue/types';
import { rowsOf, type Db } from '../infra/db';
import { fold, prefixQuery } from '../office/searchText';
import type { StoredCategory } from './sources';

export type LookupSuggestion = components['schemas']['LookupSuggestion'];
export type LookupDetail = components['schemas']['LookupDetail'];

/**
 * `name` is the default lookup field (spec/form.md §7): it searches every institution the portal
 * holds (high schools and colleges) by name. It never searches applicants' records: /lookup/find
 * answers anyone, signed in or not. Its ids say which list a record is from: `hs_ceeb:060385`.
 */
const searched: Record<LookupCategory, StoredCategory[]> = {
  hs_ceeb: ['hs_ceeb'],
  college_ceeb: ['college_ceeb'],
  address: ['address'],
  name: ['hs_ceeb', 'college_ceeb'],
};

interface Row {
  category: StoredCategory;
  id: string;
  name: string;
  ceeb: string | null;
  city: string | null;
  state: string | null;
  state_code: string | null;
  zip: string | null;
  country: string | null;
  active: boolean;
}


/**
 * Suggestions for `text`, best first: the code or ZIP itself, then the whole name, then names that
 * start with the text, then names with a word that starts with it, then names where every word
 * starts a word (those starting with the first word first), then records where the words are found
 * across the name, other names, city, state code or ZIP. Ties: open institutions first,
 * shorter names, then alphabetical. The word match uses the GIN index on the folded text.
 */
export async function findSuggestions(db: Db, category: LookupCategory, text: string, maxResults: number): Promise<LookupSuggestion[]> {
  const folded = fold(text);
  const query = prefixQuery(folded);
  if (!query) return [];
  const code = text.trim();
  const categories = sql.join(searched[category].map((c) => sql`${c}`), sql`, `);
  const result = await db.execute(sql`
    select category, id, name, ceeb, city, state, state_code, zip, country, active
    from lookup_records
    where category in (${categories})
      and to_tsvector('simple', search_text) @@ to_tsquery('simple', ${query})
    order by
      case
        when id = ${code} then 0
        when search_name = ${folded} then 1
        when search_name like ${folded} || '%' then 2
        when search_name like ${'% ' + folded} || '%' then 3
        when to_tsvector('simple', search_name) @@ to_tsquery('simple', ${query}) then
          case when search_name like ${folded.split(' ')[0]!} || '%' then 4 else 5 end
        else 6
      end,
      active desc, length(name), name, id
    limit ${maxResults}`);
  return rowsOf<Row>(result).map((row) => suggestionOf(category, row));
}

function suggestionOf(category: LookupCategory, row: Row): LookupSuggestion {
  const place = [row.city, [row.state_code, row.zip?.slice(0, 5)].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const closed = row.active ? '' : ' (closed)';
  switch (category) {
    case 'address':
      return { text: row.id, id: row.id, sub_text: [row.city, row.state_code].filter(Boolean).join(', ') };
    case 'name':
      return { text: row.name, id: `${row.category}:${row.id}`, sub_text: `${row.category === 'hs_ceeb' ? 'High school' : 'College'} · ${place}${closed}` };
    default:
      return { text: row.name, id: row.id, sub_text: `${place}${closed}` };
  }
}

/** The record behind a suggestion's id, or null when there is none. */
export async function findDetail(db: Db, category: LookupCategory, id: string): Promise<LookupDetail | null> {
  let stored: StoredCategory | undefined = searched[category][0];
  let key = id;
  if (category === 'name') {
    const [prefix, rest] = id.split(/:(.*)/s);
    stored = searched.name.find((c) => c === prefix);
    key = rest ?? '';
  }
  if (!stored || key === '') return null;
  const result = await db.execute(sql`
    select category, id, name, ceeb, city, state, state_code, zip, country, active
    from lookup_records where category = ${stored} and id = ${key}`);
  const row = rowsOf<Row>(result)[0];
  if (!row) return null;
  const fields = category === 'address' ? { city: row.city, state: row.state, zip: row.zip, country: row.country } : { name: row.name, ceeb: row.ceeb, city: row.city, state: row.state, zip: row.zip, country: row.country };
  // Fields a list does not have are left out rather than sent empty, so the form keeps what was typed.
  return { id, ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null && value !== '')) };
}
