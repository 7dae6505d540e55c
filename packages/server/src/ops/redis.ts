// The Redis connection of a server process (shared rate-limit counters). Redis is an optimisation
// of fairness, never a dependency of serving: every command fails fast while Redis is away
// (no offline queue, one short timeout, no retries per request), and the client keeps
// reconnecting in the background so shared counting resumes by itself when Redis returns.
import { Redis } from 'ioredis';

import { throttled, type RedisLog } from './throttled.ts';

export type { RedisLog };

export function createRedis(url: string, log: RedisLog): Redis {
  const warnOnce = throttled(30_000);
  let wasDown = false;
  const client = new Redis(url, {
    // Commands issued while disconnected error at once instead of waiting in a queue: a request
    // must never wait for Redis to come back.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    // A Redis that accepts the connection but stalls must not stall requests either.
    commandTimeout: 500,
    // Reconnect forever with a capped backoff; the server keeps serving meanwhile.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    lazyConnect: false,
  });
  client.on('error', (err: Error & { code?: string }) => {
    wasDown = true;
    warnOnce(() => log.warn({ redis_error: err.message, code: err.code }, 'redis unavailable; rate limits fall back to this node\'s own counters (fail open)'));
  });
  client.on('ready', () => {
    if (wasDown) log.info({}, 'redis reachable again; shared rate limits resumed');
    wasDown = false;
  });
  return client;
}

/**
 * Gives a fresh client up to `ms` to connect, so the first requests after start are counted in
 * the shared store rather than locally. Resolves either way: a Redis that is down delays the
 * start by at most `ms`, it never prevents it.
 */
export async function settle(client: Redis, ms = 2_000): Promise<void> {
  if (client.status === 'ready') return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    timer.unref();
    client.once('ready', done);
    function done() {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    }
  });
}

/** Closes without waiting for a Redis that may be gone. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    await Promise.race([client.quit().catch(() => {}), new Promise((r) => setTimeout(r, 1_000).unref())]);
  }
  client.disconnect();
}
