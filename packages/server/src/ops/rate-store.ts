// Fixed-window request counters for @fastify/rate-limit: in this process's memory, or in Redis so
// that several nodes share one budget per key. The Redis store falls back to the memory counters
// for as long as Redis fails (fail open: serving never depends on Redis, and each node still
// enforces the limit on its own share of traffic); it uses Redis again as soon as Redis answers.
import type { Redis } from 'ioredis';
import { throttled, type RedisLog } from './throttled.ts';

export interface Count {
  current: number;
  /** Milliseconds until the window resets. */
  ttl: number;
}
type Callback = (err: Error | null, result?: Count) => void;

export interface CounterStore {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  child(): CounterStore;
  /** The key's count in its current window without counting (0 when there is none). */
  peek(key: string): Promise<Count>;
}

const MAX_KEYS = 100_000;

export class MemoryCounters implements CounterStore {
  private windows = new Map<string, { count: number; resetAt: number }>();

  incr(key: string, cb: Callback, timeWindow: number): void {
    cb(null, this.count(key, timeWindow));
  }

  count(key: string, timeWindow: number): Count {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      if (!w && this.windows.size >= MAX_KEYS) this.evict(now);
      w = { count: 0, resetAt: now + timeWindow };
      this.windows.set(key, w);
    }
    w.count += 1;
    return { current: w.count, ttl: w.resetAt - now };
  }

  async peek(key: string): Promise<Count> {
    const now = Date.now();
    const w = this.windows.get(key);
    return w && w.resetAt > now ? { current: w.count, ttl: w.resetAt - now } : { current: 0, ttl: 0 };
  }

  /** Drops finished windows; if all are live (a flood of distinct IPs), drops the oldest half. */
  private evict(now: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    if (this.windows.size < MAX_KEYS) return;
    let drop = this.windows.size / 2;
    for (const k of this.windows.keys()) {
      if (drop-- <= 0) break;
      this.windows.delete(k);
    }
  }

  child(): CounterStore {
    return this;
  }
}

// INCR and the expiry in one atomic step: a window starts with the first request, and a key that
// somehow lost its expiry gets one again instead of counting forever.
const WINDOW_LUA = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {c, ttl}
`;

type WithWindow = Redis & { atriumWindow(key: string, windowMs: number): Promise<[number, number]> };

export class RedisCounters implements CounterStore {
  private fallback = new MemoryCounters();
  private warn = throttled(30_000);
  private redis: WithWindow;

  constructor(
    redis: Redis,
    private prefix: string,
    private log: RedisLog,
  ) {
    if (!('atriumWindow' in redis)) redis.defineCommand('atriumWindow', { numberOfKeys: 1, lua: WINDOW_LUA });
    this.redis = redis as WithWindow;
  }

  incr(key: string, cb: Callback, timeWindow: number): void {
    // Not connected: do not even try (no offline queue; the answer would be an error anyway).
    if (this.redis.status !== 'ready') {
      cb(null, this.fallback.count(key, timeWindow));
      return;
    }
    this.redis.atriumWindow(this.prefix + key, timeWindow).then(
      ([current, ttl]) => cb(null, { current: Number(current), ttl: Number(ttl) }),
      (err: Error) => {
        this.warn(() => this.log.warn({ redis_error: err.message }, 'redis rate-limit command failed; counting on this node (fail open)'));
        cb(null, this.fallback.count(key, timeWindow));
      },
    );
  }

  async peek(key: string): Promise<Count> {
    if (this.redis.status !== 'ready') return this.fallback.peek(key);
    try {
      const [count, ttl] = await Promise.all([this.redis.get(this.prefix + key), this.redis.pttl(this.prefix + key)]);
      return ttl > 0 ? { current: Number(count ?? 0), ttl } : { current: 0, ttl: 0 };
    } catch (err) {
      this.warn(() => this.log.warn({ redis_error: (err as Error).message }, 'redis rate-limit command failed; counting on this node (fail open)'));
      return this.fallback.peek(key);
    }
  }

  child(): CounterStore {
    return this;
  }
}
