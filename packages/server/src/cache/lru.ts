// A small LRU map bounded by entry count and by total size (a flood of distinct queries or
// tokens evicts old entries; it never grows memory without bound). `gen` counts invalidations:
// a value computed while an invalidation happened must not be stored (see `set`).
const MOVE_EVERY_MS = 1000;

export class Lru<V> {
  private map = new Map<string, { value: V; size: number; expires: number; moved: number }>();
  private bytes = 0;
  gen = 0;

  constructor(
    private maxEntries: number,
    private maxBytes: number,
  ) {}

  get(key: string, now: number): V | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.expires <= now) {
      this.delete(key);
      return undefined;
    }
    // Re-insert: Map keeps insertion order, so the first key is the least recently used. At most
    // once per MOVE_EVERY_MS per entry: a busy list reads the same 25 row fragments thousands of
    // times a second, and moving each on every read was most of a lookup's cost in
    // profiles; which of two entries read within the same second goes first does not matter.
    if (now - e.moved >= MOVE_EVERY_MS) {
      e.moved = now;
      this.map.delete(key);
      this.map.set(key, e);
    }
    return e.value;
  }

  /** Stores unless the cache was cleared since `gen` was read (the value may predate a change). */
  set(key: string, value: V, size: number, expires: number, gen: number): void {
    if (gen !== this.gen || size > this.maxBytes / 4) return;
    this.delete(key);
    this.map.set(key, { value, size, expires, moved: 0 });
    this.bytes += size;
    for (const k of this.map.keys()) {
      if (this.map.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.delete(k);
    }
  }

  clear(): void {
    this.gen++;
    this.map.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.map.size;
  }

  private delete(key: string) {
    const e = this.map.get(key);
    if (!e) return;
    this.bytes -= e.size;
    this.map.delete(key);
  }
}
