// Safe POSTs (spec 7.4). A POST that timed out or got a 5xx may have been applied, so it is never
// resent blindly:
// - orders, requests (and customers with a foreign_id) carry a foreign_id; after an ambiguous
//   failure the record is looked up by it (GET /orders?foreign_id=…) and returned when it exists;
//   only when the lookup answers "not there" is the POST sent again. The server's own foreign_id
//   uniqueness is the second line: a repeat with the same content is answered with the existing
//   record, never a second one.
// - reservations have no lookup (spec 4): the unknown hold is left to expire and a new one is made.
// - a 422 CAPACITY_BUSY (two parallel bookings raced on one slot) is retried once after a short
//   delay, then reported (spec 7.3, 8.3).
import { ApiError, CapacityBusyError, NetworkError, OutcomeUnknownError, ServerError } from './errors.ts';
import { sleep, type CallOptions, type Transport } from './http.ts';
import type { Endpoint } from './endpoints.ts';

/** A failure after which the server may or may not have applied the POST. */
export function isAmbiguous(e: unknown): boolean {
  return e instanceof NetworkError || e instanceof ServerError || (e instanceof ApiError && e.status >= 500);
}

const BUSY_DELAY_MS = 1000;

export interface SafeCreate<T> {
  ep: Endpoint;
  call: CallOptions;
  /** The record from a 200/201 body, or undefined when the body is not a valid record. */
  unwrap: (body: any) => T | undefined;
  /** Looks the record up (by foreign_id); undefined = it does not exist. Absent: no lookup exists. */
  lookup?: () => Promise<T | undefined>;
  foreignId?: string;
  /** For reservations: after an ambiguous failure create a fresh one instead of giving up. */
  recreate?: boolean;
}

export async function safeCreate<T>(http: Transport, s: SafeCreate<T>): Promise<T> {
  const max = http.o.maxAttempts;
  const correlationId = s.call.correlationId ?? http.newCorrelationId();
  const call: CallOptions = { ...s.call, retry: 'once', maxAttempts: max, correlationId };
  let uncertain = false;
  let lastError: unknown;
  let busyRetried = false;
  const log = (msg: string, extra: object = {}) =>
    http.o.logger.warn({ event: 'atrium.post_recovery', operation: s.ep.op, foreign_id: s.foreignId, correlation_id: correlationId, ...extra }, msg);

  for (let attempt = 1; attempt <= max; attempt++) {
    if (uncertain && s.lookup) {
      try {
        const found = await s.lookup();
        if (found !== undefined) {
          log('the earlier attempt had been applied; returning the existing record', { attempt });
          return found;
        }
        uncertain = false;
      } catch (e) {
        // A lookup refused for good (e.g. 403: the token may write but not read) cannot settle it.
        if (!isAmbiguous(e)) throw new OutcomeUnknownError(s.ep.method, s.ep.op, s.foreignId, e);
        lastError = e; // the lookup could not answer either: wait, and look again before any resend
        await sleep(http.backoff(attempt));
        continue;
      }
    }
    try {
      const res = await http.send(s.ep, call);
      const record = s.unwrap(res.body);
      if (record !== undefined) return record;
      lastError = new ServerError({ status: res.status, error: 'answer without a valid record', method: s.ep.method, path: res.path, attempts: attempt });
    } catch (e) {
      if (e instanceof CapacityBusyError && !busyRetried) {
        busyRetried = true;
        attempt -= 1; // the race retry is separate from the 5xx budget (spec 8.3: one retry)
        await sleep(Math.min(Math.max(e.retryAfterMs ?? BUSY_DELAY_MS, 100), 5000));
        continue;
      }
      if (!isAmbiguous(e)) throw e;
      lastError = e;
    }
    // Ambiguous: the POST may have been applied.
    if (s.lookup) uncertain = true;
    else if (s.recreate) log('reservation outcome unknown: the unknown hold is left to expire and a new one is created', { attempt });
    else throw new OutcomeUnknownError(s.ep.method, s.ep.op, s.foreignId, lastError);
    if (attempt < max) await sleep(http.backoff(attempt));
  }
  if (uncertain && s.lookup) {
    try {
      const found = await s.lookup();
      if (found !== undefined) return found;
    } catch (e) {
      throw new OutcomeUnknownError(s.ep.method, s.ep.op, s.foreignId, e);
    }
  }
  throw lastError;
}
