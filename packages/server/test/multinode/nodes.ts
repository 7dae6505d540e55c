// Real `atrium serve` processes for the multi-node tests: each one is `node bin/atrium.js serve
// --port 0` on the given database, started as an operator would, with no balancer in front.
import { type ChildProcess } from 'node:child_process';
import { spawnCli } from '../cli/cli.ts';

export interface Node {
  base: string;
  proc: ChildProcess;
  output(): string;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  send(method: string, path: string, body: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** SIGTERM, resolves with the exit code. */
  stop(): Promise<number | null>;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

const READY = /ready in \d+ ms on (http:\/\/127\.0\.0\.1:\d+)/;

async function answer(r: Response): Promise<Answer> {
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : null };
}

export async function startNode(env: Record<string, string>, args: string[] = [], timeoutMs = 45_000): Promise<Node> {
  // Not limiting by default: the tests send hundreds of requests per reseller.
  const proc = spawnCli(['serve', '--port', '0', ...args], { ATRIUM_RESELLER_RATE_LIMIT: '1000000', ATRIUM_USER_RATE_LIMIT: '1000000', ATRIUM_PUBLIC_RATE_LIMIT: '1000000', ATRIUM_ANON_RATE_LIMIT: '1000000', ATRIUM_HOLD_LIMIT_SHARE: '100', ATRIUM_HOLD_LIMIT_COUNT: '0', ATRIUM_MAX_CONNECTIONS_PER_ADDRESS: '0', ...env });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`atrium serve did not start in ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const check = () => {
      const m = READY.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on('data', check);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`atrium serve exited with ${code} during start:\n${out}`));
    });
  });
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return {
    base,
    proc,
    output: () => out,
    get: (path, headers = {}) => fetch(base + path, { headers }).then(answer),
    send: (method, path, body, headers = {}) =>
      fetch(base + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then(answer),
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
