// Loads the demo catalogue (`atrium seed --demo`, and `atrium serve --demo` on an empty
// database) through the same import verb as a catalogue file: one code path, one set of rules.
import { museumCount } from '../../db/repositories/catalog/places.ts';
import { recordIdOfKey } from '../../db/repositories/imports/keys.ts';
import { hasSlotOverride } from '../../db/repositories/schedules/hours.ts';
import { importCatalogue, type Summary } from '../catalog-import/importCatalogue.ts';
import type { Ctx } from '../context.ts';
import { setSlotCapacity } from '../schedules/setCapacities.ts';
import { addDays, localDateOf, weekdayIndex, zonedInstant } from '../time.ts';
import { demoCatalogue, DEMO_ZONE } from './demoCatalogue.ts';
import { seedDemoPromo } from './demoPromo.ts';
import { seedDemoShop } from './demoShop.ts';

export async function seedDemo(ctx: Pick<Ctx, 'db' | 'clock'>): Promise<Summary> {
  const today = localDateOf(ctx.clock.now(), DEMO_ZONE);
  const summary = await importCatalogue(ctx, { document: demoCatalogue(today) });
  await demoSlotOverride(ctx, today);
  await seedDemoShop(ctx);
  await seedDemoPromo(ctx);
  return summary!;
}

/**
 * A per-slot capacity override (docs/api-contract.md §13; catalogue files carry per-date ones only): a school
 * group has the Kunsthalle at 11:00 on the next open day, so that slot sells only 10. Set once:
 * a later seed leaves the slot overrides alone.
 */
async function demoSlotOverride(ctx: Pick<Ctx, 'db'>, today: string): Promise<void> {
  const quotaId = await recordIdOfKey(ctx.db, 'quota', 'demo-kh-slots');
  if (quotaId === undefined || (await hasSlotOverride(ctx.db, quotaId))) return;
  let day = addDays(today, 2);
  while (weekdayIndex(day) === 0 || day.slice(5) >= '12-24' && day.slice(5) <= '12-26') day = addDays(day, 1);
  await setSlotCapacity(ctx.db, quotaId, zonedInstant(day, 660, DEMO_ZONE), 10);
}

/** Whether the catalogue has no museum yet (the demo is only loaded into an empty one). */
export async function catalogueIsEmpty(ctx: Pick<Ctx, 'db'>): Promise<boolean> {
  return (await museumCount(ctx.db)) === 0;
}
