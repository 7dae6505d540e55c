// The catalogue the booking and write benchmarks book against: one museum in Berlin, a slot quota
// big enough never to sell out during a run, time-slot tickets 09:00–17:30 every 30 minutes on
// that quota, a reseller token, and the 540 slots of the next 30 days (so spread load never
// makes one slot's lock hot).
import { createToken } from '../../packages/server/src/domain/accounts/createToken.ts';
import { systemClock } from '../../packages/server/src/domain/clock.ts';
import type { Db } from '../../packages/server/src/db/client.ts';
import { museums, quotas, ticketQuotas, tickets } from '../../packages/server/src/db/schema/index.ts';
import { addDays, isoInZone, localDateOf, zonedInstant } from '../../packages/server/src/domain/time.ts';

export const ZONE = 'Europe/Berlin';

export interface SlotCatalogue {
  ticketIds: number[];
  token: string;
  /** Every slot start of the next 30 days, as clients send them (ISO with offset). */
  slots: string[];
  today: string;
}

/** `titles`: one time-slot ticket per title, all on the one quota (prices 14.00, 9.00, …). */
export async function slotCatalogue(orm: Db, titles: string[] = ['Admission']): Promise<SlotCatalogue> {
  const [museum] = await orm
    .insert(museums)
    .values({ title: { en: 'Bench Museum' }, timeZone: ZONE, openingHours: Array(7).fill([540, 1080]) })
    .returning();
  const [quota] = await orm.insert(quotas).values({ museumId: museum!.id, name: 'slots', kind: 'slot', capacity: 2_000_000 }).returning();
  const ticketIds: number[] = [];
  for (const [i, title] of titles.entries()) {
    const [t] = await orm
      .insert(tickets)
      .values({ museumId: museum!.id, title: { en: title }, ticketType: 'time_slot', priceCents: 1400 - 500 * Math.min(i, 1), firstEntry: 540, lastEntry: 1050, entryDuration: 30, maxPersons: 1000 })
      .returning();
    await orm.insert(ticketQuotas).values({ ticketId: t!.id, quotaId: quota!.id });
    ticketIds.push(t!.id);
  }
  const { token } = await createToken({ db: orm, clock: systemClock }, { class: 'reseller', name: 'bench' });
  const today = localDateOf(new Date(), ZONE);
  const slots: string[] = [];
  for (let d = 1; d <= 30; d++) {
    for (let m = 540; m <= 1050; m += 30) slots.push(isoInZone(zonedInstant(addDays(today, d), m, ZONE), ZONE));
  }
  return { ticketIds, token, slots, today };
}

/**
 * A catalogue the size of a real museum's shop page (bench/catalog.ts, bench/catalog-ab.ts): 30
 * tickets with German and English texts, every one sold in the shop and to resellers, so both
 * lists return a full first page (25), all on one slot quota.
 */
export async function shopCatalogue(orm: Db): Promise<{ museumId: number; quotaId: number }> {
  const [museum] = await orm
    .insert(museums)
    .values({ title: { de: 'Bench-Museum', en: 'Bench Museum' }, timeZone: ZONE, openingHours: Array(7).fill([540, 1080]) })
    .returning();
  const [quota] = await orm.insert(quotas).values({ museumId: museum!.id, name: 'slots', kind: 'slot', capacity: 500 }).returning();
  for (let i = 1; i <= 30; i++) {
    const [t] = await orm
      .insert(tickets)
      .values({
        museumId: museum!.id,
        title: { de: `Eintritt ${i}`, en: `Admission ${i}` },
        description: { de: 'Zutritt zu allen Dauerausstellungen. '.repeat(4), en: 'Entry to every permanent exhibition. '.repeat(4) },
        ticketType: i % 3 ? 'time_slot' : 'normal',
        priceCents: 800 + i * 50,
        resellerPriceCents: 700 + i * 50,
        salesChannels: ['shop', 'reseller'],
        firstEntry: 540,
        lastEntry: 1050,
        entryDuration: i % 3 ? 30 : null,
      })
      .returning();
    await orm.insert(ticketQuotas).values({ ticketId: t!.id, quotaId: quota!.id });
  }
  return { museumId: museum!.id, quotaId: quota!.id };
}
