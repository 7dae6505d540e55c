// The read deadline (docs/operations.md, "Limits and their settings"; ADR 0016): a GET or HEAD
// under /api/v4 that has no answer after ATRIUM_READ_TIMEOUT_MS is answered 503 with
// Retry-After, so a frozen or locked database costs a reader seconds, not minutes. Writes are
// bounded by the statement_timeout of the web pool (db/timeouts.ts) instead: answering a write
// early would leave the client unsure whether it was stored while it still runs.
// The handler that was overtaken finishes in the background; its late answer is dropped.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../../../config.ts';
import { DomainError } from '../../../domain/errors.ts';
import { sendError } from './errors.ts';

const TIMER = Symbol('atrium.deadline');
type WithTimer = FastifyReply & { [TIMER]?: NodeJS.Timeout };

export function readDeadline(app: FastifyInstance, config: Pick<Config, 'readTimeoutMs'>) {
  app.addHook('onRequest', (req, reply, done) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && req.url.startsWith('/api/v4')) {
      (reply as WithTimer)[TIMER] = setTimeout(() => {
        if (reply.sent) return;
        req.log.warn({ timeout_ms: config.readTimeoutMs }, 'read deadline passed; answering 503');
        void sendError(req, reply, new DomainError('SERVICE_UNAVAILABLE', 'the database did not answer in time; retry', { retryAfter: 2 }));
      }, config.readTimeoutMs);
    }
    done();
  });
  app.addHook('onResponse', (_req, reply, done) => {
    clearTimeout((reply as WithTimer)[TIMER]);
    done();
  });
}
