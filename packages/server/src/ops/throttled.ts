// What the Redis client and the counter store share without loading the Redis client itself:
// the log they write to and the once-per-interval warning of an outage.
export interface RedisLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** Logs at most one line per `everyMs` for a recurring condition (an outage is one message, not thousands). */
export function throttled(everyMs: number) {
  let last = 0;
  return (fn: () => void) => {
    const now = Date.now();
    if (now - last >= everyMs) {
      last = now;
      fn();
    }
  };
}
