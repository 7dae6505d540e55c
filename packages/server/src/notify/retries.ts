// Writing down an outcome that is already known (a webhook answered, a mail accepted by the SMTP
// server), retried instead of thrown: if the write were lost to a passing database error, the
// queue would run the job again and send the same thing twice.

/** Runs `work`, and again after each of `waitsMs` while it throws; the last error is thrown. */
export async function withRetries<T>(work: () => Promise<T>, waitsMs: readonly number[] = [250, 1000, 3000]): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await work();
    } catch (err) {
      if (i >= waitsMs.length) throw err;
      await new Promise((r) => setTimeout(r, waitsMs[i]));
    }
  }
}

/**
 * Waits that outlast a database restart (about two minutes in all): a mail accepted by the SMTP
 * server cannot be taken back, so its record waits for the database rather than give up.
 */
export const OUTAGE_WAITS_MS: readonly number[] = [250, 500, 1000, 2000, 4000, ...Array<number>(23).fill(5000)];
