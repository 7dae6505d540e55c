// What a cart line shows: the offer's title, museum zone and deep link, read from the catalogue
// (a line whose offer is gone says so instead of failing the page). No amounts: the order's
// summary shows what the domain priced.
import type { Ctx } from '../../domain/context.ts';
import type { CartLine } from './cart.ts';
import type { ShopLocale } from './i18n.ts';
import { eventDateOf, eventOf, museumOf, orNull, ticketOf, tourOf } from './offers.ts';
import { shopPicture, type ShopPicture } from './picture.ts';

export interface LineView {
  n: number;
  kind: CartLine['kind'];
  title: string | null;
  link: string;
  start: Date;
  zone: string;
  quantity: number;
  allDay: boolean;
  language: string | null;
  picture: ShopPicture | null;
  /** Whether the ticket asks for each visitor's name: 'none', 'optional' or 'required'. */
  attendees: string;
}

export async function describeLines(ctx: Ctx, lines: CartLine[], locale: ShopLocale): Promise<LineView[]> {
  return Promise.all(
    lines.map(async (l, i) => {
      const base = { n: i + 1, kind: l.kind, start: new Date(l.start), quantity: l.quantity, allDay: false, language: null as string | null, picture: null as ShopPicture | null, attendees: 'none' };
      if (l.kind === 'ticket') {
        const t = await orNull(ticketOf(ctx, l.id, locale));
        const m = t ? await museumOf(ctx, t.museum_ids[0]!, locale) : undefined;
        return { ...base, title: t?.title ?? null, link: `/shop/tickets/${l.id}`, zone: m?.time_zone ?? ctx.config.zone, allDay: t?.ticket_type === 'normal', picture: shopPicture(t?.picture), attendees: t?.attendees ?? 'none' };
      }
      if (l.kind === 'event') {
        const d = await orNull(eventDateOf(ctx, l.id, locale));
        const m = d ? await museumOf(ctx, d.museum_id, locale) : undefined;
        // A date has no picture of its own: the event's.
        const e = d ? await orNull(eventOf(ctx, d.event_id, locale)) : null;
        return { ...base, title: d?.title ?? null, link: d ? `/shop/events/${d.event_id}` : '/shop', zone: m?.time_zone ?? ctx.config.zone, language: d?.language?.name ?? null, picture: shopPicture(e?.picture) };
      }
      const t = await orNull(tourOf(ctx, l.id, locale));
      const m = t ? await museumOf(ctx, t.museum_id, locale) : undefined;
      const languageId = l.kind === 'tour' ? l.languageId : 0;
      const lang = t?.languages.find((x) => x.id === languageId)?.name ?? null;
      return { ...base, title: t?.title ?? null, link: `/shop/tours/${l.id}`, zone: m?.time_zone ?? ctx.config.zone, language: lang, picture: shopPicture(t?.picture) };
    }),
  );
}
