// Shared steps of the staff write verbs: input merging, museum scope, failing with all messages.
import type { DbOrTx } from '../../db/client.ts';
import { museumById } from '../../db/repositories/catalog/records.ts';
import type { Ctx } from '../context.ts';
import { forbidden, invalid, notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { localDateOf } from '../time.ts';
import { resolveLocale, type LocaleMode } from './internal.ts';

/** Drops keys whose value is undefined, so a partial update keeps the stored values. */
export function defined<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The caller must be a user (the HTTP layer checks `catalog:write`; this guards other callers). */
export function assertStaff(ctx: Ctx): void {
  const p = ctx.principal;
  if (p.kind !== 'account' || p.access !== 'user') throw forbidden('only user tokens may change the catalogue');
}

export function failIfAny(thing: string, problems: string[]): void {
  if (problems.length > 0) throw invalid(`${thing} could not be saved`, problems);
}

/** A museum the caller may write to; others are "not found" (never reveal existence). */
export async function writableMuseum(ctx: Ctx, db: DbOrTx, id: unknown) {
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > 2_147_483_647) {
    throw invalid('museum_id is required', ['museum_id must be a museum id']);
  }
  const m = await museumById(db, id);
  if (!m || !inMuseumScope(ctx.principal, m.id)) throw notFound('museum');
  return m;
}

/** Write answers are rendered in the default locale, as on a plain GET. */
export function writeView(ctx: Ctx): { L: LocaleMode; today: string } {
  return { L: resolveLocale(ctx, undefined), today: localDateOf(ctx.clock.now(), ctx.config.zone) };
}
