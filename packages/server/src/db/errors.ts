// The one database-error mapper. Every place that must tell a PostgreSQL error apart asks here,
// by name, instead of comparing SQLSTATE strings of its own. Custom codes are raised by the
// functions under db/sql/ (`raise ... using errcode = 'AT001'`).
import { sqlState } from './sqlstate.ts';

/** The SQLSTATEs Atrium's own functions raise, by name. */
export const CUSTOM_SQLSTATE = {
  /** capacity_claim: not enough places left in a slot. */
  SOLD_OUT: 'AT001',
  /** capacity_claim: a slot's lock could not be had without waiting (group commit falls back). */
  LOCK_BUSY: 'AT002',
  /** capacity_claim: the slot is outside opening hours or closed. */
  CLOSED: 'AT003',
} as const;

/** PostgreSQL's own SQLSTATEs that the application reacts to, by name. */
export const PG_SQLSTATE = {
  UNIQUE_VIOLATION: '23505',
  FOREIGN_KEY_VIOLATION: '23503',
  CHECK_VIOLATION: '23514',
  LOCK_NOT_AVAILABLE: '55P03',
  SERIALIZATION_FAILURE: '40001',
  DEADLOCK_DETECTED: '40P01',
  DISK_FULL: '53100',
  UNTRANSLATABLE_CHARACTER: '22P05',
  CHARACTER_NOT_IN_REPERTOIRE: '22021',
  RAISE_EXCEPTION: 'P0001',
} as const;

export type DbErrorKind =
  | keyof typeof CUSTOM_SQLSTATE
  | keyof typeof PG_SQLSTATE;

const KIND_BY_STATE = new Map<string, DbErrorKind>([
  ...Object.entries(CUSTOM_SQLSTATE).map(([k, v]) => [v, k as DbErrorKind] as const),
  ...Object.entries(PG_SQLSTATE).map(([k, v]) => [v, k as DbErrorKind] as const),
]);

export interface DbErrorInfo {
  kind: DbErrorKind | 'OTHER';
  state: string;
  /** The violated constraint's name, for unique and check violations. */
  constraint?: string;
  /** The table of a violated constraint, when the server names one. */
  table?: string;
  message: string;
}

/**
 * What a thrown value is, as far as the database is concerned: `undefined` for anything that is
 * not a PostgreSQL error (a lost connection, a bug), whose outcome is unknown to the caller.
 * Drizzle wraps driver errors; the driver's error is then found through `cause`.
 */
export function dbError(err: unknown): DbErrorInfo | undefined {
  const state = sqlState(err);
  if (!state) return undefined;
  let pgErr: { code?: unknown; constraint?: unknown; table?: unknown; message?: unknown } | undefined;
  for (let e: unknown = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    if ((e as { code?: unknown }).code === state) { pgErr = e as typeof pgErr; break; }
  }
  return {
    kind: KIND_BY_STATE.get(state) ?? 'OTHER',
    state,
    constraint: typeof pgErr?.constraint === 'string' ? pgErr.constraint : undefined,
    table: typeof pgErr?.table === 'string' ? pgErr.table : undefined,
    message: typeof pgErr?.message === 'string' ? pgErr.message : '',
  };
}

/** Whether `err` is a PostgreSQL error of `kind` (and, when given, on `constraint`). */
export function isDbError(err: unknown, kind: DbErrorKind, constraint?: string): boolean {
  const info = dbError(err);
  return info?.kind === kind && (constraint === undefined || info.constraint === constraint);
}
