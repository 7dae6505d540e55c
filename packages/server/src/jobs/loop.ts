// The polling loop the dispatchers share (dispatch.ts: document renders; events.ts: the outbox
// fan-out): `once` runs at start, then one interval after each run ends; poke() runs it at once,
// and a poke while it runs makes it run again right after. An error (a database outage) is
// reported and the next tick tries again. stop() waits for a run in flight.
export interface Loop {
  poke(): void;
  stop(): Promise<void>;
}

export function pollLoop(once: (stopped: () => boolean) => Promise<void>, opts: { intervalMs: number; onError?: ((err: unknown) => void) | undefined }): Loop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let again = false;
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = once(() => stopped)
      .catch((err) => opts.onError?.(err))
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
