// The one rule for finding a person by name, shared by the console's order search
// (ordersQuery.ts) and the API's customer list (customers.ts): both sides go through
// atrium_search_text (src/db/sql/atrium_search_text.sql), so "mueller" finds "Müller".
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `column` (a name) starts with `text`, both normalised; the expression indexes of migration 0045 serve it. */
export function nameStarts(column: SQLWrapper, text: string): SQL {
  return sql`atrium_search_text(${column}) like atrium_search_text(${escapeLike(text)}) || '%'`;
}
