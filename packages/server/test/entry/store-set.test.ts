// The set-wise scan store (migration 0028, docs/adr/0028-scan-latency.md) against the one-by-one
// store it replaces for batches of distinct barcodes: the same batch, applied to twin barcodes,
// answers alike and leaves the same rows; a stale state is refused (0) and writes nothing; a
// device_scan_id taken meanwhile undoes the whole batch, which scanBatches then stores scan by scan.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { scanBatches } from '../../src/db/repositories/entryScan.ts';
import { newEventId } from '../../src/domain/events/record.ts';
import { entryFixture, type EntryFixture } from './support.ts';

let x: EntryFixture;
before(async () => {
  x = await entryFixture();
});
after(() => x.t.close());

interface Facts { barcodeId: number; code: string; itemId: number; orderId: number; museumId: number; accountId: number }

async function facts(codes: string[]): Promise<Facts[]> {
  const r = await x.t.database.pool.query(
    `select b.id as "barcodeId", b.code, i.id as "itemId", o.id as "orderId", i.museum_id as "museumId", o.account_id as "accountId"
       from barcodes b join order_items i on i.id = b.order_item_id join orders o on o.id = i.order_id
      where b.code = any($1) order by array_position($1, b.code)`,
    [codes],
  );
  return r.rows.map((row) => ({ ...row, barcodeId: Number(row.barcodeId), itemId: Number(row.itemId) }));
}

const gateAccount = async () => Number((await x.t.database.pool.query(`select id as account_id from accounts where name = 'Gate A1'`)).rows[0].account_id);

/** A payload as storeScan.ts builds it: an entry scan of `f` (null: an unknown code), over `expected`. */
function payload(gate: number, f: Facts | null, o: { code?: string; expected?: number | null; entries?: number; device?: string | null } = {}) {
  const at = x.t.clock.now();
  const entries = o.entries ?? 1;
  const result = f ? 'valid' : 'unknown';
  return {
    scan: {
      account_id: gate, device_scan_id: o.device ?? null, barcode: f?.code ?? o.code, barcode_id: f?.barcodeId ?? null, museum_id: f?.museumId ?? null,
      order_id: f?.orderId ?? null, order_item_id: f?.itemId ?? null, direction: 'entry', location: 'North', people_count: 1, result, gate_result: result,
      message: result, entries_used: f ? entries : 0, entries_allowed: f ? 2 : 0, scanned_at: at, received_at: at,
    },
    state: f ? { barcode_id: f.barcodeId, order_item_id: f.itemId, museum_id: f.museumId, entries_used: entries, inside_people: 1, last_entry_at: at, last_scan_at: at, updated_at: at } : null,
    expected: o.expected ?? null,
    same: null,
    check: true,
    revise: [],
    event: { id: newEventId(), account_id: f?.accountId ?? null, museum_ids: f ? [f.museumId] : [], data: { scan: { barcode: f?.code ?? o.code, result } }, created_at: at },
  };
}

const versionOf = async (barcodeId: number) => {
  const r = await x.t.database.pool.query(`select version, entries_used from entry_states where barcode_id = $1`, [barcodeId]);
  return r.rows[0] ? { version: Number(r.rows[0].version), entries: r.rows[0].entries_used as number } : null;
};

/** What a batch left for its barcodes: scans (without ids and times), states, events. */
async function leftFor(barcodeIds: number[], unknownCode: string) {
  const pool = x.t.database.pool;
  const scans = (await pool.query(
    `select barcode_id is not null as known, result, entries_used, location from scans where barcode_id = any($1) or barcode = $2 order by barcode_id nulls first`,
    [barcodeIds, unknownCode],
  )).rows;
  const states = (await pool.query(`select entries_used, inside_people, version from entry_states where barcode_id = any($1) order by barcode_id`, [barcodeIds])).rows;
  const events = (await pool.query(
    `select count(*)::int as n from outbox_events e join scans s on s.id = (e.data->'scan'->>'id')::bigint where e.type = 'scan.created' and (s.barcode_id = any($1) or s.barcode = $2)`,
    [barcodeIds, unknownCode],
  )).rows[0].n;
  return { scans, states: states.map((s) => ({ ...s, version: Number(s.version) })), events };
}

