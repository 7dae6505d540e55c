// graphile-worker's logger bridged to pino (or silenced): its console logger would bypass our
// structured logs and print on every test run.
import { Logger } from 'graphile-worker';

interface PinoLike {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export function workerLogger(log: PinoLike | undefined): Logger {
  return new Logger((scope) => (level, message, meta) => {
    if (!log) return;
    const obj = { worker: scope, ...(meta ?? {}) };
    const l = level as string;
    if (l === 'error') log.error(obj, message);
    else if (l === 'warning') log.warn(obj, message);
    else if (l === 'info') log.info(obj, message);
    else log.debug(obj, message);
  });
}

export const quietLogger = () => workerLogger(undefined);
