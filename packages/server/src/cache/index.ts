// The in-process caches of a serving process (catalogue answers, token resolution) and the
// LISTEN connection that keeps them correct across nodes. `atrium serve` (and each cluster
// worker) starts one; tests and tools that build the app without it simply run uncached.
// ATRIUM_CATALOG_CACHE=0 turns every cache off (for measurements and troubleshooting: the plain
// path, the reference the equivalence tests compare with); ATRIUM_CATALOG_CACHE=rows keeps every
// cache but the answer cache, so each catalogue read costs what an answer-cache miss costs.
import type { FastifyInstance } from 'fastify';
import { ConfigError, type Config } from '../config.ts';
import { ChangeListener, type ListenerLog } from './listener.ts';
import { MasterDataCache } from './masterData.ts';
import { ResponseCache, type AnswerScope } from './responses.ts';
import { RowCache } from './rows.ts';
import { TokenCache } from './tokens.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Per-row JSON of catalogue lists (rows.ts); absent when the caches are off. */
    catalogRows?: RowCache;
  }
}

/** `all`: every cache (default); `rows`: every cache but the answer cache; `off`: none. */
export type CacheMode = 'all' | 'rows' | 'off';

export interface Caches {
  mode: CacheMode;
  listener: ChangeListener;
  /** Registered (answers kept) only in mode `all`. */
  responses: ResponseCache;
  rows: RowCache;
  tokens: TokenCache;
  masterData: MasterDataCache;
  /** Registers the answer-cache hooks (keyed by `scope`) and closes the listener with the app. */
  register(app: FastifyInstance, scope: AnswerScope): void;
  stop(): Promise<void>;
}

export function cacheMode(env: Record<string, string | undefined> = process.env): CacheMode {
  const raw = (env.ATRIUM_CATALOG_CACHE ?? '').toLowerCase();
  if (raw === '' || ['1', 'true', 'yes', 'on'].includes(raw)) return 'all';
  if (['0', 'false', 'no', 'off'].includes(raw)) return 'off';
  if (raw === 'rows') return 'rows';
  throw new ConfigError(`ATRIUM_CATALOG_CACHE must be true, false or rows, got "${raw}"`);
}

export async function startCaches(url: string, config: Config, log: ListenerLog, mode: CacheMode = cacheMode()): Promise<Caches | undefined> {
  if (mode === 'off') return undefined;
  let listener: ChangeListener;
  const live = () => listener.connected;
  const responses = new ResponseCache(live, () => listener.version, config.zone);
  const tokens = new TokenCache(live);
  const masterData = new MasterDataCache(live);
  const rows = new RowCache(live);
  // Everything derived from the catalogue: answers and master-data rows. Row fragments are keyed
  // by each row's version (rows.ts), so a change does not clear them; a reset does.
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
        rows.clear();
        tokens.clear();
      },
    },
    log,
  );
  await listener.start();
  return {
    mode,
    listener,
    responses,
    rows,
    tokens,
    masterData,
    register(app, scope) {
      if (mode === 'all') responses.register(app, scope);
      app.decorate('catalogRows', rows);
      // A catalogue write through this node clears both at once: the writer reads its own change
      // (answers and bookings) even before the NOTIFY arrives.
      app.addHook('onSend', (req, reply, payload, done) => {
        if (req.routeOptions.config.invalidatesCatalog && reply.statusCode < 400) clearCatalog();
        done(null, payload);
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
