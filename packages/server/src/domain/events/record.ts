// The outbox (docs/adr/0018-outbox-webhooks-mail.md): an event is a row written with the
// caller's database handle, so it commits or rolls back with the change it reports. Pass the
// transaction the change runs in (`{ ...ctx, db: tx }`, as domain verbs already do); nothing is
// sent from here: the dispatcher (src/jobs/events.ts) picks committed rows up.
import { randomFillSync } from 'node:crypto';
import type { DbOrTx } from '../../db/client.ts';
import { insertEvent } from '../../db/repositories/events.ts';
import type { Ctx } from '../context.ts';

/** Every event type of docs/webhooks.md; webhook subscriptions are checked against it. */
export const EVENT_TYPES = [
  'order.created',
  'order.finalized',
  'order.cancelled',
  'order.expired',
  'request.created',
  'request.accepted',
  'request.declined',
  'document.available',
  'document.rejected',
  'scan.created',
  'closure.created',
  'order.paid',
  'payment.failed',
  'refund.succeeded',
  'refund.failed',
  'order.rebooked',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Subjects whose `data` the dispatcher renders itself (as GET /orders/:id etc.). */
export type EventSubject = { type: 'order' | 'request' | 'document'; id: number };

export interface EventPayload {
  /**
   * The body's `data`, e.g. `{ closure: {...} }` (JSON). Omit it when `subject` is given: the
   * dispatcher then renders `{ order: … }` / `{ request: … }` / `{ document: … }` as the API shows it.
   */
  data?: Record<string, unknown>;
  subject?: EventSubject;
  /** Museums the event concerns: user endpoints receive it within their museum scope. */
  museumIds: number[];
  /** The account owning the order/request, the only reseller that receives it; omit if none. */
  accountId?: number | null;
}

// Random bits drawn 4 KiB at a time: one call into the system's generator per 256 ids instead of
// one per id. A gate rush records an event per scan, and a call per id showed in a scan's server
// CPU. Event ids are not secrets; they only have to be unique.
const pool = Buffer.alloc(4096);
let used = pool.length;

/** A new event id: `evt_` + 128 random bits (hex), as the SQL default of outbox_events.id. */
export function newEventId(): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += 16;
  return `evt_${pool.toString('hex', used - 16, used)}`;
}

/** Records one event in the caller's transaction (ctx.db); returns its `evt_` id. */
export async function recordEvent(ctx: { db: DbOrTx; clock: Ctx['clock'] }, type: EventType, payload: EventPayload): Promise<string> {
  const id = newEventId();
  await insertEvent(ctx.db, {
    id,
    type,
    accountId: payload.accountId ?? null,
    museumIds: payload.museumIds,
    subjectType: payload.subject?.type ?? null,
    subjectId: payload.subject?.id ?? null,
    data: payload.data ?? null,
    createdAt: ctx.clock.now(),
  });
  return id;
}
