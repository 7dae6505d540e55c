// Master-data cache (spec 1.3): catalogue answers are kept (in memory by default, or in any store
// implementing CacheStore: a file, Redis …) and reused until they are older than `maxAgeMs`
// (default one day); then they are revalidated with If-None-Match, so an unchanged catalogue costs
// a 304 and no body. Availability is never cached. Entries are keyed by a hash of the token as
// well as the URL because answers are context-aware (spec 1): two tokens never share an entry.
import { createHash } from 'node:crypto';

export interface CacheEntry {
  etag: string | null;
  body: unknown;
  /** Epoch ms of the last time the server confirmed this body (200 or 304). */
  storedAt: number;
}

/** A pluggable store; methods may be sync or async. */
export interface CacheStore {
  get(key: string): CacheEntry | undefined | Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): void | Promise<void>;
  delete(key: string): void | Promise<void>;
  clear(): void | Promise<void>;
}

/** The default store: a bounded in-memory map (oldest entries go first). */
export class MemoryStore implements CacheStore {
  private readonly map = new Map<string, CacheEntry>();
  constructor(private readonly maxEntries = 5000) {}
  get(key: string) {
    return this.map.get(key);
  }
  set(key: string, entry: CacheEntry) {
    this.map.delete(key);
    this.map.set(key, entry);
    while (this.map.size > this.maxEntries) this.map.delete(this.map.keys().next().value as string);
  }
  delete(key: string) {
    this.map.delete(key);
  }
  clear() {
    this.map.clear();
  }
  get size() {
    return this.map.size;
  }
}

export function cacheKey(token: string | undefined, url: string): string {
  const who = token ? createHash('sha256').update(token).digest('base64url').slice(0, 16) : 'anonymous';
  return `${who} ${url}`;
}
