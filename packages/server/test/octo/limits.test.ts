// An OCTO reserve is a hold like any other of the reseller's account: the per-account hold
// limits apply to it together with its go~mus-API reservations, and a refusal is OCTO's
// UNPROCESSABLE_ENTITY. Releasing a hold (cancel) makes room again.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { octoError, octoWorld } from './helpers.ts';

const w = await octoWorld({ env: { ATRIUM_HOLD_LIMIT_COUNT: '2' } });
after(() => w.t.close());

const reserve = () => w.call('POST', '/bookings', { productId: w.slotted, optionId: 'DEFAULT', availabilityId: '2026-12-04T10:00', unitItems: [{ unitId: 'adult' }] });

test('the hold limit counts OCTO holds and go~mus-API reservations of the same account', async () => {
  const first = await reserve();
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const api = await w.t.request({ method: 'POST', url: '/api/v4/reservations', token: w.reseller, payload: { ticket_id: Number(w.slotted.slice(7)), quantity: 1, start_at: '2026-12-04T10:30:00+01:00' } });
  assert.equal(api.statusCode, 201, api.body);
  octoError(await reserve(), 'UNPROCESSABLE_ENTITY');
  // Another reseller has limits of its own.
  assert.equal((await w.call('POST', '/bookings', { productId: w.slotted, optionId: 'DEFAULT', availabilityId: '2026-12-04T10:00', unitItems: [{ unitId: 'adult' }] }, { token: w.other })).status, 200);
  await w.call('POST', `/bookings/${first.body.uuid}/cancel`, {});
  assert.equal((await reserve()).status, 200);
});
