// A local stand-in for the part of Mollie's API that Atrium calls (payment create and get, refund
// create), for the real `@mollie/api-client` SDK pointed at it with MOLLIE_API_ENDPOINT. The SDK
// speaks HTTPS only and trusts only its bundled certificate authorities, so the stand-in serves a
// throw-away self-signed certificate (made with openssl) and the test process that uses it turns
// certificate checks off (test/payments/support.ts). Mollie's webhook is a form with the payment
// id only; `webhook(id)` gives that body.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

interface MolliePayment {
  resource: 'payment';
  id: string;
  mode: 'test';
  amount: { currency: string; value: string };
  description: string;
  status: 'open' | 'paid' | 'failed' | 'canceled' | 'expired';
  method: string | null;
  redirectUrl: string;
  webhookUrl?: string;
  metadata: unknown;
  createdAt: string;
  refunded: number;
  _links: Record<string, { href: string; type: string }>;
}

export interface MollieStandin {
  endpoint: string;
  apiKey: string;
  payments: Map<string, MolliePayment>;
  calls: string[];
  setStatus(id: string, status: MolliePayment['status']): void;
  webhook(id: string): { payload: string; headers: Record<string, string> };
  close(): Promise<void>;
}

const n = () => randomBytes(6).toString('hex');

export async function startMollieStandin(): Promise<MollieStandin> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mollie-standin-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  const payments = new Map<string, MolliePayment>();
  const idem = new Map<string, { status: number; body: string }>();
  const calls: string[] = [];
  const apiKey = `test_${randomBytes(15).toString('hex')}`;
  let endpoint = '';
  const json = (status: number, obj: unknown) => ({ status, body: JSON.stringify(obj) });
  const problem = (status: number, detail: string) => json(status, { status, title: status === 404 ? 'Not Found' : 'Unprocessable Entity', detail });
  const cents = (v: string) => Math.round(Number(v) * 100);

  function handle(method: string, p: string, body: string) {
    if (method === 'POST' && p === '/v2/payments') {
      const b = JSON.parse(body) as { amount: MolliePayment['amount']; description: string; redirectUrl: string; webhookUrl?: string; metadata: unknown };
      const id = `tr_${n()}`;
      const pay: MolliePayment = {
        resource: 'payment', id, mode: 'test', amount: b.amount, description: b.description, status: 'open', method: null, redirectUrl: b.redirectUrl,
        ...(b.webhookUrl ? { webhookUrl: b.webhookUrl } : {}), metadata: b.metadata, createdAt: new Date().toISOString(), refunded: 0,
        _links: { self: { href: `${endpoint}payments/${id}`, type: 'application/hal+json' }, checkout: { href: `${endpoint.replace('/v2/', '')}/checkout/${id}`, type: 'text/html' } },
      };
      payments.set(id, pay);
      return json(201, pay);
    }
    const get = /^\/v2\/payments\/(tr_[A-Za-z0-9]+)$/.exec(p);
    if (method === 'GET' && get) {
      const pay = payments.get(get[1]!);
      return pay ? json(200, pay) : problem(404, 'No payment exists with token');
    }
    const ref = /^\/v2\/payments\/(tr_[A-Za-z0-9]+)\/refunds$/.exec(p);
    if (method === 'POST' && ref) {
      const pay = payments.get(ref[1]!);
      if (!pay) return problem(404, 'No payment exists with token');
      const amount = cents((JSON.parse(body) as { amount: { value: string } }).amount.value);
      if (pay.status !== 'paid' || pay.refunded + amount > cents(pay.amount.value)) return problem(422, 'The amount is higher than the amount that can be refunded');
      pay.refunded += amount;
      return json(201, { resource: 'refund', id: `re_${n()}`, amount: { currency: pay.amount.currency, value: (amount / 100).toFixed(2) }, status: 'pending', paymentId: pay.id, createdAt: new Date().toISOString(), _links: {} });
    }
    return problem(404, `no route ${method} ${p}`);
  }

  const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, async (req, res) => {
    let body = '';
    for await (const c of req) body += c;
    const p = new URL(req.url ?? '/', 'https://x').pathname;
    calls.push(`${req.method} ${p}`);
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      res.writeHead(401, { 'content-type': 'application/hal+json' }).end(JSON.stringify({ status: 401, title: 'Unauthorized Request', detail: 'Missing authentication' }));
      return;
    }
    const ik = req.headers['idempotency-key'];
    const k = typeof ik === 'string' ? `${req.method} ${p} ${ik}` : undefined;
    const answer = (k && idem.get(k)) || handle(req.method ?? 'GET', p, body);
    if (k) idem.set(k, answer);
    res.writeHead(answer.status, { 'content-type': 'application/hal+json' }).end(answer.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  endpoint = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v2/`;
  return {
    endpoint, apiKey, payments, calls,
    setStatus(id, status) {
      const pay = payments.get(id);
      if (!pay) throw new Error(`no payment ${id}`);
      pay.status = status;
      if (status === 'paid') pay.method = 'ideal';
    },
    webhook: (id) => ({ payload: `id=${id}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    close: () =>
      new Promise<void>((r) =>
        server.close(() => {
          fs.rmSync(dir, { recursive: true, force: true });
          r();
        }),
      ),
  };
}
