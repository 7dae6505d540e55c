// Report fixtures: two museums, tickets at 19 % and 7 % (VAT included) at museum A, one at B,
// and a domain context for a staff principal with a given museum scope.
import type { TestApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import type { Ctx } from '../../src/domain/context.ts';
import { zonedInstant } from '../../src/domain/time.ts';

export interface ReportFixture {
  museumA: number;
  museumB: number;
  t19: number;
  t7: number;
  tB: number;
  /** Visit slot `min` minutes after local midnight, ten days from now. */
  visit(min: number): string;
}

export async function reportFixture(t: TestApp): Promise<ReportFixture> {
  const db = t.database.db;
  const museumA = (await f.museum(db)).id;
  const museumB = (await f.museum(db)).id;
  const qa = await f.quota(db, { museumId: museumA, capacity: 500 });
  const qb = await f.quota(db, { museumId: museumB, capacity: 500 });
  const t19 = (await f.ticket(db, { museumId: museumA, quotaIds: [qa.id], priceCents: 1399, vatPct: 19, title: { de: 'Führung', en: 'Guided visit' } })).id;
  const t7 = (await f.ticket(db, { museumId: museumA, quotaIds: [qa.id], priceCents: 1400, vatPct: 7 })).id;
  const tB = (await f.ticket(db, { museumId: museumB, quotaIds: [qb.id], priceCents: 1000, vatPct: 7 })).id;
  const day = f.localDate(10);
  return { museumA, museumB, t19, t7, tB, visit: (min) => zonedInstant(day, min, 'Europe/Berlin').toISOString() };
}

/** A context as a staff user of the given museums (empty = all) would have. */
export function staffCtx(t: TestApp, museumIds: number[]): Ctx {
  return {
    db: t.database.db,
    clock: t.clock,
    config: t.config,
    principal: {
      kind: 'account', accountId: 0, accountName: 'staff:test', access: 'user', museumIds,
      rights: new Set(['orders:read']), tokenId: 0, tokenLast4: '', rateLimitPerMinute: null,
    },
  };
}
