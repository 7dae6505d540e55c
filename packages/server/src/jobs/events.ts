// Runs the outbox fan-out (notify/dispatch.ts) beside the job worker, as dispatch.ts does for
// document renders: a committed event is picked up by whichever node's loop runs next (SKIP
// LOCKED), at the latest one interval after its commit, and after a restart by the first tick.
// poke() dispatches at once (tests; a process that just wrote events). Cost when idle: one probe
// of the partial index outbox_events_pending per interval.
import type { Ctx } from '../domain/context.ts';
import { DISPATCH_BATCH, dispatchEvents } from '../notify/dispatch.ts';
import { pollLoop, type Loop } from './loop.ts';

export type EventDispatcher = Loop;

export function startEventDispatcher(ctx: Ctx, opts: { intervalMs: number; onError?: (err: unknown) => void }): EventDispatcher {
  // Bounded: a backlog is worked off in full batches, at most 50 per tick, then the timer.
  return pollLoop(async (stopped) => {
    for (let i = 0; i < 50 && !stopped(); i++) {
      if ((await dispatchEvents(ctx)) < DISPATCH_BATCH) return;
    }
  }, opts);
}
