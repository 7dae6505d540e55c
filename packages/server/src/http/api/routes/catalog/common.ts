// Pieces shared by the catalogue route modules.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { jsonText } from '../../../../cache/responses.ts';
import type { JsonOut } from '../../../../domain/catalog/fragments.ts';
import type { Page } from '../../../../domain/catalog/internal.ts';
import { publicRead, tokenOnly } from '../../access.ts';
import { ListMeta } from '../../schemas/common.ts';

/** Catalogue reads: everybody, cached as master data (ETag, max-age, 304) and in process (src/cache). */
export const readConfig = { access: publicRead, cache: 'master' as const, memo: true };
/** Event dates carry booked/available seats: ETag and max-age, but never the in-process cache. */
export const datesReadConfig = { access: publicRead, cache: 'master' as const };
/** Staff writes: user tokens with catalog:write; a success clears this node's answer cache at once. */
export const writeConfig = { access: tokenOnly(['user'], ['catalog', 'write']), invalidatesCatalog: true };
/** Back-office reads (quotas): user tokens with catalog:read. */
export const staffReadConfig = { access: tokenOnly(['user'], ['catalog', 'read']), cache: 'master' as const, memo: true };

export { unwrap } from '../../unwrap.ts';

/**
 * Where a list's items go as JSON text when this process keeps row fragments and may use them now
 * (src/cache/rows.ts, domain/catalog/fragments.ts): the store and this route's own compiled
 * serializer for one item (the one its `listOf(key, item)` schema uses for each element).
 * Undefined with the caches off: then the list takes the plain path.
 */
export function rowJson(req: FastifyRequest, reply: FastifyReply, item: TSchema): JsonOut | undefined {
  const fragments = req.server.catalogRows?.usable();
  if (!fragments) return undefined;
  return { fragments, render: reply.compileSerializationSchema(item as unknown as Record<string, unknown>) };
}

/**
 * `{"<key>":[…],"meta":{…}}` from items that are JSON text already, sent as it is: the bytes the
 * route's `listOf(key, item)` schema gives for the same page (checked byte for byte by
 * test/http/catalog-cache-equivalence.test.ts). Typed `never` for the handler's return: the
 * route's typed reply accepts only its schema's object, and this is that object's text.
 */
export function listJson(reply: FastifyReply, key: string, page: Page<string>): never {
  const meta = reply.compileSerializationSchema(ListMeta as unknown as Record<string, unknown>)(page.meta);
  return jsonText(reply, `{${JSON.stringify(key)}:[${page.items.join(',')}],"meta":${meta}}`) as never;
}
