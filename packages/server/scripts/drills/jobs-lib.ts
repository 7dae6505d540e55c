// What the job drills (jobs.ts) share: a webhook receiver and an SMTP sink that count what
// arrives (and can hold their answer, to be killed mid-delivery or mid-send), and the check that
// every background effect of the orders happened: each document rendered, each mail sent exactly
// once, each webhook delivery received and recorded.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import type { Database } from '../../src/db/client.ts';
import { call, sleep, type Checks } from './lib.ts';

export interface Sink {
  url: string;
  /** id → arrivals (webhook-id, or the mail's Message-ID). */
  got: Map<string, number>;
  /** Requests or messages being received right now (held). */
  inFlight(): number;
  close(): Promise<void>;
}

export async function hookReceiver(holdMs: () => number): Promise<Sink> {
  const got = new Map<string, number>();
  let open = 0;
  const server = http.createServer((req, res) => {
    open++;
    // A sender killed mid-request: the request ends in an error, and the delivery was not taken.
    req.on('error', () => undefined);
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      setTimeout(() => {
        open--;
        // Taken only if the sender is still there to hear the answer (else it will send again).
        if (req.socket.destroyed) return;
        got.set(id, (got.get(id) ?? 0) + 1);
        res.writeHead(200).end('ok');
      }, holdMs());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    inFlight: () => open,
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

export async function smtpSink(holdMs: () => number): Promise<Sink> {
  const got = new Map<string, number>();
  let open = 0;
  const closed = new Set<string>();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onClose(session) {
      closed.add(session.id);
    },
    onData(stream, session, cb) {
      open++;
      let head = '';
      stream.on('data', (b: Buffer) => void (head.length < 8192 && (head += b.toString('latin1'))));
      stream.on('end', () =>
        setTimeout(() => {
          open--;
          // Accepted only if the 250 reaches the sender (a cut connection means "not taken").
          if (closed.has(session.id)) return cb(new Error('connection closed'));
          const id = /^Message-ID:\s*(\S+)/im.exec(head)?.[1] ?? 'unknown';
          got.set(id, (got.get(id) ?? 0) + 1);
          cb();
        }, holdMs()),
      );
    },
  });
  // A sender killed mid-transaction resets its connection, and smtp-server reports that as an
  // 'error' event on the server: expected here (the mail counts as not taken, onClose above), and
  // without a listener it would end the drill's process.
  smtp.on('error', () => undefined);
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    got,
    inFlight: () => open,
    close: () => new Promise((r) => smtp.close(() => r())),
  };
}

interface Outstanding {
  documents: number;
  deliveries: number;
  mails: number;
  jobs: number;
}

async function outstanding(database: Database): Promise<Outstanding> {
  const r = await database.db.execute<Record<keyof Outstanding, number>>(sql`select
    (select count(*) from documents where status = 'processing' or render_pending)::int as documents,
    (select count(*) from webhook_deliveries where status <> 'succeeded')::int as deliveries,
    (select count(*) from mail_messages where status <> 'sent')::int as mails,
    (select count(*) from graphile_worker.jobs where task_identifier <> 'capacity.sweep')::int as jobs`);
  return r.rows[0]!;
}

/** Waits until nothing is outstanding (the database may still be coming back); the last state. */
export async function settle(database: Database, ms: number): Promise<{ done: boolean; last: Outstanding | string; ms: number }> {
  const t0 = Date.now();
  let last: Outstanding | string = 'not read';
  while (Date.now() - t0 < ms) {
    try {
      last = await outstanding(database);
      if (last.documents + last.deliveries + last.mails + last.jobs === 0) return { done: true, last, ms: Date.now() - t0 };
    } catch (err) {
      last = (err as Error).message;
    }
    await sleep(500);
  }
  return { done: false, last, ms: Date.now() - t0 };
}

/** Every document available, every mail sent once, every delivery received and recorded. */
export async function verifyEffects(checks: Checks, database: Database, hooks: Sink, mail: Sink, what: string): Promise<void> {
  const docs = await database.db.execute<{ status: string; n: number }>(sql`select status, count(*)::int n from documents group by status`);
  const byStatus = Object.fromEntries(docs.rows.map((r) => [r.status, r.n]));
  checks.check(`${what}: every document rendered`, (byStatus.available ?? 0) > 0 && Object.keys(byStatus).every((s) => s === 'available'), JSON.stringify(byStatus));
  const mails = await database.db.execute<{ status: string; message_id: string | null }>(sql`select status, message_id from mail_messages`);
  const notOnce = mails.rows.filter((m) => m.status !== 'sent' || hooksCount(mail, m.message_id) !== 1);
  checks.check(`${what}: every mail sent exactly once`, mails.rows.length > 0 && notOnce.length === 0, `${mails.rows.length} mails; not once: ${JSON.stringify(notOnce.slice(0, 3).map((m) => [m.status, m.message_id, hooksCount(mail, m.message_id)]))}`);
  const dels = await database.db.execute<{ status: string; event_id: string }>(sql`select status, event_id from webhook_deliveries`);
  const missing = dels.rows.filter((d) => d.status !== 'succeeded' || !hooks.got.has(d.event_id));
  checks.check(`${what}: every webhook delivered`, dels.rows.length > 0 && missing.length === 0, `${dels.rows.length} deliveries; missing: ${JSON.stringify(missing.slice(0, 3))}`);
}

const hooksCount = (sink: Sink, id: string | null) => (id ? (sink.got.get(id) ?? 0) : 0);

/** The webhook for the reseller's order events, to `url`. */
export async function subscribe(base: string, token: string, url: string): Promise<boolean> {
  const a = await call(base, 'POST', '/api/v4/webhooks', token, { webhook: { url, events: ['order.created', 'order.finalized'] } });
  return a.status === 201;
}
