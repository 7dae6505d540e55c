// Master-data rows for the booking path (tickets with their museum's zone, quota links and
// per-date overrides, event dates, tours), memoised per process. An order or an availability
// read needs the same handful of catalogue rows every time; reading them from PostgreSQL was
// most of the round trips of a booking (bench/README.md, "Booking").
//
// Correct for the same reasons as the answer cache (responses.ts): every master-data change
// bumps catalog_version and NOTIFYs at commit, which clears this cache on every node; while the
// listener is down the cache is bypassed; a value loaded while a change arrived is not stored
// (Lru gen). Capacity is still decided under the slot lock from the live allocations: a quota's
// configured size read from here is as fresh as one read from the table before the lock, which
// is when it was read before (catalogue rows were never locked by bookings).
import { Lru } from './lru.ts';

/** Entries also expire on their own (defence in depth, as the answer cache). */
const TTL_MS = 10 * 60_000;

// Implements the domain's MasterDataMemo (domain/context.ts) by shape: this layer imports no domain code.
export class MasterDataCache {
  readonly lru = new Lru<unknown>(20_000, 64 * 1024 * 1024);
  /**
   * Values given a size of their own (what a date list's condition selects, db/repositories/catalog/datesPages.ts; a
   * list's total per condition, db/repositories/catalog/pages.ts#counted) are bounded apart: a flood of distinct
   * searches or filters cannot push the booking path's rows out.
   */
  readonly sized = new Lru<unknown>(5_000, 32 * 1024 * 1024);
  hits = 0;
  misses = 0;

  constructor(private isLive: () => boolean) {}

  get keeping(): boolean {
    return this.isLive();
  }

  async memo<T>(key: string, load: () => Promise<T>, bytes?: (value: T) => number): Promise<T> {
    if (!this.isLive()) return load();
    const now = Date.now();
    const store = bytes ? this.sized : this.lru;
    const hit = store.get(key, now);
    if (hit !== undefined) {
      this.hits++;
      return hit as T;
    }
    this.misses++;
    const gen = store.gen;
    const value = await load();
    // Without `bytes` the size is a rough estimate: small rows, where the entry bound does the real work.
    if (this.isLive()) store.set(key, value, bytes ? key.length + bytes(value) : 512, now + TTL_MS, gen);
    return value;
  }

  clear(): void {
    this.lru.clear();
    this.sized.clear();
  }
}
