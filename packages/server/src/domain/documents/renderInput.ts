// Loads what a PDF renderer needs from the database and turns it into the renderers' plain input
// (documents/render/types.ts). Runs outside any transaction; the render itself never touches the
// database. Titles are printed in the instance's first locale (then any translation present).
import { asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { barcodes, customers, eventDates, events, languages, museums, orderItems, orders, tickets, tours } from '../../db/schema/index.ts';
import type { Translated } from '../../db/schema/catalog.ts';
import type {
  ConfirmationBooking, ConfirmationPdfInput, InvoicePdfInput, RenderMuseum, TicketAdmission, TicketsPdfInput,
} from '../../documents/render/types.ts';
import type { Ctx } from '../context.ts';

type Item = typeof orderItems.$inferSelect;

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
  order: typeof orders.$inferSelect;
  items: Item[];
  museum: RenderMuseum;
  titles: Map<number, string>;
  /** per order item: its barcodes in id order */
  codes: Map<number, Array<{ code: string; status: string }>>;
  customer: typeof customers.$inferSelect | null;
  languageNames: Map<number, string>;
  dayTickets: Set<number>;
}

export async function loadOrderRenderData(db: DbOrTx, ctx: Ctx, orderId: number): Promise<OrderRenderData | null> {
  const L = ctx.config.locales;
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) return null;
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
  const museumId = items[0]?.museumId ?? order.museumIds[0];
  const [m] = museumId ? await db.select().from(museums).where(eq(museums.id, museumId)) : [];
  const ids = (f: (i: Item) => number | null) => [...new Set(items.map(f).filter((x): x is number => x !== null))];
  const [ts, ds, trs, ls, cs, cust] = await Promise.all([
    ids((i) => i.ticketId).length ? db.select().from(tickets).where(inArray(tickets.id, ids((i) => i.ticketId))) : [],
    ids((i) => i.eventDateId).length
      ? db.select({ id: eventDates.id, title: events.title }).from(eventDates).innerJoin(events, eq(events.id, eventDates.eventId))
          .where(inArray(eventDates.id, ids((i) => i.eventDateId)))
      : [],
    ids((i) => i.tourId).length ? db.select().from(tours).where(inArray(tours.id, ids((i) => i.tourId))) : [],
    ids((i) => i.languageId).length ? db.select().from(languages).where(inArray(languages.id, ids((i) => i.languageId))) : [],
    items.length
      ? db.select().from(barcodes).where(inArray(barcodes.orderItemId, items.map((i) => i.id))).orderBy(asc(barcodes.id))
      : [],
    order.customerId ? db.select().from(customers).where(eq(customers.id, order.customerId)) : [],
  ]);
  const titles = new Map<number, string>();
  const dayTickets = new Set<number>();
  for (const i of items) {
    if (i.ticketId) {
      const t = ts.find((x) => x.id === i.ticketId);
      titles.set(i.id, pick(t?.title, L));
      if (t?.ticketType === 'normal') dayTickets.add(i.id);
    } else if (i.eventDateId) titles.set(i.id, pick(ds.find((x) => x.id === i.eventDateId)?.title, L));
    else if (i.tourId) titles.set(i.id, pick(trs.find((x) => x.id === i.tourId)?.title, L));
  }
  const codes = new Map<number, Array<{ code: string; status: string }>>();
  for (const c of cs) codes.set(c.orderItemId, [...(codes.get(c.orderItemId) ?? []), { code: c.code, status: c.status }]);
  return {
    order,
    items,
    museum: { title: pick(m?.title, L) || 'Museum', time_zone: m?.timeZone ?? ctx.config.zone, location: locationText(m?.location ?? null) },
    titles,
    codes,
    customer: cust[0] ?? null,
    languageNames: new Map(ls.map((l) => [l.id, l.name])),
    dayTickets,
  };
}

const orderRef = (d: OrderRenderData) => ({ id: d.order.id, reference: d.order.reference, token: d.order.token, created_at: d.order.createdAt });

/** One admission per barcode of every Ticket and Event item; cancelled items' codes print VOID. */
export function ticketsInput(d: OrderRenderData, currency: string): TicketsPdfInput {
  const admissions: TicketAdmission[] = d.items
    .filter((i) => i.type === 'Ticket' || i.type === 'Event')
    .flatMap((i) =>
      (d.codes.get(i.id) ?? []).map((c, n) => ({
        title: d.titles.get(i.id) ?? '',
        start_at: i.startAt,
        day_ticket: d.dayTickets.has(i.id),
        ticket_type: i.type === 'Event' ? 'Event' : d.dayTickets.has(i.id) ? 'normal' : 'time_slot',
        price_cents: i.unitPriceCents,
        vat_pct: i.vatPct,
        barcode: c.code,
        status: c.status === 'valid' && i.status === 'active' ? ('valid' as const) : ('void' as const),
        attendee: i.attendees?.[n] ?? null,
      })),
    );
  return { order: orderRef(d), museum: d.museum, currency, admissions };
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
    order: orderRef(d),
    museum: d.museum,
    currency,
    customer: c ? { name: c.name, surname: c.surname, institution: c.institution, email: c.email } : null,
    bookings,
  };
}

/** The invoice as issued at finalization: every item that was charged then. */
export function invoiceInput(d: OrderRenderData, currency: string, number: number): InvoicePdfInput {
  const c = d.customer;
  const addr = c ? [c.institution, c.street, [c.zip, c.city].filter(Boolean).join(' '), c.country].filter((x): x is string => !!x) : [];
  return {
    invoice_number: formatInvoiceNumber(number),
    issued_at: d.order.finalizedAt ?? d.order.createdAt,
    time_zone: d.museum.time_zone,
    seller: { name: d.museum.title, address_lines: d.museum.location ? [d.museum.location] : [] },
    buyer: c ? { name: `${c.name} ${c.surname}`, address_lines: addr, email: c.email } : null,
    order: { id: d.order.id, reference: d.order.reference },
    currency,
    // Items cancelled before finalization were never charged; later cancellations do not change
    // an issued invoice.
    lines: d.items.filter((i) => i.status === 'active' || (i.cancelledAt && d.order.finalizedAt && i.cancelledAt > d.order.finalizedAt)).map((i) => ({
      title: d.titles.get(i.id) ?? i.type,
      quantity: i.quantity,
      unit_price_cents: i.unitPriceCents,
      total_cents: i.priceCents,
      vat_pct: i.vatPct,
      tax_included: i.taxIncluded,
      detail: null,
    })),
  };
}

/** Invoice numbers as printed: zero-padded so they sort; the integer is the gapless sequence. */
export const formatInvoiceNumber = (n: number) => `INV-${String(n).padStart(6, '0')}`;