const SET = 'select entry_scan_store_batch($1::jsonb) as r';
const ONE_BY_ONE = 'select array_agg(entry_scan_store(p) order by i) as r from jsonb_array_elements($1::jsonb) with ordinality as t(p, i)';

describe('scans stored set-wise (migration 0028)', () => {
  test('a batch answers and writes as the one-by-one store does, a stale state included', async () => {
    const gate = await gateAccount();
    x.t.clock.set(x.at(605));
    const run = async (text: string, unknown: string) => {
      const { codes } = await x.buySlot(4, 600);
      const f = await facts(codes);
      // Two barcodes scanned once before: one read at its current version, one at an older one.
      for (const b of [f[2]!, f[3]!]) await x.t.database.pool.query(SET, [JSON.stringify([payload(gate, b)])]);
      await x.t.database.pool.query(SET, [JSON.stringify([payload(gate, f[3]!, { expected: 1, entries: 2 })])]);
      const batch = [payload(gate, null, { code: unknown }), payload(gate, f[0]!), payload(gate, f[1]!), payload(gate, f[2]!, { expected: 1, entries: 2 }), payload(gate, f[3]!, { expected: 1, entries: 2 })];
      const r = (await x.t.database.pool.query<{ r: Array<number | string> }>(text, [JSON.stringify(batch)])).rows[0]!.r.map(Number);
      return { answered: r.map((id) => (id > 0 ? 'stored' : id)), left: await leftFor(f.map((b) => b.barcodeId), unknown) };
    };
    const set = await run(SET, 'NOPE-SET');
    const one = await run(ONE_BY_ONE, 'NOPE-ONE');
    assert.deepEqual(set.answered, ['stored', 'stored', 'stored', 'stored', 0]);
    assert.deepEqual(set, one);
    // The stale one wrote nothing: its state is the one of its last stored scan.
    assert.deepEqual(set.left.states.map((s) => s.version), [1, 1, 2, 2]);
    assert.equal(set.left.scans.length, 4 + 3);
    assert.equal(set.left.events, 4 + 3);
  });

  test('a device_scan_id stored meanwhile undoes the set and the batch is stored scan by scan', async () => {
    const gate = await gateAccount();
    x.t.clock.set(x.at(605));
    const { codes } = await x.buySlot(3, 600);
    const f = await facts(codes);
    const device = `dev-${Date.now()}`;
    // Another request stored this device_scan_id after this batch's reads found none.
    await x.t.database.pool.query(SET, [JSON.stringify([payload(gate, f[0]!, { device })])]);
    const before = await leftFor([f[1]!.barcodeId, f[2]!.barcodeId], 'none');
    const batch = [payload(gate, f[1]!), payload(gate, f[2]!, { device }), payload(gate, f[0]!, { expected: 1, entries: 2 })];
    await assert.rejects(x.t.database.pool.query(SET, [JSON.stringify(batch)]), (e: { code?: string }) => e.code === 'P0001');
    assert.deepEqual(await leftFor([f[1]!.barcodeId, f[2]!.barcodeId], 'none'), before, 'the failed set wrote nothing');
    assert.equal((await versionOf(f[0]!.barcodeId))?.version, 1);
    // Through scanBatches, as storeScan.ts submits them: the taken one answers -1, the others are stored.
    const ids = await Promise.all(batch.map((p) => scanBatches(x.t.database.pool).submit(JSON.stringify(p))));
    assert.equal(ids[1], -1);
    assert.ok(ids[0]! > 0 && ids[2]! > 0, JSON.stringify(ids));
    assert.deepEqual(await versionOf(f[1]!.barcodeId), { version: 1, entries: 1 });
    assert.equal(await versionOf(f[2]!.barcodeId), null, 'the taken scan changed no state');
    assert.deepEqual(await versionOf(f[0]!.barcodeId), { version: 2, entries: 2 });
  });
});
