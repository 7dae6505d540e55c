// Exhibitions: create and update (staff), inside the caller's museum scope.
import { insertExhibition, lockExhibition, updateExhibition } from '../../db/repositories/catalog/places.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { toTranslated, type TextInput } from './checks.ts';
import { exhibitionRules } from './rules.ts';
import { exhibitionView, type View } from './views.ts';
import { assertStaff, defined, failIfAny, writableMuseum, writeView } from './writeSupport.ts';

export interface ExhibitionInput {
  museum_id?: number;
  title?: TextInput;
  sub_title?: TextInput | null;
  description?: TextInput | null;
  featured?: boolean;
  time_frames?: Array<{ start_at: string; end_at: string }>;
}

export async function saveExhibition(ctx: Ctx, input: ExhibitionInput & { id?: number }): Promise<View> {
  assertStaff(ctx);
  const { id, ...changes } = input;
  const row = await transaction(ctx.db, async (tx) => {
    let x: ExhibitionInput = { sub_title: null, description: null, featured: false, time_frames: [] };
    if (id !== undefined) {
      const cur = await lockExhibition(tx, id);
      if (!cur || !inMuseumScope(ctx.principal, cur.museumId)) throw notFound('exhibition');
      x = { museum_id: cur.museumId, title: cur.title, sub_title: cur.subTitle, description: cur.description, featured: cur.featured, time_frames: cur.timeFrames };
    }
    x = { ...x, ...defined(changes) };
    await writableMuseum(ctx, tx, x.museum_id);
    failIfAny('exhibition', exhibitionRules(ctx.config, x as Record<string, unknown>));
    const v = {
      museumId: x.museum_id!, title: toTranslated(ctx.config, x.title!), subTitle: toTranslated(ctx.config, x.sub_title),
      description: toTranslated(ctx.config, x.description), featured: x.featured!,
      timeFrames: x.time_frames!.map((f) => ({ start_at: f.start_at, end_at: f.end_at })),
    };
    return id === undefined ? insertExhibition(tx, v) : updateExhibition(tx, id, { ...v, updatedAt: ctx.clock.now() });
  });
  return exhibitionView(row, writeView(ctx).L);
}
