// What a failed job leaves behind: graphile-worker stores the thrown error's message in the job's
// `last_error` and logs it. Drizzle's message carries the failed statement's bound parameters
// ("Failed query: …\nparams: …"): a document's PDF bytes with NUL characters, which PostgreSQL
// cannot store in text (the failure to record the failure then stopped the whole runner), or a
// customer's e-mail and foreign_id, which must not reach a log. So every task's error is replaced
// by a clean one: the message without parameters or values, the SQLSTATE, no NUL, bounded.
import type { Task, TaskList } from 'graphile-worker';
import { safeError } from '../ops/log-safety.ts';

/** Longest message stored as a job's `last_error`. */
export const MAX_JOB_ERROR = 500;

/** A job error's storable text: message (values cut) and code, no control characters, bounded. */
export function jobErrorText(err: unknown): string {
  const e = safeError(err);
  let text = e.message;
  if (typeof e.statement === 'string') text += ` (${e.statement})`;
  if (typeof e.code === 'string' || typeof e.code === 'number') text += ` [${e.code}]`;
  const cause = e.cause as { message?: string; code?: unknown } | undefined;
  if (cause?.message) text += `; cause: ${cause.message}${typeof cause.code === 'string' ? ` [${cause.code}]` : ''}`;
  // Any line after the first could still hold a value a driver put there; NUL is refused by text.
  text = text.replace(/params:[\s\S]*$/i, 'params: …').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ');
  return text.length > MAX_JOB_ERROR ? `${text.slice(0, MAX_JOB_ERROR)}…` : text;
}

/** A job's failure as graphile-worker sees it: the clean text, the code, no stack of values. */
export class JobError extends Error {
  readonly code: string | undefined;
  constructor(err: unknown) {
    super(jobErrorText(err));
    this.name = 'JobError';
    const code = (err as { code?: unknown } | null)?.code;
    this.code = typeof code === 'string' ? code : undefined;
    // The original stack's first line repeats the raw message: keep only the frames.
    const frames = typeof (err as Error | null)?.stack === 'string' ? (err as Error).stack!.split('\n').filter((l) => /^\s+at /.test(l)).slice(0, 12) : [];
    this.stack = [`JobError: ${this.message}`, ...frames].join('\n');
  }
}

/** Every task of the list, its thrown errors replaced by JobErrors. */
export function cleanErrors(tasks: TaskList): TaskList {
  const out: TaskList = {};
  for (const [name, task] of Object.entries(tasks)) {
    if (!task) continue;
    const wrapped: Task = async (payload, helpers) => {
      try {
        return await (task as Task)(payload, helpers);
      } catch (err) {
        throw new JobError(err);
      }
    };
    out[name] = wrapped;
  }
  return out;
}
