// The in-process caches of a serving process (catalogue answers, token resolution) and the
// LISTEN connection that keeps them correct across nodes. `atrium serve` (and each cluster
// worker) starts one; tests and tools that build the app without it simply run uncached.
// ATRIUM_CATALOG_CACHE=0 turns both caches off (for measurements and troubleshooting).
import type { FastifyInstance } from 'fastify';
import { ConfigError, type Config } from '../config.ts';
import { ChangeListener, type ListenerLog } from './listener.ts';
import { MasterDataCache } from './masterData.ts';
import { ResponseCache } from './responses.ts';
import { TokenCache } from './tokens.ts';

export interface Caches {
  listener: ChangeListener;
  responses: ResponseCache;
  tokens: TokenCache;
  masterData: MasterDataCache;
  /** Registers the answer-cache hooks and closes the listener with the app. */
  register(app: FastifyInstance): void;
  stop(): Promise<void>;
}

export function cachesEnabled(env: Record<string, string | undefined> = process.env): boolean {
  const raw = (env.ATRIUM_CATALOG_CACHE ?? '').toLowerCase();
  if (raw === '' || ['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`ATRIUM_CATALOG_CACHE must be true or false, got "${raw}"`);
}

export async function startCaches(url: string, config: Config, log: ListenerLog): Promise<Caches | undefined> {
  if (!cachesEnabled()) return undefined;
  let listener: ChangeListener;
  const live = () => listener.connected;
  const responses = new ResponseCache(live, () => listener.version, config.zone);
  const tokens = new TokenCache(live);
  const masterData = new MasterDataCache(live);
  // Everything derived from the catalogue: answers and master-data rows.
  const clearCatalog = () => {
    responses.clear();
    masterData.clear();
  };
  listener = new ChangeListener(
    url,
    {
      onCatalog: clearCatalog,
      onTokens: () => tokens.clear(),
      onReset: () => {
        clearCatalog();
        tokens.clear();
      },
    },
    log,
  );
  await listener.start();
  return {
    listener,
    responses,
    tokens,
    masterData,
    register(app) {
      responses.register(app);
      // A catalogue write through this node clears both at once: the writer reads its own change
      // (answers and bookings) even before the NOTIFY arrives.
      app.addHook('onSend', async (req, reply, payload) => {
        if (req.routeOptions.config.invalidatesCatalog && reply.statusCode < 400) clearCatalog();
        return payload;
      });
      app.addHook('onClose', () => listener.stop());
    },
    stop: () => listener.stop(),
  };
}

/** A listener log that writes through the app's logger once the app exists (stderr before). */
export function lazyLog(app: () => { log: ListenerLog } | undefined): ListenerLog {
  const line = (level: string, obj: object, msg: string) =>
    process.stderr.write(`${JSON.stringify({ level, time: new Date().toISOString(), ...obj, msg })}\n`);
  return {
    warn: (obj, msg) => (app() ? app()!.log.warn(obj, msg) : line('warn', obj, msg)),
    info: (obj, msg) => (app() ? app()!.log.info(obj, msg) : line('info', obj, msg)),
  };
}
