// graphile-worker's logger bridged to pino (or silenced): its console logger would bypass our
// structured logs and print on every test run. Its lines carry the job row (payload, last_error)
// and raw errors, whose Drizzle message and `params` hold a statement's bound values (an e-mail,
// a foreign_id): the meta is reduced to names and ids, errors go through the log allow-list
// (ops/log-safety.ts), and a message that quotes an error loses its parameters.
import { Logger } from 'graphile-worker';
import { safeError } from '../ops/log-safety.ts';

interface PinoLike {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

/** A log message without the bound parameters or NUL characters an error text may carry. */
export function cleanLogText(message: string): string {
  const m = message.replace(/params:[\s\S]*?(?=\n\s*at |$)/gi, 'params: …').replace(/\u0000/g, '');
  return m.length > 2000 ? `${m.slice(0, 2000)}…` : m;
}

function cleanMeta(meta: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta ?? {})) {
    if (v instanceof Error || k === 'error' || k === 'err') out.err = safeError(v);
    else if (k === 'job' && v && typeof v === 'object') {
      const j = v as Record<string, unknown>;
      out.job = { id: j.id, task: j.task_identifier, attempts: j.attempts, max_attempts: j.max_attempts };
    } else if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = typeof v === 'string' ? cleanLogText(v) : v;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')) out[k] = v;
  }
  return out;
}

export function workerLogger(log: PinoLike | undefined): Logger {
  return new Logger((scope) => (level, message, meta) => {
    if (!log) return;
    const obj = { worker: scope, ...cleanMeta(meta as Record<string, unknown> | undefined) };
    const text = cleanLogText(message);
    const l = level as string;
    if (l === 'error') log.error(obj, text);
    else if (l === 'warning') log.warn(obj, text);
    else if (l === 'info') log.info(obj, text);
    else log.debug(obj, text);
  });
}

export const quietLogger = () => workerLogger(undefined);
