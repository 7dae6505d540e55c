// An OCTO booking as OCTO's Booking object (docs/octo.md): status from the order's, ticket
// delivery from its barcodes (QRCODE, one per unit item) and its ticket document (PDF_URL, the
// go~mus order-token link), every nullable key present.
import type { FastifyRequest } from 'fastify';
import type { TicketRow } from '../../domain/capacity/catalog.ts';
import type { OctoBooking } from '../../domain/octo/internal.ts';
import { cancellableUntil } from '../../domain/octo/internal.ts';
import { availabilityOf, slotOf, utc, type Slot } from './availability.ts';
import { parseAvailabilityId } from './ids.ts';
import { DELIVERY_METHODS, pricingOf, productOf, type View } from './products.ts';

const STATUS = { pending: 'ON_HOLD', finalized: 'CONFIRMED', cancelled: 'CANCELLED', expired: 'EXPIRED' } as const;

const CONTACT_KEYS = ['fullName', 'firstName', 'lastName', 'emailAddress', 'phoneNumber', 'postalCode', 'country', 'notes'] as const;

export function contactOf(c: Record<string, unknown> | null | undefined) {
  const str = (k: string) => (typeof c?.[k] === 'string' && (c[k] as string) !== '' ? (c[k] as string) : null);
  const out: Record<string, unknown> = Object.fromEntries(CONTACT_KEYS.map((k) => [k, str(k)]));
  out.fullName ??= [out.firstName, out.lastName].filter(Boolean).join(' ') || null;
  out.locales = Array.isArray(c?.locales) ? (c.locales as unknown[]).filter((l) => typeof l === 'string') : [];
  return out;
}

function ticket(options: Array<{ deliveryFormat: string; deliveryValue: string }>) {
  return { redemptionMethod: 'DIGITAL', utcRedeemedAt: null, deliveryOptions: options };
}

/** What a booking answer shows of its product: the product, option, availability and prices. */
export interface BookingShape {
  product: ReturnType<typeof productOf> | Record<string, unknown> & { options: Array<{ id: string }> };
  availability: Record<string, unknown> | null;
  unitPricing: Record<string, unknown> | null;
  pricing: Record<string, unknown> | null;
}

/** The shape of a ticket booking (its slot as it is now). */
export async function ticketShape(req: FastifyRequest, b: OctoBooking, t: TicketRow, v: View): Promise<BookingShape> {
  const r = b.record;
  const item = b.order.items.find((i) => i.status === 'active') ?? b.order.items.at(-1);
  let availability = null;
  if (item) {
    const found = await slotOf(req, t, r.availabilityId);
    const slot: Slot = found?.slot ?? { start: item.startAt, left: 0, capacity: null };
    availability = availabilityOf(t, found?.date ?? parseAvailabilityId(t, r.availabilityId)?.date ?? r.availabilityId.slice(0, 10), slot, v);
  }
  return {
    product: productOf(t, v),
    availability,
    unitPricing: v.applied.pricing ? pricingOf(t, v) : null,
    pricing: v.applied.pricing ? pricingOf(t, v, r.unitItems.length) : null,
  };
}

export async function bookingOf(req: FastifyRequest, b: OctoBooking, shape: BookingShape | null, v: View) {
  const { record: r, order } = b;
  const status = STATUS[order.status];
  const now = req.ctx.clock.now();
  const item = order.items.find((i) => i.status === 'active') ?? order.items.at(-1);
  const origin = `${req.protocol}://${req.host}`;
  const pdf = item && order.status === 'finalized' && order.documents.some((d) => d.kind === 'ticket')
    ? `${origin}/api/v4/orders/${order.id}/tickets/${item.id}.pdf?token=${encodeURIComponent(order.token)}`
    : null;
  const codes = order.status === 'finalized' ? (item?.barcodes ?? []).filter((c) => c.status !== 'void').map((c) => c.code) : [];
  const until = cancellableUntil(req.ctx, order);
  const cancellable = status === 'ON_HOLD' || (status === 'CONFIRMED' && (until === null || now < until));
  const product = shape?.product ?? null;
  const option = product?.options.find((o) => o.id === r.optionId) ?? product?.options[0];
  const availability = item ? (shape?.availability ?? null) : null;
  const unitPricing = shape?.unitPricing ?? null;
  return {
    id: r.uuid,
    uuid: r.uuid,
    testMode: r.testMode,
    resellerReference: r.resellerReference,
    supplierReference: String(order.id),
    status,
    utcCreatedAt: utc(r.createdAt),
    utcUpdatedAt: utc(r.updatedAt),
    utcExpiresAt: status === 'ON_HOLD' && order.expiresAt ? utc(order.expiresAt) : null,
    utcRedeemedAt: null,
    utcConfirmedAt: order.finalizedAt ? utc(order.finalizedAt) : null,
    productId: r.productId,
    ...(product ? { product } : {}),
    optionId: r.optionId,
    ...(option ? { option } : {}),
    cancellable,
    cancellation: r.cancellation ?? null,
    freesale: false,
    availabilityId: r.availabilityId,
    availability,
    contact: contactOf(r.contact),
    notes: r.notes,
    deliveryMethods: [...DELIVERY_METHODS],
    voucher: ticket(pdf ? [{ deliveryFormat: 'PDF_URL', deliveryValue: pdf }] : []),
    unitItems: r.unitItems.map((u, i) => ({
      uuid: u.uuid,
      resellerReference: u.resellerReference,
      supplierReference: codes[i] ?? null,
      unitId: u.unitId,
      status,
      utcRedeemedAt: null,
      contact: contactOf(null),
      ticket: ticket([...(codes[i] ? [{ deliveryFormat: 'QRCODE', deliveryValue: codes[i]! }] : []), ...(pdf ? [{ deliveryFormat: 'PDF_URL', deliveryValue: pdf }] : [])]),
      ...(unitPricing ? { pricing: unitPricing } : {}),
    })),
    ...(shape?.pricing ? { pricing: shape.pricing } : {}),
  };
}
