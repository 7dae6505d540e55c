// A catalogue resource (museums, exhibitions, tickets, events, tours, quotas): cached reads of
// master data (spec 1.3), and the staff writes. Writes drop the cache so the writer sees its change.
import type { Core, ReadOptions } from '../core.ts';
import { endpoint, type Endpoint } from '../endpoints.ts';
import { safeCreate } from '../safe.ts';
import type { List } from '../types.ts';

export interface WriteOptions {
  correlationId?: string;
}

export function catalogueEndpoints(base: string, opts: { cache?: 'master' | 'live' } = { cache: 'master' }) {
  return {
    list: endpoint('GET', base, opts),
    get: endpoint('GET', `${base}/{id}`, opts),
    create: endpoint('POST', base),
    update: endpoint('PUT', `${base}/{id}`),
  };
}

export class Crud<T, ListQuery, GetQuery, CreateBody, UpdateBody> {
  constructor(
    protected readonly core: Core,
    protected readonly eps: { list: Endpoint; get: Endpoint; create: Endpoint; update: Endpoint },
    protected readonly singular: string,
    protected readonly plural: string,
  ) {}

  /** One page of records (`.meta` has total_count, page, per_page). */
  list(query?: ListQuery, o: ReadOptions = {}): Promise<List<T>> {
    return this.core.list<T>(this.eps.list, this.plural, { ...o, ...(query ? { query } : {}) });
  }

  /** Every record, page after page (`for await (const x of client.tickets.all())`). */
  all(query?: ListQuery, o: ReadOptions = {}): AsyncGenerator<T> {
    return this.core.all<T>(this.eps.list, this.plural, { ...o, ...(query ? { query } : {}) });
  }

  get(id: number, query?: GetQuery, o: ReadOptions = {}): Promise<T> {
    return this.core.one<T>(this.eps.get, this.singular, { ...o, params: { id }, ...(query ? { query } : {}) });
  }

  /** Staff only. A POST: never resent after an ambiguous failure (OutcomeUnknownError instead). */
  async create(body: CreateBody, o: WriteOptions = {}): Promise<T> {
    const record = await safeCreate<T>(this.core.http, {
      ep: this.eps.create,
      call: { body, ...o },
      unwrap: (b) => b?.[this.singular],
    });
    await this.core.cache?.store.clear();
    return record;
  }

  /** Staff only. A PUT: safe to repeat, so resent after 5xx and network errors. */
  async update(id: number, body: UpdateBody, o: WriteOptions = {}): Promise<T> {
    const record = await this.core.one<T>(this.eps.update, this.singular, { ...o, params: { id }, body });
    await this.core.cache?.store.clear();
    return record;
  }
}
