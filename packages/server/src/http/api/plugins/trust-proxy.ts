// Which X-Forwarded-* hops to believe (ATRIUM_TRUST_PROXY; docs/operations.md, "Behind a proxy").
// The client's address is the right-most X-Forwarded-For entry that a trusted hop did not add:
// everything to the left of it was written by the client and may be anything. Fastify ignores a
// plain number (it cannot check the peer), so a hop count is handed over as a function: the
// peer (hop 0) and the next hops - 1 entries are the proxies', the one after is the client.
import type { FastifyServerOptions } from 'fastify';
import type { TrustProxy } from '../../../config.ts';

export function fastifyTrustProxy(setting: TrustProxy): NonNullable<FastifyServerOptions['trustProxy']> {
  if (setting === false) return false;
  if ('addresses' in setting) return setting.addresses;
  const hops = setting.hops;
  return (_address: string, hop: number) => hop < hops;
}
