// The clock of a running server follows the database's clock. Holds and pending orders expire by
// time, and several nodes decide about the same rows: a claim on one node counts a hold as live
// or lapsed, the sweep on another releases it, a finalize checks it. Were each node to use its
// own clock, one whose clock runs ahead would treat the others' holds as lapsed before they are
// (and sell their places, or sweep them); one that runs behind would keep lapsed ones. With one
// time base, the database's, every node decides the same. The clock reads the local time plus an
// offset measured against the database at start and again every minute (in the background, on
// the first reading after it is due), so asking the time costs no round trip.
//
// Tests keep their ManualClock (ctx.clock): this clock is only the default of a running server.
import type { DbOrTx } from '../../db/client.ts';
import { databaseNow } from '../../db/repositories/capacity.ts';
import type { Clock } from '../clock.ts';

const REFRESH_MS = 60_000;
/** Readings per measurement, of which the one with the shortest round trip counts. */
const SAMPLES = 3;

export class DatabaseClock implements Clock {
  private offset = 0;
  private measuredAt = Number.NEGATIVE_INFINITY;
  private measuring: Promise<void> | null = null;

  /**
   * `local`: the node's own clock in ms (replaceable to simulate a node whose clock is off);
   * `samples`: readings per measurement.
   */
  constructor(
    private readonly db: DbOrTx,
    private readonly local: () => number = Date.now,
    private readonly samples = SAMPLES,
  ) {}

  /**
   * Measures the offset to the database's clock. The database read its clock somewhere within
   * the round trip, so the middle of the round trip is wrong by at most half of it. On a busy
   * process one round trip can take long (the answer waits behind other work), and an offset
   * measured then would put this node's clock behind or ahead by that much: of a few readings,
   * the one with the shortest round trip is kept, as NTP does.
   */
  async sync(): Promise<void> {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < this.samples; i++) {
      const before = this.local();
      const db = (await databaseNow(this.db)).getTime();
      const after = this.local();
      if (after - before < best) {
        best = after - before;
        this.offset = db - (before + after) / 2;
        this.measuredAt = after;
      }
      if (best <= 1) break;
    }
  }

  now(): Date {
    const t = this.local();
    if (t - this.measuredAt > REFRESH_MS && this.measuring === null) {
      // A failed measurement (database away for a moment) keeps the last offset.
      this.measuring = this.sync()
        .catch(() => {})
        .finally(() => {
          this.measuring = null;
        });
    }
    return new Date(t + this.offset);
  }
}

/** A clock that follows the database's, measured once before it is returned. */
export async function databaseClock(db: DbOrTx, local?: () => number): Promise<DatabaseClock> {
  const clock = new DatabaseClock(db, local);
  await clock.sync();
  return clock;
}
