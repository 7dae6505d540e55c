// Prometheus metrics at GET /metrics (ATRIUM_METRICS, on by default). Every app has its own
// registry, so tests can build many apps in one process. Labels are route patterns (never raw
// paths, which would carry ids and reservation tokens) and status classes; nothing secret is
// exported. /metrics has no authentication: keep it off the public internet (docs/operations.md).
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Clock } from '../../../domain/clock.ts';
import { captureFailures, failureOf } from './request-log.ts';

export interface MetricsDeps {
  pool: pg.Pool;
  clock: Clock;
}

// POST /orders and POST /reservations (also at the go~mus path /tickets/reservations).
const BOOKING_ROUTES = new Set(['/api/v4/orders', '/api/v4/reservations', '/api/v4/tickets/reservations']);
const OUTCOME_BY_CODE: Record<string, string> = { SLOT_SOLD_OUT: 'sold_out', CAPACITY_BUSY: 'busy' };

export function metrics(app: FastifyInstance, deps: MetricsDeps) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'atrium_' });

  const labelNames = ['route', 'method', 'status_class'] as const;
  const requests = new Counter({
    name: 'atrium_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status class',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'atrium_http_request_duration_seconds',
    help: 'Time from request received to response sent, by route pattern, method and status class',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const outcomes = new Counter({
    name: 'atrium_booking_outcomes_total',
    help: 'Booking attempts (POST /orders, POST /reservations) by outcome: sold, sold_out, busy',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of ['sold', 'sold_out', 'busy']) outcomes.inc({ outcome }, 0);

  new Gauge({
    name: 'atrium_db_pool_connections',
    help: 'Database pool connections by state: total (open), idle, waiting (requests queued for a connection)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, deps.pool.totalCount);
      this.set({ state: 'idle' }, deps.pool.idleCount);
      this.set({ state: 'waiting' }, deps.pool.waitingCount);
    },
  });
  new Gauge({
    name: 'atrium_holds_live',
    help: 'Reservations (holds) currently holding capacity: not expired, released or consumed (NaN if the database is unreachable)',
    registers: [registry],
    async collect() {
      try {
        const res = await deps.pool.query<{ n: number }>(
          'select count(*)::int as n from reservations where expires_at > $1 and released_at is null and consumed_at is null',
          [deps.clock.now()],
        );
        this.set(res.rows[0]?.n ?? 0);
      } catch {
        // A scrape during a database outage still returns the other metrics.
        this.set(Number.NaN);
      }
    },
  });

  captureFailures(app);
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    const labels = { route, method: req.method, status_class: `${Math.floor(reply.statusCode / 100)}xx` };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    if (req.method === 'POST' && BOOKING_ROUTES.has(route)) {
      const outcome = reply.statusCode === 201 ? 'sold' : OUTCOME_BY_CODE[failureOf(req)?.code ?? ''];
      if (outcome) outcomes.inc({ outcome });
    }
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    const text = await registry.metrics();
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
  });
}
