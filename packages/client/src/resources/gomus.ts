// go~mus drop-in reads (docs/gomus-compatibility.md): the event calendar, a tour's price list,
// the event/tour categories and tag collections, the languages of the dates and the order-token
// document links. The answer types are
// spelled out here, as the server's route schemas define them (routes/catalog/gomus.ts,
// routes/documents/gomus.ts).
import type { Core, ReadOptions } from '../core.ts';
import { endpoint } from '../endpoints.ts';
import type { DocumentFile } from '../types.ts';

const master = { cache: 'master' as const };
export const TAG_COLLECTIONS = ['age_groups', 'audiences', 'catch_words', 'proposal_categories', 'grades'] as const;
export type TagCollection = (typeof TAG_COLLECTIONS)[number];
export type DocumentLink = 'tickets' | 'events' | 'tours' | 'invoice';

const EP = {
  calendar: endpoint('GET', '/calendar', master),
  eventCalendar: endpoint('GET', '/events/{id}/calendar', master),
  dateLanguages: endpoint('GET', '/dates/languages', master),
  categories: { events: endpoint('GET', '/events/categories', master), tours: endpoint('GET', '/tours/categories', master) },
  tourPrices: endpoint('GET', '/tours/{id}/prices', master),
  lookups: {
    countries: endpoint('GET', '/countries', master),
    states: endpoint('GET', '/states', master),
    dispatch_modes: endpoint('GET', '/dispatch_modes', master),
  },
  tags: Object.fromEntries(
    (['events', 'tours'] as const).map((of) => [of, Object.fromEntries(TAG_COLLECTIONS.map((k) => [k, endpoint('GET', `/${of}/${k}`, master)]))]),
  ) as Record<'events' | 'tours', Record<TagCollection, ReturnType<typeof endpoint>>>,
  links: {
    tickets: endpoint('GET', '/orders/{id}/tickets/{item}.pdf'),
    events: endpoint('GET', '/orders/{id}/events/{item}.pdf'),
    tours: endpoint('GET', '/orders/{id}/tours/{item}.pdf'),
    invoice: endpoint('GET', '/orders/{id}/invoice.pdf'),
  } satisfies Record<DocumentLink, ReturnType<typeof endpoint>>,
  sold: {
    gift_card: endpoint('GET', '/orders/{id}/gift_cards/{item}.pdf'),
    voucher: endpoint('GET', '/orders/{id}/vouchers/{item}.pdf'),
  },
};

type Text = string | Record<string, string | null> | null;
export interface CalendarDate {
  id: number;
  event_id: number;
  title: Text;
  sub_title: Text;
  start_time: string;
  bookable: boolean;
  seats: { max: number; booked: number; available: number };
}
/** The filters of go~mus `GET /dates`, shared by the calendars and `/dates/languages`. */
export interface DatesFilters {
  start_at?: string;
  end_at?: string;
  by_event_ids?: number[];
  by_museum_ids?: number[];
  by_category_ids?: number[];
  /** Category names. */
  by_categories?: string[];
  by_language_ids?: number[];
  q?: string;
  locale?: string | string[];
}
export interface EventCalendarQuery extends DatesFilters {
  depth?: 'any' | 'all';
}
/** go~mus tag object: a category or a language. */
export interface Tag {
  id: number;
  name: string;
}
export interface TourPrices {
  prices: Array<{ group: boolean; optional: boolean; price_cents: number; vat_pct: number }>;
  vat_pct: number;
  discount: number;
  tax_included: boolean;
}

export class Gomus {
  constructor(private readonly core: Core) {}

  /** go~mus `GET /calendar`: per day whether an event date can be booked, or (depth=all) the dates. */
  async eventCalendar(query: EventCalendarQuery = {}, o: ReadOptions = {}): Promise<Record<string, boolean | Array<{ date: CalendarDate }>>> {
    return ((await this.core.json(EP.calendar, { ...o, query })) as { data: Record<string, boolean | Array<{ date: CalendarDate }>> }).data;
  }

