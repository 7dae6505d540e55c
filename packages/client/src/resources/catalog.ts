// Catalogue (master data, docs/api-contract.md §4): cached per spec 1.3. Event dates carry `seats`, which is
// availability: `events.date(…, { refresh: true })` (what `availability.eventDate` does) always
// asks the server, revalidating by ETag.
import type { Core, ReadOptions } from '../core.ts';
import { endpoint } from '../endpoints.ts';
import { safeCreate } from '../safe.ts';
import type { BodyOf, EventDate, Exhibition, List, Museum, OkBody, QueryOf, Quota, Ticket, Tour, Event } from '../types.ts';
import { catalogueEndpoints, Crud, type WriteOptions } from './crud.ts';

type A = '/api/v4';
type Q<P extends string> = QueryOf<`${A}${P}`, 'get'>;
type Post<P extends string> = BodyOf<`${A}${P}`, 'post'>;
type Put<P extends string> = BodyOf<`${A}${P}`, 'put'>;

const master = { cache: 'master' as const };
const EP = {
  museums: catalogueEndpoints('/museums'),
  openingHours: endpoint('GET', '/museums/{id}/opening_hours', master),
  exhibitions: catalogueEndpoints('/exhibitions'),
  tickets: catalogueEndpoints('/tickets'),
  events: catalogueEndpoints('/events'),
  eventLanguages: endpoint('GET', '/events/languages', master),
  eventDates: endpoint('GET', '/events/{id}/dates', master),
  eventDate: endpoint('GET', '/events/{event_id}/dates/{id}', master),
  createDate: endpoint('POST', '/events/{id}/dates'),
  updateDate: endpoint('PUT', '/events/{event_id}/dates/{id}'),
  dates: endpoint('GET', '/dates', master),
  tours: catalogueEndpoints('/tours'),
  tourLanguages: endpoint('GET', '/tours/languages', master),
  quotas: catalogueEndpoints('/quotas'),
  setOverride: endpoint('PUT', '/quotas/{id}/overrides/{date}'),
  deleteOverride: endpoint('DELETE', '/quotas/{id}/overrides/{date}'),
  createLanguage: endpoint('POST', '/languages'),
  locales: endpoint('GET', '/locales', master),
  version: endpoint('GET', '/version', master),
  ticketContent: endpoint('GET', '/tickets/content', master),
};

export class Museums extends Crud<Museum, Q<'/museums'>, Q<'/museums/{id}'>, Post<'/museums'>, Put<'/museums/{id}'>> {
  constructor(core: Core) {
    super(core, EP.museums, 'museum', 'museums');
  }
  /** Opening hours of one museum-local day. */
  openingHours(id: number, query?: Q<'/museums/{id}/opening_hours'>, o: ReadOptions = {}): Promise<OkBody<`${A}/museums/{id}/opening_hours`, 'get'>['opening_hours']> {
    return this.core.one(EP.openingHours, 'opening_hours', { ...o, params: { id }, ...(query ? { query } : {}) });
  }
}

export class Exhibitions extends Crud<Exhibition, Q<'/exhibitions'>, Q<'/exhibitions/{id}'>, Post<'/exhibitions'>, Put<'/exhibitions/{id}'>> {
  constructor(core: Core) {
    super(core, EP.exhibitions, 'exhibition', 'exhibitions');
  }
}

export class Tickets extends Crud<Ticket, Q<'/tickets'>, Q<'/tickets/{id}'>, Post<'/tickets'>, Put<'/tickets/{id}'>> {
  constructor(core: Core) {
    super(core, EP.tickets, 'ticket', 'tickets');
  }
  /** go~mus's content blocks of the given tickets (`ticket_ids[]` is required). */
  content(query: Q<'/tickets/content'>, o: ReadOptions = {}): Promise<OkBody<`${A}/tickets/content`, 'get'>['data']> {
    return this.core.one(EP.ticketContent, 'data', { ...o, query });
  }
}

