// Museums: create and update (staff). A token limited to some museums may change those, but may
// not create new ones: a new museum would be outside its own scope at once.
import { insertMuseum, lockMuseum, updateMuseum } from '../../db/repositories/catalog/places.ts';
import type { WeeklyHours } from '../../db/schema/index.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { forbidden, notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { toTranslated, type TextInput } from './checks.ts';
import { museumRules } from './rules.ts';
import { museumView, type View } from './views.ts';
import { assertStaff, defined, failIfAny, writeView } from './writeSupport.ts';

export interface MuseumInput {
  title?: TextInput;
  sub_title?: TextInput | null;
  description?: TextInput | null;
  time_zone?: string;
  location?: object | null;
  /** Monday first; each `[open, close]` minutes or null (checked by museumRules). */
  opening_hours?: Array<number[] | null>;
  opening_exceptions?: Record<string, number[] | null>;
}

function values(ctx: Ctx, m: MuseumInput) {
  return {
    title: toTranslated(ctx.config, m.title!),
    subTitle: toTranslated(ctx.config, m.sub_title),
    description: toTranslated(ctx.config, m.description),
    timeZone: m.time_zone!,
    location: (m.location ?? null) as Record<string, unknown> | null,
    openingHours: m.opening_hours as WeeklyHours,
    openingExceptions: m.opening_exceptions as Record<string, [number, number] | null>,
  };
}

export async function saveMuseum(ctx: Ctx, input: MuseumInput & { id?: number }): Promise<View> {
  assertStaff(ctx);
  const { id, ...changes } = input;
  const row = await transaction(ctx.db, async (tx) => {
    if (id === undefined) {
      if (ctx.principal.museumIds.length > 0) throw forbidden('a token limited to some museums may not create museums');
      const m: MuseumInput = { sub_title: null, description: null, time_zone: ctx.config.zone, location: null, opening_exceptions: {}, ...defined(changes) };
      failIfAny('museum', museumRules(ctx.config, m as Record<string, unknown>));
      return insertMuseum(tx, values(ctx, m));
    }
    const cur = await lockMuseum(tx, id);
    if (!cur || !inMuseumScope(ctx.principal, cur.id)) throw notFound('museum');
    const m: MuseumInput = {
      title: cur.title, sub_title: cur.subTitle, description: cur.description, time_zone: cur.timeZone, location: cur.location,
      opening_hours: cur.openingHours, opening_exceptions: cur.openingExceptions, ...defined(changes),
    };
    failIfAny('museum', museumRules(ctx.config, m as Record<string, unknown>));
    return updateMuseum(tx, id, { ...values(ctx, m), updatedAt: ctx.clock.now() });
  });
  return museumView(ctx.principal, row, writeView(ctx).L);
}