  /** go~mus's older `GET /events/:id/calendar`: the same answer as `eventCalendar({ by_event_ids: [id] })`. */
  async eventCalendarOf(id: number, query: Omit<EventCalendarQuery, 'by_event_ids'> = {}, o: ReadOptions = {}): Promise<Record<string, boolean | Array<{ date: CalendarDate }>>> {
    return ((await this.core.json(EP.eventCalendar, { ...o, params: { id }, query })) as { data: Record<string, boolean | Array<{ date: CalendarDate }>> }).data;
  }

  /** go~mus `GET /events/categories` / `GET /tours/categories`: the categories of what the caller can see. */
  async categories(of: 'events' | 'tours', o: ReadOptions = {}): Promise<Tag[]> {
    return ((await this.core.json(EP.categories[of], o)) as { categories: Tag[] }).categories;
  }

  /** go~mus `GET /dates/languages`: the languages of the dates `GET /dates` lists with these filters. */
  async dateLanguages(query: DatesFilters = {}, o: ReadOptions = {}): Promise<Tag[]> {
    return ((await this.core.json(EP.dateLanguages, { ...o, query })) as { languages: Tag[] }).languages;
  }

  /** go~mus `GET /tours/:id/prices`. */
  tourPrices(id: number, query: { date?: string; time?: string; participants?: number; language_id?: number } = {}, o: ReadOptions = {}): Promise<TourPrices> {
    return this.core.json(EP.tourPrices, { ...o, params: { id }, query }) as Promise<TourPrices>;
  }

  /**
   * go~mus lookup lists: `countries` (ISO codes named in `locale`), `states` (Atrium keeps none:
   * empty) and `dispatch_modes` (how tickets reach the visitor: e-mail). One page of `per_page`.
   */
  async lookup(kind: 'countries' | 'states' | 'dispatch_modes', query: { page?: number; per_page?: number; locale?: string } = {}, o: ReadOptions = {}): Promise<Array<{ id: number; name: string; code?: string; country_id?: number }>> {
    return ((await this.core.json(EP.lookups[kind], { ...o, query })) as Record<string, Array<{ id: number; name: string }>>)[kind] ?? [];
  }

  /** go~mus tag collections (`/events/age_groups`, `/tours/grades`, …): Atrium keeps none, so these are empty. */
  async tags(of: 'events' | 'tours', key: TagCollection, o: ReadOptions = {}): Promise<Array<{ id: number; name: string }>> {
    return ((await this.core.json(EP.tags[of][key], o)) as Record<string, Array<{ id: number; name: string }>>)[key] ?? [];
  }

  /**
   * A go~mus document link, authorized by the order token (`token` of the order) instead of the
   * client's bearer token: the ticket PDF of a Ticket or Event item, the confirmation of a Tour
   * item, or the invoice. The token is masked in the client's logs. 202 (still rendering) and 410
   * are errors here; `documents.download` polls.
   */
  /**
   * The PDF of a gift card or single-purpose voucher an order sold (`pdf_url` of its GiftCard or
   * Voucher line), authorized by the order token: the code printed on it, as often as asked. 410
   * once the order was cancelled and the card or voucher voided.
   */
  async soldCodePdf(orderId: number, kind: 'gift_card' | 'voucher', id: number, token: string, o: { correlationId?: string } = {}): Promise<DocumentFile> {
    const res = await this.core.http.send(EP.sold[kind], { params: { id: orderId, item: id }, query: { token }, binary: true, ...o });
    if (res.status !== 200 || !res.bytes) throw new Error(`${kind} ${id} of order ${orderId}: status ${res.status}`);
    return { bytes: res.bytes, contentType: res.headers.get('content-type') ?? 'application/pdf', filename: undefined };
  }

  async orderDocument(orderId: number, link: DocumentLink, itemId: number | null, token: string, o: { correlationId?: string } = {}): Promise<DocumentFile> {
    const params: Record<string, number> = link === 'invoice' ? { id: orderId } : { id: orderId, item: itemId ?? 0 };
    const res = await this.core.http.send(EP.links[link], { params, query: { token }, binary: true, ...o });
    if (res.status !== 200 || !res.bytes) throw new Error(`document of order ${orderId} not ready (status ${res.status})`);
    return { bytes: res.bytes, contentType: res.headers.get('content-type') ?? 'application/pdf', filename: undefined };
  }
}
