// Promo codes over the staff API: created with their limits, listed, read, switched off; bad
// input and callers without the right are refused and write nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { paymentsWorld, type PaymentsWorld } from '../payments/support.ts';

let w: PaymentsWorld;
before(async () => {
  w = await paymentsWorld();
});
after(() => w.close());
const count = async () => Number((await w.t.database.db.execute<{ n: string }>(sql`select count(*) n from promo_codes`)).rows[0]!.n);

describe('promo codes staff API', () => {
  test('create (wrapped too), list, get, switch off', async () => {
    const r = await w.post('/promo_codes', { promo_code: { code: 'summer-10', kind: 'percent', percent: 10, cap_cents: 500, channels: ['shop'], max_uses: 3, visit_from: '2026-01-01' } });
    assert.equal(r.statusCode, 201, r.body);
    const c = r.json().promo_code;
    assert.deepEqual([c.code, c.kind, c.percent, c.cap_cents, c.uses, c.active, c.visit_from], ['SUMMER10', 'percent', 10, 500, 0, true, '2026-01-01']);
    assert.equal((await w.get('/promo_codes')).json().promo_codes.some((x: { id: number }) => x.id === c.id), true);
    assert.equal((await w.get(`/promo_codes/${c.id}`)).json().promo_code.code, 'SUMMER10');
    const off = await w.t.request({ method: 'PATCH', url: `/api/v4/promo_codes/${c.id}`, token: w.staff, payload: { active: false } });
    assert.equal(off.statusCode, 200, off.body);
    assert.equal(off.json().promo_code.active, false);
  });

  test('bad values, duplicates and resellers are refused and nothing is written', async () => {
    await w.post('/promo_codes', { code: 'DUP1', kind: 'amount', amount_cents: 200 });
    const n = await count();
    assert.equal((await w.post('/promo_codes', { code: 'dup-1', kind: 'amount', amount_cents: 300 })).statusCode, 422);
    assert.equal((await w.post('/promo_codes', { code: 'X1Y', kind: 'percent' })).json().code, 'VALIDATION_FAILED');
    assert.equal((await w.post('/promo_codes', { code: 'X2Y', kind: 'amount', amount_cents: 100, percent: 5 })).statusCode, 422);
    assert.equal((await w.post('/promo_codes', { code: 'X3Y', kind: 'amount', amount_cents: 100 }, w.reseller)).statusCode, 403);
    assert.equal((await w.get('/promo_codes/999999')).statusCode, 404);
    assert.equal(await count(), n);
  });

  test('the other kinds take their own values and refuse the rest with a reason', async () => {
    const ok = await w.post('/promo_codes', { code: 'TWOFORONE', kind: 'buy_x_get_y', buy_quantity: 1, get_quantity: 1 });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.deepEqual([ok.json().promo_code.buy_quantity, ok.json().promo_code.get_quantity, ok.json().promo_code.percent], [1, 1, 100]);
    const free = await w.post('/promo_codes', { code: 'FREEONE', kind: 'free_item' });
    assert.equal(free.json().promo_code.get_quantity, 1);
    const comp = await w.post('/promo_codes', { code: 'COMPANION', kind: 'free_companion', buy_quantity: 2, companion_ticket_id: w.ticketId });
    assert.equal(comp.statusCode, 201, comp.body);
    const n = await count();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ code: 'K1', kind: 'buy_x_get_y', get_quantity: 1 }, 'buy_quantity is required'],
      [{ code: 'K2', kind: 'free_item', amount_cents: 100 }, 'amount_cents is not used by kind free_item'],
      [{ code: 'K3', kind: 'free_companion' }, 'buy_quantity is required'],
      [{ code: 'K4', kind: 'free_companion', buy_quantity: 1, companion_ticket_id: 999999 }, 'ticket 999999 not found'],
      [{ code: 'K5', kind: 'percent', percent: 5, partner_account_id: 999999 }, 'account 999999 not found'],
      [{ code: 'K6', kind: 'percent', percent: 5, visit_from: '2027-02-01', visit_until: '2027-01-01' }, 'visit_until must not be before'],
      [{ code: 'K7', kind: 'amount', amount_cents: 100, companion_ticket_id: w.ticketId }, 'companion_ticket_id is not used'],
    ];
    for (const [body, want] of cases) {
      const r = await w.post('/promo_codes', { ...body, code: `${body.code}XX` });
      assert.equal(r.statusCode, 422, r.body);
      assert.equal(r.json().code, 'VALIDATION_FAILED');
      assert.ok(r.json().errors.some((e: string) => e.includes(want)), `${want}: ${r.body}`);
    }
    assert.equal(await count(), n);
  });
});
