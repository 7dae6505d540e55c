// Runs the outbox fan-out (notify/dispatch.ts) beside the job worker, as dispatch.ts does for
// document renders: a committed event is picked up by whichever node's loop runs next (SKIP
// LOCKED), at the latest one interval after its commit, and after a restart by the first tick.
// poke() dispatches at once (tests; a process that just wrote events). Cost when idle: one probe
// of the partial index outbox_events_pending per interval.
import type { Ctx } from '../domain/context.ts';
import { DISPATCH_BATCH, dispatchEvents } from '../notify/dispatch.ts';

export interface EventDispatcher {
  poke(): void;
  stop(): Promise<void>;
}

export function startEventDispatcher(ctx: Ctx, opts: { intervalMs: number; onError?: (err: unknown) => void }): EventDispatcher {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let again = false;

  const once = async () => {
    // Bounded: a backlog is worked off in full batches, at most 50 per tick, then the timer.
    for (let i = 0; i < 50 && !stopped; i++) {
      if ((await dispatchEvents(ctx)) < DISPATCH_BATCH) return;
    }
  };
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true; // a poke during a run: run once more right after it
      return;
    }
    clearTimeout(timer);
    running = once()
      .catch((err) => opts.onError?.(err)) // a database outage: the next tick tries again
      .finally(() => {
        running = undefined;
        if (stopped) return;
        timer = setTimeout(tick, again ? 0 : opts.intervalMs);
        again = false;
      });
  };
  timer = setTimeout(tick, 0);
  return {
    poke: tick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
