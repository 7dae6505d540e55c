// The `data` of an event as the API shows its subject (docs/webhooks.md: "data": {"order": {…as
// GET /orders/:id}}), rendered with the same serializers as the routes so a webhook and a GET
// never disagree. An order is rendered from the event's snapshot (orders/snapshot.ts: its rows
// when the change committed), so a late dispatch still shows the order as it was then; requests
// and documents (no snapshot yet) from their current rows. Rendered once, at dispatch, and
// stored with the event: every delivery and every retry of it carries the identical body (and
// so the same signature input).
import type { DbOrTx } from '../../db/client.ts';
import type { Ctx } from '../context.ts';
import { findDocumentMeta } from '../documents/internal.ts';
import { reload as reloadOrder } from '../orders/internal.ts';
import { reload as reloadRequest } from '../requests/internal.ts';
import { serializeDocument } from '../documents/json.ts';
import { serializeOrder } from '../orders/json.ts';
import { serializeRequest } from '../requests/json.ts';
import { isoInZone } from '../time.ts';
import { orderViewFromSnapshot } from '../orders/snapshot.ts';

export interface EventRow {
  id: string;
  type: string;
  subjectType: string | null;
  subjectId: number | null;
  data: Record<string, unknown> | null;
  /** The subject's rows at commit (orders; src/db/sql/events_snapshot.sql), or null. */
  snapshot?: unknown;
  createdAt: Date;
}

/** `data` for the body: the writer's own fields plus the rendered subject. */
export async function renderData(db: DbOrTx, ctx: Ctx, ev: EventRow): Promise<Record<string, unknown>> {
  const own = ev.data ?? {};
  if (ev.subjectId === null) return own;
  const zone = ctx.config.zone;
  const sys = { ...ctx, db: db as Ctx['db'] };
  if (ev.subjectType === 'order' && ev.snapshot) return { order: serializeOrder(orderViewFromSnapshot(ev.snapshot, ev.createdAt), zone), ...own };
  try {
    if (ev.subjectType === 'order') return { order: serializeOrder(await reloadOrder(db, sys, ev.subjectId), zone), ...own };
    if (ev.subjectType === 'request') return { request: serializeRequest(await reloadRequest(db, ev.subjectId), zone), ...own };
    if (ev.subjectType === 'document') return { document: serializeDocument(await findDocumentMeta(db, sys, ev.subjectId), zone), ...own };
  } catch (err) {
    // A subject deleted since (a purged record): the event still goes out, naming it.
    if ((err as { code?: string }).code !== 'NOT_FOUND') throw err;
    return { [ev.subjectType!]: { id: ev.subjectId }, ...own };
  }
  return own;
}

/** The JSON body of every delivery of an event (docs/webhooks.md, "Payload"). */
export function eventBody(ev: Pick<EventRow, 'id' | 'type' | 'createdAt'>, data: Record<string, unknown>, zone: string): string {
  return JSON.stringify({ id: ev.id, type: ev.type, created_at: isoInZone(ev.createdAt, zone), data });
}
