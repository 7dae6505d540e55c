// Keeps the embedded PostgreSQL running (docs/adr/0012): when the postmaster dies without being
// asked to stop (killed, out of memory, a crash), it is started again on the same port, so the
// pools' URLs stay valid, with backoff (0.5 s doubling up to 15 s). While it is down every query
// fails fast and /readyz answers 503. After MAX_ATTEMPTS failed starts in a row the supervisor gives
// up and calls onFatal: a database that cannot start needs a person, not an endless loop.
import type { Postmaster } from './embedded-process.ts';
import { stopPid } from './embedded-process.ts';

const MAX_ATTEMPTS = 20;
const BACKOFF_START_MS = 500;
const BACKOFF_MAX_MS = 15_000;
/** A postmaster that stayed up this long resets the backoff. */
const STABLE_MS = 60_000;

type State = 'ready' | 'restarting' | 'stopped' | 'failed';

const running = new Set<Postmaster>();
let exitHook = false;

/** On process exit a still-running postmaster (own process group) gets a fast shutdown request. */
function hookExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.on('exit', () => {
    for (const pm of running) pm.child.kill('SIGINT');
  });
}

export function supervise(
  first: Postmaster,
  launch: () => Promise<Postmaster>,
  log: (m: string) => void,
  onFatal?: (message: string) => void,
): { state(): State; stop(): Promise<void> } {
  hookExit();
  let current: Postmaster | undefined = first;
  let state: State = 'ready';
  let attempts = 0;
  let startedAt = Date.now();
  let timer: NodeJS.Timeout | undefined;

  const watch = (pm: Postmaster) => {
    running.add(pm);
    void pm.exited.then(() => {
      running.delete(pm);
      if (state !== 'ready' || current !== pm) return;
      current = undefined;
      if (Date.now() - startedAt > STABLE_MS) attempts = 0;
      log(`the embedded PostgreSQL exited unexpectedly (${pm.child.signalCode ?? `exit ${pm.child.exitCode}`}); restarting it`);
      state = 'restarting';
      schedule();
    });
  };

  const schedule = () => {
    if (attempts >= MAX_ATTEMPTS) {
      state = 'failed';
      onFatal?.(`the embedded PostgreSQL died and could not be started again after ${MAX_ATTEMPTS} attempts`);
      return;
    }
    const delay = Math.min(BACKOFF_START_MS * 2 ** attempts, BACKOFF_MAX_MS);
    attempts++;
    timer = setTimeout(() => {
      timer = undefined;
      launch().then(
        (pm) => {
          if (state !== 'restarting') {
            void stopPid(pm.child.pid!);
            return;
          }
          current = pm;
          state = 'ready';
          startedAt = Date.now();
          log('the embedded PostgreSQL is running again');
          watch(pm);
        },
        (e: unknown) => {
          if (state !== 'restarting') return;
          log(`restarting the embedded PostgreSQL failed: ${(e as Error).message}`);
          schedule();
        },
      );
    }, delay);
  };

  watch(first);
  return {
    state: () => state,
    stop: async () => {
      state = 'stopped';
      if (timer) clearTimeout(timer);
      const pm = current;
      current = undefined;
      if (!pm || pm.child.exitCode !== null || pm.child.signalCode !== null) return;
      await stopPid(pm.child.pid!);
      await pm.exited;
      running.delete(pm);
    },
  };
}
