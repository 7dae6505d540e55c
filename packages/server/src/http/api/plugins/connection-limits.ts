// Connection caps (docs/operations.md, "Limits and their settings"; ADR 0016).
// Half-open connections cost a file descriptor each until the header timeout (20 s, app.ts); one
// client holding ~20,000 of them exhausted the descriptors and the API stopped answering.
// - Globally: net.Server#maxConnections (ATRIUM_MAX_CONNECTIONS) makes Node close a socket right
//   after accept, before the HTTP parser sees a byte; the 'drop' event reports it.
// - Per address (ATRIUM_MAX_CONNECTIONS_PER_ADDRESS): counted on 'connection' and closed there,
//   synchronously, before any data is read. Behind a proxy every connection has the proxy's
//   address: raise the setting or set 0 (off) there.
// Shed connections are logged at most once per LOG_EVERY_MS, with the counts since the last line.
import type { Server, Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../../config.ts';

const LOG_EVERY_MS = 10_000;

export interface ShedCounts {
  global: number;
  perAddress: number;
  /** The address that was shed most since the last log line. */
  top?: string;
}

export function limitConnections(server: Server, config: Pick<Config, 'maxConnections' | 'maxConnectionsPerAddress'>, log: FastifyBaseLogger) {
  if (config.maxConnections > 0) server.maxConnections = config.maxConnections;
  const open = new Map<string, number>();
  let shed = { global: 0, perAddress: 0, by: new Map<string, number>() };
  let lastLog = 0;

  const report = (address: string | undefined, kind: 'global' | 'perAddress') => {
    shed[kind] += 1;
    if (address) shed.by.set(address, (shed.by.get(address) ?? 0) + 1);
    const now = Date.now();
    if (now - lastLog < LOG_EVERY_MS) return;
    lastLog = now;
    const top = [...shed.by].sort((a, b) => b[1] - a[1])[0]?.[0];
    const line: ShedCounts = { global: shed.global, perAddress: shed.perAddress, ...(top ? { top } : {}) };
    log.warn({ shed: line, max_connections: config.maxConnections, max_connections_per_address: config.maxConnectionsPerAddress }, 'connections shed at accept (connection limits)');
    shed = { global: 0, perAddress: 0, by: new Map() };
  };

  server.on('drop', (data?: { remoteAddress?: string }) => report(data?.remoteAddress, 'global'));
  if (config.maxConnectionsPerAddress <= 0) return;
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '?';
    const n = (open.get(address) ?? 0) + 1;
    if (n > config.maxConnectionsPerAddress) {
      socket.destroy();
      report(address, 'perAddress');
      return;
    }
    open.set(address, n);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
