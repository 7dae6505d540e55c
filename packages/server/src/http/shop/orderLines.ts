// An order's lines as its pages show them: the amounts the order stored (unit price, line total,
// VAT rate: priced by the domain when the order was placed) with the offer's title and length.
import type { Ctx } from '../../domain/context.ts';
import type { OrderView } from '../../domain/orders/internal.ts';
import { shopFormatters, shopTranslator, type ShopLocale } from './i18n.ts';
import { eventDateOf, orNull, ticketOf, tourOf } from './offers.ts';

export interface OrderLine {
  title: string;
  type: string;
  start: Date;
  zone: string;
  quantity: number;
  unitCents: number;
  totalCents: number;
  vatPct: number;
  /** Minutes, for the calendar entry (a slot's length, the event's or the tour's). */
  minutes: number;
  allDay: boolean;
  /** A gift card or voucher sold: no visit, no calendar entry; its PDFs once issued. */
  codes: Array<{ kind: 'gift_card' | 'voucher'; id: number; last4: string }> | null;
}

export async function orderLines(ctx: Ctx, order: OrderView, locale: ShopLocale): Promise<OrderLine[]> {
  return Promise.all(
    order.items.map(async (i) => {
      const base = { type: i.type, start: i.startAt, zone: i.zone, quantity: i.quantity, unitCents: i.unitPriceCents, totalCents: i.priceCents, vatPct: i.vatPct, codes: null };
      if (i.type === 'GiftCard' || i.type === 'Voucher') {
        const codes = (i.codes ?? []).filter((c) => c.status !== 'void').map(({ kind, id, last4 }) => ({ kind, id, last4 }));
        const t = shopTranslator(locale);
        if (i.type === 'GiftCard') return { ...base, codes, title: t('codes.line.card', { amount: shopFormatters(locale).money(i.unitPriceCents, order.currency) }), minutes: 0, allDay: false };
        const v = await orNull(ticketOf(ctx, i.voucherTicketId ?? 0, locale));
        return { ...base, codes, title: t('codes.line.voucher', { title: v?.title ?? `#${i.voucherTicketId}` }), minutes: 0, allDay: false };
      }
      if (i.ticketId !== null) {
        const t = await orNull(ticketOf(ctx, i.ticketId, locale));
        return { ...base, title: t?.title ?? `#${i.ticketId}`, minutes: t?.entry_duration ?? 60, allDay: t?.ticket_type === 'normal' };
      }
      if (i.eventDateId !== null) {
        const d = await orNull(eventDateOf(ctx, i.eventDateId, locale));
        return { ...base, title: d?.title ?? `#${i.eventDateId}`, minutes: d?.duration ?? 60, allDay: false };
      }
      const t = await orNull(tourOf(ctx, i.tourId ?? 0, locale));
      return { ...base, title: t?.title ?? `#${i.tourId}`, minutes: t?.duration ?? 60, allDay: false };
    }),
  );
}
