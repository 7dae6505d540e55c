// What every resource uses: cached reads of master data, list unwrapping with `meta`, the paging
// iterator, and bounded concurrency for batches.
import { cacheKey, tokenKey, type CacheStore } from './cache.ts';
import { fillPath, toQuery, type Endpoint } from './endpoints.ts';
import type { Answer, CallOptions, Transport } from './http.ts';
import type { List, ListMeta } from './types.ts';

export interface ReadOptions {
  /** Master data only: skip the cached copy and revalidate with the server now (ETag, so cheap). */
  refresh?: boolean;
  correlationId?: string;
  /** Overrides the client's attempt bound for this call. */
  maxAttempts?: number;
}

export interface CacheSettings {
  store: CacheStore;
  maxAgeMs: number;
}

export class Core {
  #who: Promise<string> | undefined;
  constructor(
    readonly http: Transport,
    readonly cache: CacheSettings | null,
    readonly token: string | undefined,
    readonly concurrency: number,
    readonly now: () => number,
  ) {}

  /** A JSON answer's body; master data through the cache (fresh for maxAge, then revalidated). */
  async json(ep: Endpoint, c: CallOptions & ReadOptions = {}): Promise<any> {
    if (ep.method !== 'GET' || ep.cache !== 'master' || !this.cache) return (await this.http.send(ep, c)).body;
    this.#who ??= tokenKey(this.token);
    const key = cacheKey(await this.#who, fillPath(ep.template, c.params) + toQuery(c.query));
    const { store, maxAgeMs } = this.cache;
    const cached = await store.get(key);
    if (cached && !c.refresh && this.now() - cached.storedAt < maxAgeMs) return cached.body;
    const headers = cached?.etag ? { ...c.headers, 'if-none-match': cached.etag } : c.headers;
    const res: Answer = await this.http.send(ep, { ...c, ...(headers ? { headers } : {}) });
    if (res.status === 304 && cached) {
      await store.set(key, { ...cached, storedAt: this.now() });
      return cached.body;
    }
    const cc = res.headers.get('cache-control') ?? '';
    if (res.status === 200 && res.body !== undefined && !/no-store/i.test(cc)) {
      await store.set(key, { etag: res.headers.get('etag'), body: res.body, storedAt: this.now() });
    }
    return res.body;
  }

  /** The record inside a `{"<singular>": {...}}` envelope. */
  async one<T>(ep: Endpoint, key: string, c: CallOptions & ReadOptions = {}): Promise<T> {
    const body = await this.json(ep, c);
    return (body && typeof body === 'object' && key in body ? body[key] : body) as T;
  }

  /** The records of a `{"<plural>": [...], "meta": {...}}` envelope, as an array with `meta`. */
  async list<T>(ep: Endpoint, key: string, c: CallOptions & ReadOptions = {}): Promise<List<T>> {
    return toList<T>(await this.json(ep, c), key, c.query);
  }

  /**
   * Every record of a list, page by page. Stops at page ceil(total_count / per_page) as the server
   * states them, or earlier at an empty page: fewer records than announced are not an error.
   */
  async *all<T>(ep: Endpoint, key: string, c: CallOptions & ReadOptions = {}): AsyncGenerator<T> {
    const q = { ...(c.query as Record<string, unknown> | undefined) };
    let page = typeof q.page === 'number' ? q.page : 1;
    for (;;) {
      const records = await this.list<T>(ep, key, { ...c, query: { ...q, page } });
      yield* records;
      const per = records.meta.per_page > 0 ? records.meta.per_page : records.length;
      const last = per > 0 ? Math.ceil(records.meta.total_count / per) : page;
      if (records.length === 0 || page >= last) return;
      page += 1;
    }
  }

  /** Runs `fn` over `items` with at most `limit` calls in flight (spec 8.2: moderate concurrency). */
  async batch<I, O>(items: readonly I[], fn: (item: I, index: number) => Promise<O>, limit = this.concurrency): Promise<O[]> {
    const out = new Array<O>(items.length);
    let next = 0;
    let failed = false;
    const worker = async () => {
      while (next < items.length && !failed) {
        const i = next++;
        try {
          out[i] = await fn(items[i]!, i);
        } catch (e) {
          failed = true; // start nothing new once one call failed; the first error is reported
          throw e;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
    return out;
  }
}

export function toList<T>(body: any, key: string, query?: object): List<T> {
  const records: T[] = Array.isArray(body?.[key]) ? [...body[key]] : [];
  const q = (query ?? {}) as Record<string, unknown>;
  const m = body?.meta;
  const meta: ListMeta = {
    total_count: typeof m?.total_count === 'number' ? m.total_count : records.length,
    page: typeof m?.page === 'number' ? m.page : typeof q.page === 'number' ? q.page : 1,
    per_page: typeof m?.per_page === 'number' ? m.per_page : records.length,
  };
  return Object.assign(records, { meta });
}
