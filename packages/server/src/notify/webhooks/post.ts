// One delivery attempt (docs/webhooks.md, "Delivery"): a POST signed as Standard Webhooks
// specifies (the `standardwebhooks` package, so any Standard Webhooks library verifies it), to
// the address that was checked (targets.ts). Everything about the receiver is bounded: the whole
// attempt by the timeout, the response body read to at most MAX_READ bytes, redirects never
// followed (a 3xx is a failure: following it would skip the address check).
import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { pinnedLookup, type CheckedTarget } from '../../domain/webhooks/targets.ts';

const MAX_READ = 64 * 1024;
/** A timer this late means this process, not the receiver, was busy (see postSigned). */
const STALL_MS = 20;
/** What is kept of a response body for the deliveries log. */
export const EXCERPT = 1024;

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  /** Why it failed, for the log and the endpoint's deliveries (never the secret). */
  error: string | null;
  excerpt: string | null;
  durationMs: number;
}

export function signedHeaders(secret: string, eventId: string, at: Date, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Atrium-Webhooks/1',
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(eventId, at, body),
  };
}

export function postSigned(
  target: CheckedTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<AttemptResult> {
  const started = Date.now();
  const done = (r: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({ ...r, durationMs: Date.now() - started });
  return new Promise((resolve) => {
    const mod = target.url.protocol === 'https:' ? https : http;
    let settled = false;
    const finish = (r: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(done(r));
    };
    const req = mod.request(
      target.url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(target),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const status = res.statusCode ?? 0;
        const result = () => {
          const excerpt = Buffer.concat(chunks).subarray(0, EXCERPT).toString('utf8');
          if (status >= 200 && status < 300) return { ok: true, statusCode: status, error: null, excerpt };
          if (status >= 300 && status < 400) return { ok: false, statusCode: status, error: `redirect to ${String(res.headers.location ?? '?').slice(0, 200)} not followed`, excerpt };
          return { ok: false, statusCode: status, error: `HTTP ${status}`, excerpt };
        };
        res.on('data', (c: Buffer) => {
          if (size < MAX_READ) chunks.push(c.subarray(0, MAX_READ - size));
          size += c.length;
          // Enough to judge and log: the rest is not read (a huge body must not hold the worker).
          if (size >= MAX_READ) finish(result());
        });
        res.on('end', () => finish(result()));
        res.on('error', (err) => finish({ ok: false, statusCode: status, error: `response failed: ${err.message}`, excerpt: null }));
      },
    );
    // The timeout is the receiver's time, not ours. When the timer fires late, this process was
    // stalled (a CPU-bound render on the same event loop): an answer that came meanwhile is still
    // unread in the socket, and calling that a timeout would send the event again. The wait is
    // then extended once by the lateness (so at most twice the timeout), giving the event loop
    // the turns it needs to read what has arrived.
    let due = Date.now() + timeoutMs;
    let extended = false;
    const expire = () => {
      const late = Date.now() - due;
      if (!extended && late > STALL_MS) {
        extended = true;
        due = Date.now() + Math.min(late, timeoutMs);
        timer = setTimeout(expire, due - Date.now());
        return;
      }
      finish({ ok: false, statusCode: null, error: `no answer within ${timeoutMs} ms`, excerpt: null });
    };
    let timer = setTimeout(expire, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => finish({ ok: false, statusCode: null, error: `connection failed: ${err.code ?? err.message}`, excerpt: null }));
    req.end(body);
  });
}
