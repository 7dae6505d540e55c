// Pieces shared by the catalogue route modules.
import { publicRead, tokenOnly } from '../../access.ts';

/** Catalogue reads: everybody, cached as master data (ETag, max-age, 304) and in process (src/cache). */
export const readConfig = { access: publicRead, cache: 'master' as const, memo: true };
/** Event dates carry booked/available seats: ETag and max-age, but never the in-process cache. */
export const datesReadConfig = { access: publicRead, cache: 'master' as const };
/** Staff writes: user tokens with catalog:write; a success clears this node's answer cache at once. */
export const writeConfig = { access: tokenOnly(['user'], ['catalog', 'write']), invalidatesCatalog: true };
/** Back-office reads (quotas): user tokens with catalog:read. */
export const staffReadConfig = { access: tokenOnly(['user'], ['catalog', 'read']), cache: 'master' as const, memo: true };

export { unwrap } from '../../unwrap.ts';
