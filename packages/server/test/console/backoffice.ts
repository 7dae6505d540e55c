// Objects of museum A for the back-office rows of the role table (engineer B): made through the
// domain verbs, fresh per call, so every attempt acts on its own object.
import { sql } from 'drizzle-orm';
import { systemCtx, type Ctx } from '../../src/domain/context.ts';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { actingAs, partnerAccount } from '../../src/domain/partners/scope.ts';
import { createClosure } from '../../src/domain/schedules/createClosure.ts';
import { createWebhook } from '../../src/domain/webhooks/createWebhook.ts';
import { testWebhook } from '../../src/domain/webhooks/deliveries.ts';
import { addDays } from '../../src/domain/time.ts';
import * as f from '../helpers/factories.ts';
import type { ConsoleFixture } from './fixture.ts';

const sys = (fx: ConsoleFixture): Ctx => systemCtx({ db: fx.t.database.db, clock: fx.t.clock, config: fx.t.config });

let n = 0;
/** A day far ahead, different on every call (closures of the same scope may not overlap). */
export const freshDay = () => addDays(f.localDate(100), (n += 1));

export async function partnerOfA(fx: ConsoleFixture) {
  return createToken({ db: fx.t.database.db, clock: fx.t.clock }, { class: 'reseller', name: `Partner A ${(n += 1)}`, museumIds: [fx.A.id] });
}

export async function hookOfA(fx: ConsoleFixture) {
  const p = await partnerOfA(fx);
  const account = await partnerAccount(sys(fx), p.accountId);
  const { webhook } = await createWebhook(actingAs(sys(fx), account), { url: 'https://93.184.216.34/hook', events: ['order.created'] });
  return { accountId: p.accountId, hookId: webhook.id, as: actingAs(sys(fx), account) };
}

export async function deliveryOfA(fx: ConsoleFixture) {
  const h = await hookOfA(fx);
  const d = await testWebhook(h.as, h.hookId);
  return { ...h, deliveryId: d.id };
}

export async function closureOfA(fx: ConsoleFixture) {
  return (await createClosure(sys(fx), { museum_id: fx.A.id, start_date: freshDay(), reason: 'role table' })).closure.id;
}

export async function quotaOfA(fx: ConsoleFixture) {
  const r = await fx.t.database.db.execute<{ quota_id: number }>(sql`select quota_id from ticket_quotas where ticket_id = ${fx.A.ticketId}`);
  return r.rows[0]!.quota_id;
}

export async function eventOfA(fx: ConsoleFixture) {
  return (await f.event(fx.t.database.db, { museumId: fx.A.id })).id;
}

/** The opening hours form with the factories' week: every day 10:00-18:00, Thursday to 20:00. */
export function openWeek(): Record<string, string> {
  const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
  return Object.fromEntries(days.flatMap((d) => [[`open_${d}`, '1'], [`from_${d}`, '10:00'], [`to_${d}`, d === 'thursday' ? '20:00' : '18:00']]));
}
