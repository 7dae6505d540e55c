// Loads the demo catalogue (`atrium seed --demo`, and `atrium serve --demo` on an empty
// database) through the same import verb as a catalogue file: one code path, one set of rules.
import { count } from 'drizzle-orm';
import { museums } from '../../db/schema/index.ts';
import { importCatalogue, type Summary } from '../catalog-import/importCatalogue.ts';
import type { Ctx } from '../context.ts';
import { localDateOf } from '../time.ts';
import { demoCatalogue, DEMO_ZONE } from './demoCatalogue.ts';

export async function seedDemo(ctx: Pick<Ctx, 'db' | 'clock'>): Promise<Summary> {
  const today = localDateOf(ctx.clock.now(), DEMO_ZONE);
  const summary = await importCatalogue(ctx, { document: demoCatalogue(today) });
  return summary!;
}

/** Whether the catalogue has no museum yet (the demo is only loaded into an empty one). */
export async function catalogueIsEmpty(ctx: Pick<Ctx, 'db'>): Promise<boolean> {
  const [row] = await ctx.db.select({ n: count() }).from(museums);
  return (row?.n ?? 0) === 0;
}
