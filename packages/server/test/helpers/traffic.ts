// Records every answer the test suite's apps send (method, route template, status, media type,
// JSON body) when ATRIUM_TRAFFIC_DIR is set, one JSON line per answer, one file per test
// process. scripts/validate-traffic.ts then checks each recorded answer against the committed
// OpenAPI document: the document must describe what the server really sends (.ci/run).
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

export interface TrafficRecord {
  method: string;
  route: string;
  status: number;
  contentType: string | null;
  body?: string;
  /** The JSON request body, when there was one (scripts/openapi-examples.ts draws examples from it). */
  requestBody?: string;
}

const MAX_BODY = 256 * 1024;

export function recordTraffic(app: FastifyInstance): void {
  const dir = process.env.ATRIUM_TRAFFIC_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `traffic-${process.pid}.jsonl`);
  app.addHook('onSend', async (req, reply, payload) => {
    const route = req.routeOptions.url;
    if (!route || !/^\/api\/v\d\//.test(route)) return payload;
    const ct = reply.getHeader('content-type');
    const rec: TrafficRecord = { method: req.method, route, status: reply.statusCode, contentType: ct === undefined ? null : String(ct) };
    if (typeof payload === 'string' && payload.length <= MAX_BODY && /json/.test(rec.contentType ?? '')) rec.body = payload;
    if (req.body !== undefined && req.body !== null && typeof req.body === 'object' && !Buffer.isBuffer(req.body) && /json/.test(String(req.headers['content-type'] ?? ''))) {
      const sent = JSON.stringify(req.body);
      if (sent.length <= MAX_BODY) rec.requestBody = sent;
    }
    fs.appendFileSync(file, JSON.stringify(rec) + '\n');
    return payload;
  });
}
