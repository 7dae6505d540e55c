// One limiter for the budgets that are not per-request API limits: the shop's holding actions
// (per visitor and per address), unknown manage links per address, and gift-card balance
// look-ups per address. It counts in fixed windows in the same store as the API's rate limits
// (ops/rate-store.ts): in Redis when REDIS_URL is set, so every node shares one budget per key;
// else in this process's memory, so each node counts its own share (docs/operations.md).
import type { Config } from '../config.ts';
import { DomainError } from '../domain/errors.ts';
import { MemoryCounters, RedisCounters, type CounterStore } from './rate-store.ts';
import type { RedisLog } from './throttled.ts';

export interface Budget {
  max: number;
  windowMs: number;
}

/** Gift-card code tries per address (balance look-ups, payments in the shop): codes are not for guessing. */
export const GIFT_CARD_TRIES: Budget = { max: 10, windowMs: 60_000 };

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export class Limiter {
  constructor(readonly store: CounterStore) {}

  /** Counts one against `key`; the seconds to wait when that made it go over `b.max`, else null. */
  hit(key: string, b: Budget): Promise<number | null> {
    return new Promise((resolve) =>
      this.store.incr(`lim:${key}`, (err, r) => resolve(!err && r && r.current > b.max ? seconds(r.ttl) : null), b.windowMs, b.max),
    );
  }

  /** Without counting: the seconds to wait when `key` has used up `b.max` in its window, else null. */
  async spent(key: string, b: Budget): Promise<number | null> {
    const r = await this.store.peek(`lim:${key}`);
    return r.current >= b.max ? seconds(r.ttl) : null;
  }

  /** Counts one; RATE_LIMITED (with Retry-After) when over. */
  async take(key: string, b: Budget, message = 'rate limit exceeded'): Promise<void> {
    const wait = await this.hit(key, b);
    if (wait !== null) throw new DomainError('RATE_LIMITED', message, { retryAfter: wait });
  }
}

/** A process-local limiter (tests, and nodes without Redis). */
export const memoryLimiter = () => new Limiter(new MemoryCounters());

/** The app's counter store: Redis when configured (closed by the returned `close`), else memory. */
export async function counterStore(config: Pick<Config, 'redisUrl' | 'redisPrefix'>, log: RedisLog): Promise<{ store: CounterStore; close(): Promise<void> }> {
  if (!config.redisUrl) return { store: new MemoryCounters(), close: async () => undefined };
  // Loaded only where Redis is configured: most nodes and every test without it skip the client.
  const { closeRedis, createRedis, settle } = await import('./redis.ts');
  const redis = createRedis(config.redisUrl, log);
  await settle(redis);
  return { store: new RedisCounters(redis, `${config.redisPrefix}rl:`, log), close: () => closeRedis(redis) };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's limiter (decorated in app.ts before any route). */
    limiter: Limiter;
  }
}
