// Guessing manage links is pointless (256 random bits), but each wrong guess still costs a
// lookup: an address with too many unknown links in a window gets 429 pages until it ends.
// Per process, in memory; bounded so a flood of addresses cannot grow it without end.
const MAX_KEYS = 50_000;

export class MissLimiter {
  private windows = new Map<string, { misses: number; resetAt: number }>();
  constructor(private readonly max: number, private readonly windowMs: number) {}

  /** Seconds to wait when `key` is over its budget, else null. */
  blocked(key: string, now = Date.now()): number | null {
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now || w.misses < this.max) return null;
    return Math.max(1, Math.ceil((w.resetAt - now) / 1000));
  }

  miss(key: string, now = Date.now()): void {
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      if (!w && this.windows.size >= MAX_KEYS) {
        for (const [k, v] of this.windows) if (v.resetAt <= now) this.windows.delete(k);
        if (this.windows.size >= MAX_KEYS) this.windows.clear();
      }
      w = { misses: 0, resetAt: now + this.windowMs };
      this.windows.set(key, w);
    }
    w.misses += 1;
  }
}
