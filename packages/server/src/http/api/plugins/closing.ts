// Behaviour while the server closes (SIGTERM, cli/serve.ts → app.close()). Fastify stops
// accepting connections and Node closes the keep-alive connections that are idle at that moment;
// the rest is ours:
// - requests still arriving on open keep-alive connections get a complete 503 in the spec's shape
//   with Retry-After (Fastify's own return503OnClosing body is not), so clients and balancers
//   retry elsewhere, while requests already running finish normally;
// - every answer sent after close began carries `Connection: close`, so no client writes another
//   request on a socket we are about to close;
// - connections that become idle after close began are closed as soon as they are idle. Node
//   closes idle connections only once, when close starts; an answer already being written then
//   went out without Connection: close, and its socket would idle until the keep-alive timeout
//   (72 s) while app.close() waits for it.
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../../domain/errors.ts';
import { sendError } from './errors.ts';

const REAP_EVERY_MS = 50;

export function closingBehaviour(app: FastifyInstance) {
  let closing = false;
  let reaper: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    closing = true;
    reaper = setInterval(() => app.server.closeIdleConnections(), REAP_EVERY_MS);
    reaper.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(reaper);
  });
  // Callback hooks: they run on every request, and an async hook costs a promise each time.
  app.addHook('onRequest', (req, reply, done) => {
    if (!closing) return done();
    // Answered here: the chain ends without done().
    sendError(req, reply, new DomainError('SERVICE_UNAVAILABLE', 'the server is shutting down; retry', { retryAfter: 1 }));
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}
