// A local stand-in for the part of Stripe's API that Atrium calls (Checkout Session create and
// retrieve, refund create), on 127.0.0.1, for the real `stripe` SDK pointed at it with
// STRIPE_API_BASE; used by the payments tests and bench/payments.ts. It keeps state like Stripe:
// a session is paid, declined or expired by the caller (what the visitor does on Stripe's page),
// refunds never exceed what was captured, and an Idempotency-Key returns the first answer again.
// Webhook events are signed as Stripe signs them:
// Stripe-Signature `t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface Session {
  id: string;
  object: 'checkout.session';
  url: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  payment_method_types: string[];
  payment_intent: string | null;
  expires_at: number | null;
}
interface Intent {
  id: string;
  object: 'payment_intent';
  status: 'succeeded' | 'requires_payment_method';
  amount_received: number;
  refunded: number;
  last_payment_error: { code: string; decline_code: string; message: string } | null;
}

export interface StripeStandin {
  base: string;
  secretKey: string;
  webhookSecret: string;
  sessions: Map<string, Session>;
  /** Every API call received, as "METHOD path". */
  calls: string[];
  /** Refunds accepted, with their amounts. */
  refunds: Array<{ id: string; payment_intent: string; amount: number }>;
  /** Make refunds fail (Stripe answers an error) until set back. */
  failRefunds: boolean;
  /** Make refunds, then drop the connection before answering (the caller never hears). */
  dropRefunds: boolean;
  /** Awaited before a call is answered (a drill kills the caller while it waits); null: none. */
  beforeAnswer: ((method: string, path: string) => Promise<void>) | null;
  pay(id: string): void;
  decline(id: string): void;
  expire(id: string): void;
  /** A webhook body and headers for `type` about the session, signed with `secret`. */
  event(type: string, sessionId: string, secret?: string): { payload: string; headers: Record<string, string> };
  close(): Promise<void>;
}

const n = () => randomBytes(8).toString('hex');

async function readBody(req: http.IncomingMessage): Promise<string> {
  let s = '';
  for await (const c of req) s += c;
  return s;
}

export async function startStripeStandin(): Promise<StripeStandin> {
  const sessions = new Map<string, Session>();
  const intents = new Map<string, Intent>();
  const idem = new Map<string, { status: number; body: string }>();
  const calls: string[] = [];
  const refunds: StripeStandin['refunds'] = [];
  let base = '';
  const state = { failRefunds: false, dropRefunds: false };
  const hooks: Pick<StripeStandin, 'beforeAnswer'> = { beforeAnswer: null };

  const error = (status: number, message: string, code = 'resource_missing') => ({ status, body: JSON.stringify({ error: { type: 'invalid_request_error', code, message } }) });
  const ok = (obj: unknown) => ({ status: 200, body: JSON.stringify(obj) });

  function handle(method: string, path: string, form: URLSearchParams, query: URLSearchParams): { status: number; body: string } {
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = `cs_test_${n()}`;
      const metadata: Record<string, string> = {};
      for (const [k, v] of form) {
        const m = /^metadata\[(.+)\]$/.exec(k);
        if (m) metadata[m[1]!] = v;
      }
      const s: Session = {
        id, object: 'checkout.session', url: `${base}/pay/${id}`, status: 'open', payment_status: 'unpaid',
        amount_total: Number(form.get('line_items[0][price_data][unit_amount]')) * Number(form.get('line_items[0][quantity]') ?? 1),
        currency: form.get('line_items[0][price_data][currency]') ?? 'eur', client_reference_id: form.get('client_reference_id'),
        metadata, success_url: form.get('success_url') ?? '', payment_method_types: ['card'], payment_intent: null,
        expires_at: form.has('expires_at') ? Number(form.get('expires_at')) : null,
      };
      sessions.set(id, s);
      return ok(s);
    }
    const get = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && get) {
      const s = sessions.get(decodeURIComponent(get[1]!));
      if (!s) return error(404, 'No such checkout.session');
      const expand = [...query.entries()].some(([k, v]) => k.startsWith('expand') && v === 'payment_intent');
      return ok(expand && s.payment_intent ? { ...s, payment_intent: intents.get(s.payment_intent) } : s);
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const pi = intents.get(form.get('payment_intent') ?? '');
      if (!pi) return error(404, 'No such payment_intent');
      if (state.failRefunds) return error(400, 'The refund could not be processed.', 'refund_failed');
      const amount = Number(form.get('amount') ?? pi.amount_received - pi.refunded);
      if (pi.refunded + amount > pi.amount_received) return error(400, 'Refund amount is greater than unrefunded amount on charge', 'amount_too_large');
      pi.refunded += amount;
      const r = { id: `re_${n()}`, object: 'refund', amount, payment_intent: pi.id, status: 'succeeded', failure_reason: null };
      refunds.push({ id: r.id, payment_intent: pi.id, amount });
      return ok(r);
    }
    return error(404, `Unrecognized request URL (${method}: ${path})`);
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = await readBody(req);
    calls.push(`${req.method} ${url.pathname}`);
    if (hooks.beforeAnswer) await hooks.beforeAnswer(req.method ?? 'GET', url.pathname);
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }));
      return;
    }
    const key = req.headers['idempotency-key'];
    const k = typeof key === 'string' ? `${req.method} ${url.pathname} ${key}` : undefined;
    const answer = (k && idem.get(k)) || handle(req.method ?? 'GET', url.pathname, new URLSearchParams(body), url.searchParams);
    if (k && answer.status < 500) idem.set(k, answer);
    if (state.dropRefunds && url.pathname === '/v1/refunds') {
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': `req_${n()}` }).end(answer.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const secretKey = `sk_test_${n()}`;
  const webhookSecret = `whsec_${n()}`;

  const session = (id: string) => {
    const s = sessions.get(id);
    if (!s) throw new Error(`no session ${id}`);
    return s;
  };
  return {
    base, secretKey, webhookSecret, sessions, calls, refunds,
    get failRefunds() {
      return state.failRefunds;
    },
    set failRefunds(v: boolean) {
      state.failRefunds = v;
    },
    get beforeAnswer() {
      return hooks.beforeAnswer;
    },
    set beforeAnswer(v) {
      hooks.beforeAnswer = v;
    },
    get dropRefunds() {
      return state.dropRefunds;
    },
    set dropRefunds(v: boolean) {
      state.dropRefunds = v;
    },
    pay(id) {
      const s = session(id);
      const pi: Intent = { id: `pi_${n()}`, object: 'payment_intent', status: 'succeeded', amount_received: s.amount_total, refunded: 0, last_payment_error: null };
      intents.set(pi.id, pi);
      Object.assign(s, { status: 'complete', payment_status: 'paid', payment_intent: pi.id });
    },
    decline(id) {
      const s = session(id);
      const pi: Intent = {
        id: `pi_${n()}`, object: 'payment_intent', status: 'requires_payment_method', amount_received: 0, refunded: 0,
        last_payment_error: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
      };
      intents.set(pi.id, pi);
      Object.assign(s, { status: 'complete', payment_status: 'unpaid', payment_intent: pi.id });
    },
    expire(id) {
      Object.assign(session(id), { status: 'expired' });
    },
    event(type, sessionId, secret = webhookSecret) {
      const payload = JSON.stringify({ id: `evt_${n()}`, object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object: session(sessionId) } });
      const t = Math.floor(Date.now() / 1000);
      const v1 = createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex');
      return { payload, headers: { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${v1}` } };
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
