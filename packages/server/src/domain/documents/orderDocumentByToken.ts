// go~mus document links (docs/gomus-compatibility.md): GET /orders/:id/tickets/:item.pdf?token=,
// /orders/:id/events/:item.pdf, /orders/:id/tours/:item.pdf and /orders/:id/invoice.pdf. The
// order's own token (shown in the order answer) authorizes them without a bearer header, as in
// go~mus. Atrium renders one ticket PDF and one confirmation per order, so every item's link
// serves its order's document. A wrong token, a foreign item or a missing document are all the
// same 404, so a link reveals nothing about orders it does not belong to.
import { timingSafeEqual } from 'node:crypto';
import { orderDocumentFile, orderHasItem, orderToken } from '../../db/repositories/documents/documents.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { fileOf, type DocumentFile } from './downloadDocument.ts';

export type LinkKind = 'tickets' | 'events' | 'tours' | 'invoice';

/** The item type a link names, and the document that holds it. */
const LINKS: Record<LinkKind, { itemType: string | null; kind: string }> = {
  tickets: { itemType: 'Ticket', kind: 'ticket' },
  events: { itemType: 'Event', kind: 'ticket' },
  tours: { itemType: 'Tour', kind: 'confirmation' },
  invoice: { itemType: null, kind: 'invoice' },
};

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function orderDocumentByToken(ctx: Ctx, input: { orderId: number; itemId?: number; token: string; link: LinkKind }): Promise<DocumentFile> {
  const spec = LINKS[input.link];
  const order = await orderToken(ctx.db, input.orderId);
  if (!order || !sameSecret(order.token, input.token)) throw notFound('document');
  if (spec.itemType) {
    if (!(await orderHasItem(ctx.db, order.id, input.itemId ?? 0, spec.itemType))) throw notFound('document');
  }
  const row = await orderDocumentFile(ctx.db, order.id, spec.kind);
  if (!row) throw notFound('document');
  return fileOf(row, ctx.clock.now());
}
