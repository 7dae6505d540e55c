// What the shop's pages show, read through the same catalogue and availability verbs as the JSON
// API (as an anonymous caller: what the 'shop' channel offers). The views are the API's own
// records; the types below name only the fields the pages use.
import type { Ctx } from '../../domain/context.ts';
import { DomainError } from '../../domain/errors.ts';
import { getEvent } from '../../domain/catalog/getEvent.ts';
import { getEventDate } from '../../domain/catalog/getEventDate.ts';
import { getTicket } from '../../domain/catalog/getTicket.ts';
import { getTour } from '../../domain/catalog/getTour.ts';
import { listEvents } from '../../domain/catalog/listEvents.ts';
import { listExhibitions } from '../../domain/catalog/listExhibitions.ts';
import { listMuseums } from '../../domain/catalog/listMuseums.ts';
import { listTickets } from '../../domain/catalog/listTickets.ts';
import { listTours } from '../../domain/catalog/listTours.ts';

/** A lookup's answer, or null when the record is gone (a cart or order line whose offer was removed). */
export async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'NOT_FOUND') return null;
    throw err;
  }
}
import type { ShopLocale } from './i18n.ts';

export interface Ref { id: number; name: string }
/** go~mus's picture object (title and one /media URL per size), null when there is none. */
export type PictureV = Record<string, string | null> | null;
export interface MuseumV { id: number; title: string; sub_title: string | null; time_zone: string; location: Record<string, string> | null; picture: PictureV }
export interface ExhibitionV { id: number; museum_id: number; title: string; sub_title: string | null; featured: boolean; picture: PictureV }
export interface TicketV {
  id: number; title: string; sub_title: string | null; description: string | null; ticket_type: 'time_slot' | 'normal';
  bookable: boolean; museum_ids: number[]; price_cents: number; vat_pct: number; first_entry: string | null; last_entry: string | null;
  entry_duration: number | null; min_persons: number; max_persons: number; attendees: string; picture: PictureV;
}
export interface EventV { id: number; museum_id: number; title: string; sub_title: string | null; description: string | null; bookable: boolean; price_cents: number; languages: Ref[]; category: Ref | null; picture: PictureV }
export interface EventDateV {
  id: number; event_id: number; museum_id: number; title: string; start_time: string; duration: number; bookable: boolean; price_cents: number;
  seats: { min: number; max: number; available: number; max_per_registration: number | null }; language: Ref | null;
}
export interface TourV {
  id: number; museum_id: number; title: string; sub_title: string | null; description: string | null; duration: number; min_persons: number;
  max_persons: number; languages: Ref[]; bookable: boolean; price_cents: number; pricing: 'group' | 'person'; picture: PictureV;
}

const ALL = { per_page: 25 } as const;

/**
 * How a page reads catalogue records: through the JSON API's answer cache when the app keeps one
 * (plugin.ts; the same catalogue version, local date and clearing as the API's answers), or
 * afresh. `key` names the read and its inputs. Kept values are shared: never mutate them.
 */
export type Keep = <T>(key: string, load: () => Promise<T>) => Promise<T>;
export const readAfresh: Keep = (_key, load) => load();

export function shopListing(ctx: Ctx, locale: ShopLocale, museumId?: number, keep: Keep = readAfresh) {
  return keep(`listing|${locale}|${museumId ?? ''}`, () => readListing(ctx, locale, museumId));
}

async function readListing(ctx: Ctx, locale: ShopLocale, museumId?: number) {
  const scope = museumId !== undefined ? { by_museum_ids: [museumId] } : {};
  const [museums, exhibitions, tickets, events, tours] = await Promise.all([
    listMuseums(ctx, { locale, ...ALL }),
    listExhibitions(ctx, { locale, ...ALL, ...scope }),
    listTickets(ctx, { locale, ...ALL, ...scope }),
    listEvents(ctx, { locale, ...ALL, ...scope }),
    listTours(ctx, { locale, ...ALL, ...scope }),
  ]);
  const ms = museums.items as unknown as MuseumV[];
  return {
    museums: museumId !== undefined ? ms.filter((m) => m.id === museumId) : ms,
    exhibitions: exhibitions.items as unknown as ExhibitionV[],
    tickets: tickets.items as unknown as TicketV[],
    events: events.items as unknown as EventV[],
    tours: tours.items as unknown as TourV[],
  };
}

export const ticketOf = (ctx: Ctx, id: number, locale: ShopLocale, keep: Keep = readAfresh) =>
  keep(`ticket|${id}|${locale}`, async () => (await getTicket(ctx, { id, locale })) as unknown as TicketV);
export const eventOf = (ctx: Ctx, id: number, locale: ShopLocale, keep: Keep = readAfresh) =>
  keep(`event|${id}|${locale}`, async () => (await getEvent(ctx, { id, locale })) as unknown as EventV);
// An event date carries its seats left: live, never kept.
export const eventDateOf = async (ctx: Ctx, id: number, locale: ShopLocale) => (await getEventDate(ctx, { id, locale })) as unknown as EventDateV;
export const tourOf = (ctx: Ctx, id: number, locale: ShopLocale, keep: Keep = readAfresh) =>
  keep(`tour|${id}|${locale}`, async () => (await getTour(ctx, { id, locale })) as unknown as TourV);

/**
 * The price categories offered with a ticket: the shop's tickets of the same museum sold on the
 * same entry grid (a regular and a reduced time-slot ticket), the chosen one first. Each keeps
 * its own price and minimum/maximum.
 */
export function categoriesOf(ctx: Ctx, t: TicketV, locale: ShopLocale, keep: Keep = readAfresh): Promise<TicketV[]> {
  return keep(`categories|${t.id}|${locale}`, () => readCategories(ctx, t, locale));
}

async function readCategories(ctx: Ctx, t: TicketV, locale: ShopLocale): Promise<TicketV[]> {
  const page = await listTickets(ctx, { locale, ...ALL, by_museum_ids: t.museum_ids });
  const same = (o: TicketV) =>
    o.ticket_type === t.ticket_type && o.first_entry === t.first_entry && o.last_entry === t.last_entry && o.entry_duration === t.entry_duration && o.bookable;
  const others = (page.items as unknown as TicketV[]).filter((o) => o.id !== t.id && same(o));
  return [t, ...others];
}

export async function museumOf(ctx: Ctx, id: number, locale: ShopLocale, keep: Keep = readAfresh): Promise<MuseumV | undefined> {
  const museums = await keep(`museums|${locale}`, async () => (await listMuseums(ctx, { locale, ...ALL })).items as unknown as MuseumV[]);
  return museums.find((m) => m.id === id);
}
