// Idempotency-Key for every POST/PUT/PATCH/DELETE under /api/v4 sent with a token (docs/api-contract.md §7,
// spec 7.4). preValidation claims the key (or replays / refuses), onSend stores the answer. The
// claim happens before schema validation, so a refused body is also answered the same way on a
// retry, and the fingerprint is taken of the body exactly as the client sent it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { claimIdempotencyKey } from '../../../domain/idempotency/claimIdempotencyKey.ts';
import { completeIdempotencyKey } from '../../../domain/idempotency/completeIdempotencyKey.ts';
import type { Claim } from '../../../domain/idempotency/internal.ts';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: Claim | null;
  }
}

const METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * Headers that belong to the stored answer; per-request ones (X-Request-Id, dates) do not.
 * Retry-After is read so that a transient answer is recognised and not kept (see isFinal).
 */
const KEPT = ['content-type', 'location', 'content-disposition', 'etag', 'cache-control', 'idempotent-replayed', 'retry-after'];

export function idempotency(app: FastifyInstance) {
  app.decorateRequest('idempotencyClaim', null);

  app.addHook('preValidation', async (req, reply) => {
    if (!METHODS.has(req.method) || req.headers['idempotency-key'] === undefined) return;
    if (req.principal?.kind !== 'account' || !req.routeOptions.url?.startsWith('/api/v4/')) return;
    const outcome = await claimIdempotencyKey(req.ctx, {
      key: req.headers['idempotency-key'],
      method: req.method,
      path: req.url,
      body: req.body,
    });
    if (outcome.kind === 'claimed') {
      req.idempotencyClaim = outcome.claim;
      return;
    }
    // The stored bytes go out as they are: a string with a JSON content type is not re-serialised.
    reply.code(outcome.status).headers(outcome.headers).header('idempotent-replayed', 'true');
    return reply.send(outcome.body);
  });

  // A callback hook with an async part: nearly every request has no claim, and an async hook would
  // cost each of them a promise.
  app.addHook('onSend', (req, reply, payload, done) => {
    const claim = req.idempotencyClaim;
    if (!claim) return done(null, payload);
    req.idempotencyClaim = null;
    store(req, reply, claim, payload).then(() => done(null, payload), done);
  });
}

/** Keeps the answer of a claimed key; a failure to keep it is logged, and the answer still goes out. */
async function store(req: FastifyRequest, reply: FastifyReply, claim: Claim, payload: unknown): Promise<void> {
  const headers: Record<string, string> = {};
  for (const name of KEPT) {
    const v = reply.getHeader(name);
    if (v !== undefined) headers[name] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  // Streams and binary bodies are not kept (null): the key is released and a retry runs again.
  const body = typeof payload === 'string' ? payload : payload === null || payload === undefined ? '' : null;
  try {
    await completeIdempotencyKey(req.ctx, claim, { status: reply.statusCode, body, headers });
  } catch (err) {
    // The answer still goes out; the key stays in flight until its lease runs out.
    req.log.warn({ err }, 'could not store the Idempotency-Key answer');
  }
}
