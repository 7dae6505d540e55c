// Master-data cache (spec 1.3): catalogue answers are kept (in memory by default, or in any store
// implementing CacheStore: a file, Redis …) and reused until they are older than `maxAgeMs`
// (default one day); then they are revalidated with If-None-Match, so an unchanged catalogue costs
// a 304 and no body. Availability is never cached. Entries are keyed by a hash of the token as
// well as the URL because answers are context-aware (spec 1): two tokens never share an entry.
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

/** A per-token prefix for cache keys: a SHA-256 of the token (Web Crypto, so it runs in browsers and edge runtimes too). */
export async function tokenKey(token: string | undefined): Promise<string> {
  if (!token) return 'anonymous';
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  let hex = '';
  for (const b of digest.subarray(0, 12)) hex += b.toString(16).padStart(2, '0');
  return hex;
}

export function cacheKey(who: string, url: string): string {
  return `${who} ${url}`;
}
