// Retries of safe methods through the fault-injecting proxy (spec 7.1, 7.3, 8): 5xx and dropped
// connections are retried up to the bound and no further; 429 honours Retry-After; 401/403/404/410
// are never retried; 202 document downloads are polled until ready or the deadline; batches keep
// their concurrency bound; unknown fields are tolerated and reported once; logs never hold a token.
import assert from 'node:assert/strict';
import { after, beforeEach, describe, test } from 'node:test';
import {
  DocumentNotReadyError, ForbiddenError, GoneError, NetworkError, NotFoundError, RateLimitedError, ServerError, UnauthorizedError,
} from '@atrium/client';
import { clientEnv } from './helpers/env.ts';

const env = await clientEnv();
after(() => env.close());
beforeEach(() => env.proxy.reset());
const WHOAMI = /\/api\/v4\/whoami$/;
const err = (status: number) => ({ kind: 'status' as const, status, body: { error: `injected ${status}`, code: 'X', request_id: 'r' } });

describe('retries of GET, PUT and DELETE', () => {
  test('502, 503, 504 and a cut connection are retried; the fifth answer succeeds', async () => {
    env.proxy.inject('GET', WHOAMI, err(502), err(503), { kind: 'drop-after' }, err(504));
    const who = await env.client({ maxAttempts: 5 }).whoami();
    assert.equal(who.access, 'reseller');
    assert.equal(env.proxy.count('GET', WHOAMI), 5);
  });

  test('retries stop at the bound (3 and 5 attempts), then a typed error', async () => {
    for (const max of [3, 5]) {
      env.proxy.reset();
      env.proxy.inject('GET', WHOAMI, ...Array.from({ length: 10 }, () => err(503)));
      await assert.rejects(env.client({ maxAttempts: max }).whoami(), (e) => e instanceof ServerError && e.status === 503 && e.attempts === max);
      assert.equal(env.proxy.count('GET', WHOAMI), max);
    }
    env.proxy.reset();
    env.proxy.inject('GET', WHOAMI, ...Array.from({ length: 10 }, () => ({ kind: 'drop-after' as const })));
    await assert.rejects(env.client().whoami(), (e) => e instanceof NetworkError && e.attempts === 4);
    assert.equal(env.proxy.count('GET', WHOAMI), 4, 'default bound: 4 attempts');
  });

  test('401, 403, 404 and 410 are never retried', async () => {
    for (const [status, Cls] of [[401, UnauthorizedError], [403, ForbiddenError], [404, NotFoundError], [410, GoneError]] as const) {
      env.proxy.reset();
      env.proxy.inject('GET', WHOAMI, err(status), err(status));
      await assert.rejects(env.client().whoami(), Cls);
      assert.equal(env.proxy.count('GET', WHOAMI), 1, `${status} was sent once`);
      env.proxy.inject('PUT', /\/customers$/, err(status));
      await assert.rejects(env.client().customers.update({ foreign_id: 'x', name: 'y' }), Cls);
      assert.equal(env.proxy.count('PUT', /\/customers$/), 1);
    }
  });

  test('PUT and DELETE are retried after 5xx (safe to repeat, spec 7.4)', async () => {
    const c = env.client();
    await c.customers.create({ foreign_id: 'put-retry', name: 'A', surname: 'B', email: 'a@b.example' });
    env.proxy.inject('PUT', /\/customers$/, { kind: 'status-after', status: 502 }, err(503));
    const u = await c.customers.update({ foreign_id: 'put-retry', city: 'Berlin' });
    assert.equal(u.city, 'Berlin');
    assert.equal(env.proxy.count('PUT', /\/customers$/), 3);
    const hold = await c.reservations.create({ ticket_id: env.ticketId, quantity: 1, start_at: env.slot(600) });
    env.proxy.inject('DELETE', /\/reservations\//, { kind: 'drop-after' });
    await c.reservations.release(hold.reservation_token); // the server released it on the first try; the repeat is harmless
    assert.equal(env.proxy.count('DELETE', /\/reservations\//), 2);
    assert.equal(env.proxy.seen.at(-1)!.status, 204);
  });

  test('429 waits for Retry-After, then succeeds; a lasting 429 ends in RateLimitedError', async () => {
    env.proxy.inject('GET', WHOAMI, { ...err(429), headers: { 'retry-after': '1' } });
    const started = Date.now();
    await env.client().whoami();
    assert.ok(Date.now() - started >= 950, 'waited for Retry-After');
    assert.equal(env.proxy.count('GET', WHOAMI), 2);
    env.proxy.reset();
    env.proxy.inject('GET', WHOAMI, ...Array.from({ length: 5 }, () => ({ ...err(429), headers: { 'retry-after': '0' } })));
    await assert.rejects(env.client({ maxAttempts: 3 }).whoami(), RateLimitedError);
    assert.equal(env.proxy.count('GET', WHOAMI), 3);
  });
});

describe('documents, tolerance, batches, logs', () => {
  const DL = /\/documents\/7\/download$/;
  test('a 202 download is polled with backoff until ready; a lasting 202 ends at the deadline; 410 is final', async () => {
    const pdf = Buffer.from('%PDF-1.4 test');
    const pending = { ...err(202), headers: { 'retry-after': '0' } };
    env.proxy.inject('GET', DL, pending, pending, { kind: 'status', status: 200, raw: pdf, headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="t.pdf"' } });
    const file = await env.client().documents.download(7);
    assert.deepEqual(Buffer.from(file.bytes), pdf);
    assert.deepEqual([file.contentType, file.filename], ['application/pdf', 't.pdf']);
    assert.equal(env.proxy.count('GET', DL), 3);

    env.proxy.reset();
    env.proxy.inject('GET', DL, ...Array.from({ length: 200 }, () => pending));
    await assert.rejects(env.client({ documentDeadlineMs: 300 }).documents.download(7), DocumentNotReadyError);
    assert.ok(env.proxy.count('GET', DL) < 50);

    env.proxy.reset();
    env.proxy.inject('GET', DL, err(410));
    await assert.rejects(env.client().documents.download(7), GoneError);
    assert.equal(env.proxy.count('GET', DL), 1);
  });

  test('unknown fields and missing records never fail; each unknown field is logged once', async () => {
    const add = (b: any) => ({ ...b, surprise: 1, tickets: b.tickets.map((t: any) => ({ ...t, new_field: 'x' })) });
    env.proxy.inject('GET', /\/tickets$/, { kind: 'mutate', fn: add }, { kind: 'mutate', fn: add });
    const c = env.client({ cache: false });
    await c.tickets.list();
    await c.tickets.list();
    const unknown = env.logs.filter((l) => l.obj.event === 'atrium.unknown_field').map((l) => l.obj.field).sort();
    assert.deepEqual(unknown, ['surprise', 'tickets[].new_field']);

    // The server announces 3 records but sends none and drops fields: the iterator ends quietly.
    env.proxy.inject('GET', /\/tickets$/, { kind: 'mutate', fn: (b: any) => ({ tickets: [{ id: 1 }], meta: { ...b.meta, total_count: 3, per_page: 1 } }) },
      { kind: 'mutate', fn: (b: any) => ({ tickets: [], meta: { ...b.meta, total_count: 3, per_page: 1 } }) });
    const seen = [];
    for await (const t of c.tickets.all({ per_page: 1 })) seen.push(t);
    assert.deepEqual(seen, [{ id: 1 }]);
  });

  test('batch calls keep the concurrency bound', async () => {
    env.proxy.inject('GET', WHOAMI, ...Array.from({ length: 12 }, () => ({ kind: 'delay' as const, ms: 40 })));
    const out = await env.client({ concurrency: 3 }).batch(Array.from({ length: 12 }, (_, i) => i), () => env.client().whoami());
    assert.equal(out.length, 12);
    assert.ok(env.proxy.peakInFlight <= 3 && env.proxy.peakInFlight >= 2, `peak ${env.proxy.peakInFlight}`);
  });

  test('a failed call is logged with status, masked path, error(s), UTC time, correlation id and token tail, never the token', async () => {
    env.proxy.inject('GET', /\/capacity$/, err(503));
    const c = env.client({ correlationId: () => 'corr-42' });
    await c.availability.ticketCapacity(env.ticketId, { date: env.day, reservations: ['secretholdtoken123456'] } as never);
    const line = env.logs.find((l) => l.obj.event === 'atrium.call_failed' && l.obj.status === 503 && /capacity/.test(l.obj.path));
    assert.ok(line, 'logged');
    assert.equal(line.obj.path, `/api/v4/tickets/${env.ticketId}/capacity?date=${env.day}&reservations[]=****3456`);
    assert.equal(line.obj.error, 'injected 503');
    assert.equal(line.obj.correlation_id, 'corr-42');
    assert.equal(line.obj.token_last4, env.reseller.slice(-4));
    assert.match(line.obj.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(line.obj.next, 'retry');
    assert.equal(env.proxy.seen.at(-1)!.headers['x-request-id'], 'corr-42');
    const validation = await c.customers.create({ name: 'x' }).catch((e) => e);
    assert.ok(validation.errors.length > 0);
    assert.ok(env.logs.some((l) => Array.isArray(l.obj.errors) && l.obj.errors.includes("Email can't be blank")));
    assert.ok(!env.logText().includes(env.reseller), 'no token in any log line');
    assert.ok(!env.logText().includes('secretholdtoken123456'));
  });
});
