// `atrium seed --remove-demo`: takes the demo catalogue out of a real install. Every record the
// demo created carries a catalogue key starting with "demo-" (domain/demo/demoCatalogue.ts);
// those nobody booked are removed, the others are kept and listed with why (prune.ts), so no
// order ever loses what it sold. Records made through the API are never touched.
import { like, sql } from 'drizzle-orm';
import { catalogKeys } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { IMPORT_LOCK } from './apply.ts';
import { removeRecords } from './prune.ts';
import { emptySummary, type Kind, type Summary } from './report.ts';

export const DEMO_KEY_PREFIX = 'demo-';

export async function removeDemo(ctx: Pick<Ctx, 'db'>): Promise<Summary> {
  const summary = emptySummary(false);
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK})`);
    const rows = await tx.select().from(catalogKeys).where(like(catalogKeys.key, `${DEMO_KEY_PREFIX}%`));
    await removeRecords(tx, rows.map((r) => ({ kind: r.kind as Kind, key: r.key, id: r.recordId })), summary);
  });
  return summary;
}
