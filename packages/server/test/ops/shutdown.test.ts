// Graceful shutdown under load, with the real `atrium serve` process: SIGTERM in the middle of a
// burst of reads and writes. Every request the server had received before the signal gets a
// complete answer; later ones get a complete 503 or are refused at connect (never half an answer);
// every customer answered 201 is in the database exactly once; the process exits 0 in time.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, test } from 'node:test';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { freshDatabase } from '../helpers/db.ts';
import { spawnCli } from '../cli/cli.ts';

const db = await freshDatabase();
let server: ReturnType<typeof spawnCli> | undefined;
after(async () => {
  if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  await db.drop();
});

interface Outcome {
  kind: 'read' | 'write';
  n: number;
  /** When the request's last byte was handed to the kernel (ms since epoch), if it was. */
  writtenAt?: number;
  status?: number;
  body?: unknown;
  error?: string;
}

function call(agent: http.Agent, base: URL, kind: Outcome['kind'], n: number, token: string): Promise<Outcome> {
  const out: Outcome = { kind, n };
  const payload = kind === 'write' ? JSON.stringify({ name: 'Ada', surname: `Burst ${n}`, email: `burst${n}@example.org` }) : undefined;
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: kind === 'write' ? 'POST' : 'GET',
        path: kind === 'write' ? '/api/v4/customers' : '/api/v4/version',
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          out.status = res.statusCode;
          // A truncated body would not parse: a complete answer is asserted by parsing it.
          try {
            out.body = JSON.parse(text);
          } catch {
            out.error = `unparsable body after status ${res.statusCode}: ${text.slice(0, 80)}`;
          }
          resolve(out);
        });
        res.on('error', (e) => {
          out.error = `response aborted: ${(e as NodeJS.ErrnoException).code ?? e.message}`;
          resolve(out);
        });
      },
    );
    req.on('finish', () => (out.writtenAt = Date.now()));
    req.on('error', (e) => {
      out.error = (e as NodeJS.ErrnoException).code ?? e.message;
      resolve(out);
    });
    req.end(payload);
  });
}

test('SIGTERM mid-burst: complete answers, no lost or doubled writes, exit 0', { timeout: 60_000 }, async () => {
  const { token } = await createToken({ db: db.db, clock: systemClock }, { class: 'user', name: 'burst', rights: ['*'] });
  server = spawnCli(['serve', '--port', '0'], { DATABASE_URL: db.url, LOG_LEVEL: 'warn' });
  let out = '';
  let err = '';
  server.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    server!.on('exit', (code) => resolve({ code, at: Date.now() })),
  );
  const base = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "ready" in 20 s\n${out}\n${err}`)), 20_000);
    server!.stdout!.on('data', (d) => {
      out += d;
      const m = /ready in \d+ ms on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(new URL(m[1]!));
      }
    });
    void exited.then(({ code }) => reject(new Error(`serve exited with ${code}\n${out}\n${err}`)));
  });

  // 64 keep-alive sockets, opened before the burst, carry 350 requests: most requests reuse a
  // socket, which is the case where a careless shutdown cuts answers off.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  after(() => agent.destroy());
  const warm = await Promise.all(Array.from({ length: 64 }, (_, i) => call(agent, base, 'read', -i, token)));
  assert.ok(warm.every((o) => o.status === 200), JSON.stringify(warm.find((o) => o.status !== 200)));

  const calls: Promise<Outcome>[] = [];
  let done = 0;
  let sigtermAt = 0;
  for (let i = 0; i < 350; i++) {
    const p = call(agent, base, i % 7 === 3 ? 'write' : 'read', i, token);
    calls.push(p);
    void p.then(() => {
      done += 1;
      // Mid-burst: a good part has been answered, many are in flight or queued.
      if (done === 100) {
        sigtermAt = Date.now();
        server!.kill('SIGTERM');
      }
    });
  }
  const outcomes = await Promise.all(calls);
  const { code, at } = await exited;
  assert.ok(sigtermAt > 0, 'SIGTERM was sent');
  assert.equal(code, 0, err);
  assert.ok(at - sigtermAt < 15_000, `exit took ${at - sigtermAt} ms`);

  const received = outcomes.filter((o) => o.writtenAt !== undefined && o.writtenAt < sigtermAt);
  const late = outcomes.filter((o) => !received.includes(o));
  const summary = JSON.stringify(
    outcomes.reduce<Record<string, number>>((acc, o) => {
      const k = `${o.kind}:${o.status ?? o.error}`;
      acc[k] = (acc[k] ?? 0) + 1;
      return acc;
    }, {}),
  );
  // Received before the signal: a complete answer, never a reset or a truncated body.
  for (const o of received) {
    assert.equal(o.error, undefined, `${o.kind} #${o.n} sent before SIGTERM failed: ${o.error}; ${summary}`);
    const expected = o.kind === 'write' ? [201, 503] : [200, 503];
    assert.ok(expected.includes(o.status!), `${o.kind} #${o.n}: ${o.status} ${JSON.stringify(o.body)}`);
  }
  // After the signal: a complete 503 from the closing server, or no connection at all.
  for (const o of late) {
    if (o.error === undefined) {
      assert.ok([200, 201, 503].includes(o.status!), `${o.kind} #${o.n}: ${o.status}`);
      if (o.status === 503) assert.equal((o.body as { code?: string }).code, 'SERVICE_UNAVAILABLE');
    } else {
      assert.match(o.error, /^(ECONNREFUSED|ECONNRESET)$/, `${o.kind} #${o.n}: ${o.error}; ${summary}`);
      assert.equal(o.status, undefined, 'no answer was cut off half-way');
    }
  }
  assert.ok(received.length >= 100, `only ${received.length} requests before SIGTERM; ${summary}`);

  // Writes: every 201 is there exactly once; nothing else was written.
  const created = outcomes.filter((o) => o.kind === 'write' && o.status === 201);
  assert.ok(created.length > 0, summary);
  const rows = await db.pool.query<{ surname: string; n: number }>(
    `select surname, count(*)::int as n from customers where surname like 'Burst %' group by surname`,
  );
  const inDb = new Map(rows.rows.map((r) => [r.surname, r.n]));
  for (const o of created) assert.equal(inDb.get(`Burst ${o.n}`), 1, `customer of write #${o.n}`);
  const answered = new Set(created.map((o) => `Burst ${o.n}`));
  for (const [surname] of inDb) assert.ok(answered.has(surname), `${surname} was written but the client never got its 201`);
});
