// The client tests' world: the real server in-process on a real database (the server's testApp),
// listening on 127.0.0.1, behind the fault-injecting proxy; a small catalogue; and a logger that
// captures every line so tests can assert on what was logged (and that no token ever is).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { AtriumClient, type AtriumClientOptions, type Logger } from '@atrium/client';
import { testApp, type TestApp } from '../../../server/test/helpers/app.ts';
import * as f from '../../../server/test/helpers/factories.ts';
import { zonedInstant } from '../../../server/src/domain/time.ts';
import { faultProxy, type FaultProxy } from './proxy.ts';

export const OPENAPI = JSON.parse(
  fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../openapi/openapi.json'), 'utf8'),
) as { paths: Record<string, Record<string, unknown>> };

/** Whether the committed OpenAPI document has this path (requests/documents land later; ATRIUM_CLIENT_ALL_ROUTES=1 assumes all). */
export const hasRoute = (p: string) => process.env.ATRIUM_CLIENT_ALL_ROUTES === '1' || Boolean(OPENAPI.paths[`/api/v4${p}`]);

export interface LogLine {
  level: string;
  obj: Record<string, any>;
  msg: string | undefined;
}

export function captureLogger(lines: LogLine[]): Logger {
  const at = (level: string) => (obj: object, msg?: string) => lines.push({ level, obj: obj as Record<string, any>, msg });
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export interface Env {
  t: TestApp;
  proxy: FaultProxy;
  upstream: string;
  logs: LogLine[];
  museumId: number;
  ticketId: number;
  quotaId: number;
  day: string;
  slot(minutes: number): string;
  reseller: string;
  user: string;
  client(opts?: Partial<AtriumClientOptions>): AtriumClient;
  /** Every captured log line as text, for "never contains the token" checks. */
  logText(): string;
  close(): Promise<void>;
}

export async function clientEnv(opts: { capacity?: number; env?: Record<string, string> } = {}): Promise<Env> {
  const t = await testApp(opts.env ? { env: opts.env } : {});
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const upstream = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const proxy = await faultProxy(upstream);
  const db = t.database.db;
  const museumId = (await f.museum(db)).id;
  const quotaId = (await f.quota(db, { museumId, capacity: opts.capacity ?? 10 })).id;
  const ticketId = (await f.ticket(db, { museumId, quotaIds: [quotaId], priceCents: 1400 })).id;
  const day = f.localDate(5);
  const reseller = await t.token({ class: 'reseller', museumIds: [museumId] });
  const user = await t.token({ class: 'user' });
  const logs: LogLine[] = [];
  const logger = captureLogger(logs);
  return {
    t,
    proxy,
    upstream,
    logs,
    museumId,
    ticketId,
    quotaId,
    day,
    slot: (min) => zonedInstant(day, min, 'Europe/Berlin').toISOString(),
    reseller,
    user,
    // Short backoff so fault tests take milliseconds; the policy (attempts, order) is what is tested.
    client: (o = {}) => new AtriumClient({ baseUrl: proxy.url, token: reseller, logger, backoffBaseMs: 5, backoffMaxMs: 40, ...o }),
    logText: () => logs.map((l) => `${l.msg ?? ''} ${JSON.stringify(l.obj)}`).join('\n'),
    async close() {
      await proxy.close();
      await t.close();
    },
  };
}