export class Events extends Crud<Event, Q<'/events'>, Q<'/events/{id}'>, Post<'/events'>, Put<'/events/{id}'>> {
  constructor(core: Core) {
    super(core, EP.events, 'event', 'events');
  }
  languages(o: ReadOptions = {}): Promise<OkBody<`${A}/events/languages`, 'get'>['languages']> {
    return this.core.one(EP.eventLanguages, 'languages', o);
  }
  dates(eventId: number, query?: Q<'/events/{id}/dates'>, o: ReadOptions = {}): Promise<List<EventDate>> {
    return this.core.list(EP.eventDates, 'dates', { ...o, params: { id: eventId }, ...(query ? { query } : {}) });
  }
  allDates(eventId: number, query?: Q<'/events/{id}/dates'>, o: ReadOptions = {}): AsyncGenerator<EventDate> {
    return this.core.all(EP.eventDates, 'dates', { ...o, params: { id: eventId }, ...(query ? { query } : {}) });
  }
  date(eventId: number, dateId: number, query?: Q<'/events/{event_id}/dates/{id}'>, o: ReadOptions = {}): Promise<EventDate> {
    return this.core.one(EP.eventDate, 'date', { ...o, params: { event_id: eventId, id: dateId }, ...(query ? { query } : {}) });
  }
  async createDate(eventId: number, body: Post<'/events/{id}/dates'>, o: WriteOptions = {}): Promise<EventDate> {
    const r = await safeCreate<EventDate>(this.core.http, { ep: EP.createDate, call: { ...o, params: { id: eventId }, body }, unwrap: (b) => b?.date });
    await this.core.cache?.store.clear();
    return r;
  }
  async updateDate(eventId: number, dateId: number, body: Put<'/events/{event_id}/dates/{id}'>, o: WriteOptions = {}): Promise<EventDate> {
    const r = await this.core.one<EventDate>(EP.updateDate, 'date', { ...o, params: { event_id: eventId, id: dateId }, body });
    await this.core.cache?.store.clear();
    return r;
  }
}

/** Event dates across events (`GET /dates`). */
export class Dates {
  constructor(private readonly core: Core) {}
  list(query?: Q<'/dates'>, o: ReadOptions = {}): Promise<List<EventDate>> {
    return this.core.list(EP.dates, 'dates', { ...o, ...(query ? { query } : {}) });
  }
  all(query?: Q<'/dates'>, o: ReadOptions = {}): AsyncGenerator<EventDate> {
    return this.core.all(EP.dates, 'dates', { ...o, ...(query ? { query } : {}) });
  }
}

export class Tours extends Crud<Tour, Q<'/tours'>, Q<'/tours/{id}'>, Post<'/tours'>, Put<'/tours/{id}'>> {
  constructor(core: Core) {
    super(core, EP.tours, 'tour', 'tours');
  }
  languages(o: ReadOptions = {}): Promise<OkBody<`${A}/tours/languages`, 'get'>['languages']> {
    return this.core.one(EP.tourLanguages, 'languages', o);
  }
  /** Staff: create a language that tours and events can be offered in. */
  createLanguage(body: Post<'/languages'>, o: WriteOptions = {}): Promise<OkBody<`${A}/languages`, 'post'>['language']> {
    return safeCreate(this.core.http, { ep: EP.createLanguage, call: { ...o, body }, unwrap: (b) => b?.language });
  }
}

export class Quotas extends Crud<Quota, Q<'/quotas'>, Q<'/quotas/{id}'>, Post<'/quotas'>, Put<'/quotas/{id}'>> {
  constructor(core: Core) {
    super(core, EP.quotas, 'quota', 'quotas');
  }
  /** Capacity override (or closure with `capacity: null`) of one day. */
  async setOverride(id: number, date: string, body: Put<'/quotas/{id}/overrides/{date}'>, o: WriteOptions = {}): Promise<Quota> {
    const r = await this.core.one<Quota>(EP.setOverride, 'quota', { ...o, params: { id, date }, body });
    await this.core.cache?.store.clear();
    return r;
  }
  async deleteOverride(id: number, date: string, o: WriteOptions = {}): Promise<void> {
    await this.core.http.send(EP.deleteOverride, { ...o, params: { id, date } });
    await this.core.cache?.store.clear();
  }
}

export class Meta {
  constructor(private readonly core: Core) {}
  locales(o: ReadOptions = {}): Promise<OkBody<`${A}/locales`, 'get'>['locales']> {
    return this.core.one(EP.locales, 'locales', o);
  }
  version(o: ReadOptions = {}): Promise<OkBody<`${A}/version`, 'get'>['version']> {
    return this.core.one(EP.version, 'version', o);
  }
}
