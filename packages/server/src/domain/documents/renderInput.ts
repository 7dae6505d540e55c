// Loads what a PDF renderer needs from the database and turns it into the renderers' plain input
// (domain/documents/renderTypes.ts). Runs outside any transaction; the render itself never touches the
// database. Everything is in the customer's locale, else the instance's first (src/i18n); titles
// fall back to the instance's locales, then any translation present.
import type { DbOrTx } from '../../db/client.ts';
import { orderRenderRows, type CustomerRow, type OrderItemRow, type OrderRow } from '../../db/repositories/documents/render.ts';
import type { Translated } from '../../db/schema/catalog.ts';
import type { IssuedLine, IssuedParty } from './invoiceTypes.ts';
import type {
  ConfirmationBooking, ConfirmationPdfInput, RenderMuseum, TicketAdmission, TicketsPdfInput,
} from './renderTypes.ts';
import { formatDate, formatSlot, resolveLocale, t } from '../../i18n/index.ts';
import { ticketById } from '../capacity/catalog.ts';
import type { Ctx } from '../context.ts';
import { localDateOf } from '../time.ts';
import { discountsByOrder } from '../orders/discounts.ts';

type Item = OrderItemRow;

function pick(t: Translated | null | undefined, locales: string[]): string {
  if (!t) return '';
  for (const l of locales) if (t[l]) return t[l]!;
  return Object.values(t)[0] ?? '';
}

function locationText(loc: Record<string, unknown> | null): string | null {
  if (!loc) return null;
  const parts = ['street', 'zip', 'city', 'address', 'country']
    .map((k) => loc[k])
    .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
    .map(String);
  return parts.length ? parts.join(', ') : null;
}

export interface OrderRenderData {
  order: OrderRow;
  items: Item[];
  museum: RenderMuseum;
  titles: Map<number, string>;
  /** per order item: its barcodes in id order */
  codes: Map<number, Array<{ code: string; status: string }>>;
  customer: CustomerRow | null;
  languageNames: Map<number, string>;
  dayTickets: Set<number>;
  /** per order item of a time-slot ticket: the slot length in minutes */
  slotMinutes: Map<number, number>;
  /** order items of tickets with a discount: entry needs proof of eligibility */
  reduced: Set<number>;
  /** The language of the order's documents: the customer's, else the instance default. */
  locale: string;
  /** per order item: what each promo code or voucher took off it */
  discounts: Map<number, Array<{ code: string; amount_cents: number }>>;
}

export async function loadOrderRenderData(db: DbOrTx, ctx: Ctx, orderId: number): Promise<OrderRenderData | null> {
  const rows = await orderRenderRows(db, orderId);
  if (!rows) return null;
  const { order, items, museum: m, tickets: ts, eventDates: ds, tours: trs, languages: ls, barcodes: cs, customer } = rows;
  const locale = resolveLocale(customer?.locale, ctx.config.locales[0]);
  const L = [locale, ...ctx.config.locales];
  const titles = new Map<number, string>();
  const dayTickets = new Set<number>();
  const slotMinutes = new Map<number, number>();
  const reduced = new Set<number>();
  for (const i of items) {
    if (i.type === 'GiftCard') titles.set(i.id, t(locale, 'gift_card.title'));
    else if (i.type === 'Voucher') {
      const vt = i.voucherTicketId ? await ticketById(ctx, db, i.voucherTicketId) : null;
      titles.set(i.id, `${t(locale, 'voucher.title')}: ${pick(vt?.title, L)}`);
    } else if (i.ticketId) {
      const t = ts.find((x) => x.id === i.ticketId);
      titles.set(i.id, pick(t?.title, L));
      if (t?.ticketType === 'normal') dayTickets.add(i.id);
      if (t?.entryDuration) slotMinutes.set(i.id, t.entryDuration);
      if (t && t.discount > 0) reduced.add(i.id);
    } else if (i.eventDateId) titles.set(i.id, pick(ds.find((x) => x.id === i.eventDateId)?.title, L));
    else if (i.tourId) titles.set(i.id, pick(trs.find((x) => x.id === i.tourId)?.title, L));
  }
  const discounts = new Map<number, Array<{ code: string; amount_cents: number }>>();
  for (const x of (await discountsByOrder(db, [orderId])).get(orderId) ?? []) {
    discounts.set(x.orderItemId, [...(discounts.get(x.orderItemId) ?? []), { code: x.code, amount_cents: x.amountCents }]);
  }
  const codes = new Map<number, Array<{ code: string; status: string }>>();
  for (const c of cs) codes.set(c.orderItemId, [...(codes.get(c.orderItemId) ?? []), { code: c.code, status: c.status }]);
  return {
    order,
    items,
    museum: { title: pick(m?.title, L) || 'Museum', time_zone: m?.timeZone ?? ctx.config.zone, location: locationText(m?.location ?? null) },
    titles,
    codes,
    customer,
    languageNames: new Map(ls.map((l) => [l.id, l.name])),
    dayTickets,
    slotMinutes,
    reduced,
    locale,
    discounts,
  };
}

