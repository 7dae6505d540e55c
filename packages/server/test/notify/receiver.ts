// A real HTTP receiver on 127.0.0.1 (port chosen by the OS) for webhook tests: records every
// request with its raw body, and answers per path by a script the test sets (status, delay,
// redirect, huge body). Every hang is bounded by the server's close().
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  json: { id: string; type: string; created_at: string; data: Record<string, any> };
}

export type Behaviour =
  | 'ok'
  | '500'
  | 'hang'
  | 'redirect'
  | 'huge'
  | { failFirst: number }
  /** Answers 200, then keeps this process's event loop busy (a stall of the sender's process). */
  | { stallAfterAnswerMs: number }
  /** Answers 200 after this long, without blocking anything (a slow receiver). */
  | { answerAfterMs: number }
  /** Answers 200 when the promise resolves. */
  | { holdUntil: Promise<void> };

export async function startReceiver() {
  const got: Received[] = [];
  const behaviour = new Map<string, Behaviour>();
  const seen = new Map<string, number>();
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Received['json'];
      try {
        json = JSON.parse(body);
      } catch {
        json = { id: '', type: '', created_at: '', data: {} };
      }
      got.push({ path, headers: req.headers as Record<string, string>, body, json });
      const n = (seen.get(path) ?? 0) + 1;
      seen.set(path, n);
      const b = behaviour.get(path) ?? 'ok';
      if (b === 'hang') {
        open.add(res);
        return;
      }
      if (b === '500') return void res.writeHead(500).end('receiver exploded');
      if (b === 'redirect') return void res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
      if (b === 'huge') {
        res.writeHead(500, { 'content-type': 'text/plain' });
        const block = Buffer.alloc(64 * 1024, 'x');
        let sent = 0;
        const more = () => {
          while (sent < 4 * 1024 * 1024 && !res.destroyed) {
            sent += block.length;
            if (!res.write(block)) return void res.once('drain', more);
          }
          res.end();
        };
        res.on('error', () => {});
        return more();
      }
      if (typeof b === 'object' && 'stallAfterAnswerMs' in b) {
        res.writeHead(200).end('ok');
        const until = Date.now() + b.stallAfterAnswerMs;
        while (Date.now() < until); // deliberately synchronous: nothing else in the process runs
        return;
      }
      if (typeof b === 'object' && 'answerAfterMs' in b) return void setTimeout(() => res.writeHead(200).end('late'), b.answerAfterMs);
      if (typeof b === 'object' && 'holdUntil' in b) return void b.holdUntil.then(() => res.writeHead(200).end('ok'));
      if (typeof b === 'object' && n <= b.failFirst) return void res.writeHead(503).end(`not yet (${n})`);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    got,
    behaviour,
    at: (path: string) => got.filter((g) => g.path === path),
    async close() {
      for (const r of open) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
