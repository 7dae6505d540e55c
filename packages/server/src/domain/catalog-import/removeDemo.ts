// `atrium seed --remove-demo`: takes the demo catalogue out of a real install. Every record the
// demo created carries a catalogue key starting with "demo-" (domain/demo/demoCatalogue.ts);
// those nobody booked are removed, the others are kept and listed with why (prune.ts), so no
// order ever loses what it sold. Records made through the API are never touched.
import { catalogKeysStartingWith, lockImports } from '../../db/repositories/imports/keys.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { removeRecords } from './prune.ts';
import { emptySummary, type Kind, type Summary } from './report.ts';

export const DEMO_KEY_PREFIX = 'demo-';

export async function removeDemo(ctx: Pick<Ctx, 'db'>): Promise<Summary> {
  const summary = emptySummary(false);
  await transaction(ctx.db, async (tx) => {
    await lockImports(tx);
    const rows = await catalogKeysStartingWith(tx, DEMO_KEY_PREFIX);
    await removeRecords(tx, rows.map((r) => ({ kind: r.kind as Kind, key: r.key, id: r.recordId })), summary);
  });
  return summary;
}
