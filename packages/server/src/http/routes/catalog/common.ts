// Pieces shared by the catalogue route modules.
import type { FastifyRequest } from 'fastify';
import { publicRead, tokenOnly } from '../../access.ts';

/** Catalogue reads: everybody, cached as master data (ETag, max-age, 304). */
export const readConfig = { access: publicRead, cache: 'master' as const };
/** Staff writes: user tokens with catalog:write. */
export const writeConfig = { access: tokenOnly(['user'], ['catalog', 'write']) };
/** Back-office reads (quotas): user tokens with catalog:read. */
export const staffReadConfig = { access: tokenOnly(['user'], ['catalog', 'read']), cache: 'master' as const };

/** Bodies are accepted bare or wrapped in their singular key (`{"ticket": {...}}`). */
export function unwrap(key: string) {
  return async (req: FastifyRequest) => {
    const body = req.body as Record<string, unknown> | null;
    const inner = body?.[key];
    if (body && typeof body === 'object' && inner && typeof inner === 'object' && !Array.isArray(inner)) req.body = inner;
  };
}
