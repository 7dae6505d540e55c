// Identical reads that arrive while one is running share the NEXT run, never the running one.
// Availability is read far more often than it changes, and an on-sale sends many identical
// requests at once (same ticket, same date): without this, each is its own query; with it, one
// query serves everyone who arrived while the previous one ran.
//
// Why not share the running query: it may have started before a caller's own booking committed,
// and a client that books and then reads must see its booking (read-your-writes). A run that
// starts after the caller arrived reflects every commit the caller could have seen, so every
// answer is as fresh as an unshared query started at arrival would be, only slightly later (at
// most one run's duration). This is not a cache: nothing outlives its run.
export class Coalescer<T> {
  private runs = new Map<string, { running: Promise<T>; next?: Promise<T> }>();

  run(key: string, work: () => Promise<T>): Promise<T> {
    const entry = this.runs.get(key);
    if (!entry) return this.start(key, work);
    // Queue one run after the current one; later arrivals join it until it starts.
    entry.next ??= entry.running.then(
      () => this.startQueued(key, work),
      () => this.startQueued(key, work),
    );
    return entry.next;
  }

  /** Keys with a run in flight (for tests and metrics). */
  get size(): number {
    return this.runs.size;
  }

  private start(key: string, work: () => Promise<T>): Promise<T> {
    const running = work().finally(() => {
      const e = this.runs.get(key);
      if (e && e.running === running && !e.next) this.runs.delete(key);
    });
    this.runs.set(key, { running });
    return running;
  }

  private startQueued(key: string, work: () => Promise<T>): Promise<T> {
    // This run becomes the current one; new arrivals queue behind it.
    this.runs.delete(key);
    return this.start(key, work);
  }
}
