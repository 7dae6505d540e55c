// Liveness and readiness for load balancers; outside /api/v4, no token, no secrets revealed.
import type { FastifyPluginAsync } from 'fastify';
import type pg from 'pg';
import { pendingMigrationCount } from '../../../db/migrate.ts';

export function healthRoutes(pool: pg.Pool): FastifyPluginAsync {
  return async (app) => {
    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
    app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
      try {
        await pool.query('select 1');
        const pending = await pendingMigrationCount(pool);
        if (pending > 0) return reply.code(503).send({ status: 'migrations pending', pending });
        return { status: 'ready' };
      } catch {
        reply.header('retry-after', '5');
        return reply.code(503).send({ status: 'database unreachable' });
      }
    });
  };
}
