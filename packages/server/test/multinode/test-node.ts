// A test-only server process (test/entry/race-node.ts): the real app on the given database,
// listening on 127.0.0.1:0, with test switches given as environment variables that only that
// file reads (ENTRY_UNLOCKED, HOLD_LIMITS_UNLOCKED). Answers like startNode's nodes.
import { spawn } from 'node:child_process';
import { cliEnv, serverRoot } from '../cli/cli.ts';
import { programArgs } from '../helpers/programs.ts';
import type { Node } from './nodes.ts';

export function startTestNode(env: Record<string, string>): Promise<Node> {
  const proc = spawn(process.execPath, programArgs('test/entry/race-node.ts'), {
    cwd: serverRoot,
    env: cliEnv({ ATRIUM_WORKER: '0', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => proc.once('exit', (c) => r(c)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`test node did not start:\n${out}`)), 120_000);
    proc.stdout!.on('data', (d) => {
      out += d;
      const m = /ready in \d+ ms on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      const base = m[1]!;
      const answer = async (r: Response) => ({ status: r.status, headers: r.headers, body: await r.json().catch(() => null) });
      resolve({
        base, proc, output: () => out,
        get: (path, headers = {}) => fetch(base + path, { headers }).then(answer),
        send: (method, path, body, headers = {}) => fetch(base + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then(answer),
        stop: async () => {
          if (proc.exitCode === null) proc.kill('SIGTERM');
          const t = setTimeout(() => proc.kill('SIGKILL'), 20_000);
          const code = await exited;
          clearTimeout(t);
          return code;
        },
      });
    });
    proc.once('exit', (code) => reject(new Error(`test node exited with ${code}:\n${out}`)));
  });
}
