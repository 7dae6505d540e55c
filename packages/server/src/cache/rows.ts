// Per-row JSON of catalogue lists, per process (docs/adr/0022-catalogue-read-path.md):
// the store behind domain/catalog/fragments.ts. It sits under the answer cache (responses.ts):
// an answer-cache miss (a new filter, a search, another page, the first read after an edit)
// assembles its answer from these instead of reading and rendering every row again.
//
// Correctness does not rest on notifications: a fragment's key holds the row's version (xmin)
// and every related value its JSON shows, so an edited row is simply a new key, and an edit of
// one ticket leaves every other ticket's JSON in use. The store is still cleared whenever the
// change listener resets (connection lost or re-established, a missed notification): a database
// restored from a backup could hand out the same row versions again. While the listener is down
// it is not used at all, like every other cache here. Entries expire after TTL_MS, and the store
// is bounded by count and bytes (lru.ts).
import { Lru } from './lru.ts';

const TTL_MS = 10 * 60_000;

// Implements the domain's RowFragments (domain/catalog/fragments.ts) by shape: this layer imports no
// domain code.
export class RowCache {
  readonly lru = new Lru<string>(100_000, 64 * 1024 * 1024);
  hits = 0;
  misses = 0;

  constructor(private isLive: () => boolean) {}

  /** This store, when it may be used now (the change listener is connected). */
  usable(): RowCache | undefined {
    return this.isLive() ? this : undefined;
  }

  get gen(): number {
    return this.lru.gen;
  }

  get(key: string, now: number): string | undefined {
    const v = this.lru.get(key, now);
    if (v === undefined) this.misses++;
    else this.hits++;
    return v;
  }

  set(key: string, json: string, now: number, gen: number): void {
    if (this.isLive()) this.lru.set(key, json, key.length + json.length, now + TTL_MS, gen);
  }

  clear(): void {
    this.lru.clear();
  }
}