const orderRef = (d: OrderRenderData) => ({ id: d.order.id, reference: d.order.reference, token: d.order.token, created_at: d.order.createdAt });

const slotEnd = (d: OrderRenderData, i: Item) => {
  const m = d.slotMinutes.get(i.id);
  return m ? new Date(i.startAt.getTime() + m * 60_000) : null;
};

/** One admission per barcode of every Ticket and Event item; cancelled items' codes print void. */
export function ticketsInput(d: OrderRenderData, currency: string): TicketsPdfInput {
  const admissions: TicketAdmission[] = d.items
    .filter((i) => i.type === 'Ticket' || i.type === 'Event')
    .flatMap((i) =>
      (d.codes.get(i.id) ?? []).map((c, n) => ({
        title: d.titles.get(i.id) ?? '',
        start_at: i.startAt,
        end_at: slotEnd(d, i),
        kind: i.type === 'Event' ? ('event' as const) : d.dayTickets.has(i.id) ? ('normal' as const) : ('time_slot' as const),
        day_ticket: d.dayTickets.has(i.id),
        reduced: d.reduced.has(i.id),
        price_cents: i.unitPriceCents,
        vat_pct: i.vatPct,
        tax_included: i.taxIncluded,
        barcode: c.code,
        status: c.status === 'valid' && i.status === 'active' ? ('valid' as const) : ('void' as const),
        attendee: i.attendees?.[n] ?? null,
      })),
    );
  return { locale: d.locale, order: orderRef(d), museum: d.museum, currency, admissions };
}

export function confirmationInput(d: OrderRenderData, currency: string): ConfirmationPdfInput {
  const bookings: ConfirmationBooking[] = d.items
    .filter((i) => i.type === 'Tour')
    .map((i) => ({
      kind: 'tour',
      title: d.titles.get(i.id) ?? '',
      start_at: i.startAt,
      language: i.languageId ? (d.languageNames.get(i.languageId) ?? null) : null,
      quantity: i.quantity,
      price_cents: i.priceCents,
      vat_pct: i.vatPct,
      status: i.status === 'active' ? 'booked' : 'cancelled',
    }));
  const c = d.customer;
  return {
    locale: d.locale,
    order: orderRef(d),
    museum: d.museum,
    currency,
    customer: c ? { name: c.name, surname: c.surname, institution: c.institution, email: c.email } : null,
    bookings,
  };
}

/** An invoice line of an order item: title, when (as people write it) and amounts as charged. */
export function invoiceLine(d: OrderRenderData, i: Item): IssuedLine {
  const zone = d.museum.time_zone;
  // Gift cards and vouchers sold: no visit to describe; the service date is the day of sale. A
  // gift card is not subject to VAT (category O); a voucher carries its ticket's rate.
  const sold = i.type === 'GiftCard' || i.type === 'Voucher';
  const detail = sold ? null : d.dayTickets.has(i.id) ? formatDate(d.locale, i.startAt, zone, 'medium') : formatSlot(d.locale, i.startAt, slotEnd(d, i), zone);
  return {
    title: d.titles.get(i.id) || i.type,
    detail,
    quantity: i.quantity,
    unit_price_cents: i.unitPriceCents,
    total_cents: i.priceCents,
    vat_pct: i.vatPct,
    tax_included: i.taxIncluded,
    service_date: localDateOf(i.startAt, zone),
    ...(i.type === 'GiftCard' ? { vat_category: 'O' as const } : {}),
    ...(d.discounts.has(i.id) ? { discounts: d.discounts.get(i.id)! } : {}),
  };
}

/** Items charged by the invoice: those active at finalization (later cancellations do not change it). */
export function invoicedItems(d: OrderRenderData): Item[] {
  const fin = d.order.finalizedAt;
  return d.items.filter((i) => i.status === 'active' || (i.cancelledAt && fin && i.cancelledAt > fin));
}

export function buyerOf(d: OrderRenderData): IssuedParty | null {
  const c = d.customer;
  if (!c) return null;
  return {
    name: [c.name, c.surname].filter(Boolean).join(' '),
    institution: c.institution ?? null,
    street: c.street ?? null,
    zip: c.zip ?? null,
    city: c.city ?? null,
    country: c.country ?? null,
    email: c.email ?? null,
  };
}

/** Invoice numbers as printed: zero-padded so they sort; the integer is the gapless sequence. */
export const formatInvoiceNumber = (n: number) => `INV-${String(n).padStart(6, '0')}`;
