// Liveness and readiness for load balancers; outside /api/v4, no token, no secrets revealed.
// Each database check gives up after CHECK_TIMEOUT_MS (a frozen server must not hold the probe for
// the client's own timeouts), and a node whose job runner is down is not ready (jobs/supervisor.ts).
import type { FastifyPluginAsync } from 'fastify';
import type pg from 'pg';
import { pendingMigrationCount } from '../../../db/migrate.ts';

export const CHECK_TIMEOUT_MS = 2000;

export interface JobsHealth {
  up: boolean;
  reason?: string;
}

function bounded<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('check timed out')), ms)));
  // The abandoned check settles on its own later; its error is not this request's.
  p.catch(() => undefined);
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export function healthRoutes(pool: pg.Pool, jobs?: () => JobsHealth | undefined, timeoutMs = CHECK_TIMEOUT_MS): FastifyPluginAsync {
  return async (app) => {
    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
    app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
      let pending: number;
      try {
        pending = await bounded(pool.query('select 1').then(() => pendingMigrationCount(pool)), timeoutMs);
      } catch {
        reply.header('retry-after', '5');
        return reply.code(503).send({ status: 'database unreachable' });
      }
      if (pending > 0) return reply.code(503).send({ status: 'migrations pending', pending });
      const j = jobs?.();
      if (j && !j.up) {
        reply.header('retry-after', '5');
        return reply.code(503).send({ status: 'job runner down', reason: j.reason ?? 'unknown' });
      }
      return { status: 'ready' };
    });
  };
}
