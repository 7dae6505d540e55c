import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DateTime } from 'luxon';
import { isValidDate, isoInZone, MAX_YEAR, MIN_YEAR, localDateOf, localMinutesOf, parseTimestamp, startOfLocalDay, zonedInstant } from '../../src/domain/time.ts';

const Z = 'Europe/Berlin';

test('wall-clock minutes map to the right instant on normal and DST days', () => {
  assert.equal(isoInZone(zonedInstant('2026-07-06', 660, Z), Z), '2026-07-06T11:00:00+02:00');
  assert.equal(isoInZone(zonedInstant('2026-01-06', 660, Z), Z), '2026-01-06T11:00:00+01:00');
  // 29 March 2026: clocks jump 02:00 → 03:00. 10:00 is still 10:00 local, now at +02:00.
  assert.equal(isoInZone(zonedInstant('2026-03-29', 600, Z), Z), '2026-03-29T10:00:00+02:00');
  // 25 October 2026: 03:00 → 02:00. Midnight to 10:00 spans 11 real hours.
  const midnight = startOfLocalDay('2026-10-25', Z);
  const ten = zonedInstant('2026-10-25', 600, Z);
  assert.equal((ten.getTime() - midnight.getTime()) / 3_600_000, 11);
  assert.equal(localMinutesOf(ten, Z), 600);
  assert.equal(localDateOf(ten, Z), '2026-10-25');
  // The repeated hour resolves to its first occurrence (CEST), the gap moves forward.
  assert.equal(isoInZone(zonedInstant('2026-10-25', 150, Z), Z), '2026-10-25T02:30:00+02:00');
  assert.equal(isoInZone(zonedInstant('2026-10-25', 180, Z), Z), '2026-10-25T03:00:00+01:00');
  assert.equal(isoInZone(zonedInstant('2026-03-29', 150, Z), Z), '2026-03-29T03:30:00+02:00');
});

test('timestamps parse with offset, Z, or as museum-local wall time', () => {
  assert.equal(parseTimestamp('2026-07-07T13:00:00+02:00', Z)?.toISOString(), '2026-07-07T11:00:00.000Z');
  assert.equal(parseTimestamp('2026-07-07T11:00:00Z', Z)?.toISOString(), '2026-07-07T11:00:00.000Z');
  assert.equal(parseTimestamp('2026-07-07T13:00:00', Z)?.toISOString(), '2026-07-07T11:00:00.000Z');
  assert.equal(parseTimestamp('2026-07-07', Z), null);
  assert.equal(parseTimestamp('yesterday', Z), null);
});

test('the fast paths agree with Luxon for every quarter hour across both 2026 switches and odd zones', async () => {
  const { DateTime } = await import('luxon');
  for (const zone of ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC', 'Europe/London']) {
    for (const start of ['2026-03-27T00:00:00Z', '2026-10-23T00:00:00Z', '2026-04-03T00:00:00Z', '2026-11-01T00:00:00Z']) {
      for (let i = 0; i < 5 * 96; i++) {
        const at = new Date(Date.parse(start) + i * 15 * 60_000 + (i % 7) * 60_000);
        const dt = DateTime.fromJSDate(at, { zone });
        assert.equal(isoInZone(at, zone), dt.toISO({ suppressMilliseconds: true }), `${zone} ${at.toISOString()}`);
        assert.equal(localDateOf(at, zone), dt.toISODate());
        assert.equal(localMinutesOf(at, zone), dt.hour * 60 + dt.minute);
      }
    }
  }
});

test('parseTimestamp: the fast path for offset timestamps agrees with Luxon on valid, invalid and random input', () => {
  // The reference is the general Luxon parse that parseTimestamp falls back to.
  const ref = (text: string, zone: string): number | null => {
    const hasOffset = /([zZ]|[+-]\d{2}:?\d{2})$/.test(text);
    const dt = DateTime.fromISO(text, hasOffset ? { setZone: true } : { zone });
    // …restricted to offsets within ±14:00 and instants in the supported years (UTC).
    const offsetMinute = Number(/[+-]\d{2}:?(\d{2})$/.exec(text)?.[1] ?? 0); // Luxon reads "+01:60"
    const ok = dt.isValid && /T|\s/.test(text) && Math.abs(dt.offset) <= 14 * 60 && offsetMinute < 60 && dt.toUTC().year >= MIN_YEAR && dt.toUTC().year <= MAX_YEAR;
    return ok ? dt.toMillis() : null;
  };
  const fixed = [
    '2026-11-23T09:00:00+01:00', '2026-11-23T09:00:00Z', '2026-11-23T09:00Z', '2026-02-30T09:00:00Z', '2024-02-29T09:00:00+0130',
    '2026-13-01T00:00:00Z', '2026-11-23T24:00:00Z', '2026-11-23T23:59:59.5-05:00', '2026-11-23T23:60:00Z', '2026-11-23T09:00:00.123456Z',
    '2026-00-10T09:00:00Z', '2026-11-00T09:00:00Z', '0999-01-01T00:00:00Z', '2026-11-23T09:00:00+15:00', '2026-11-23T09:00:00+14:60',
    '2026-03-29T02:30:00+01:00', '2026-10-25T02:30:00+02:00', '2026-11-23T09:00:00', '2026-11-23',
    '+275760-09-13T00:00:00Z', '9999-12-31T23:00:00-05:00', '9999-12-31T23:00:00+05:00', '0001-01-01T00:30:00+01:00',
  ];
  const r = (n: number, w = 2) => String(Math.floor(Math.random() * n)).padStart(w, '0');
  const random = Array.from({ length: 5000 }, () =>
    `${r(3000, 4)}-${r(14)}-${r(33)}T${r(25)}:${r(61)}${Math.random() < 0.8 ? `:${r(61)}` : ''}${Math.random() < 0.3 ? `.${r(1000, 3)}` : ''}` +
    (Math.random() < 0.3 ? 'Z' : `${Math.random() < 0.5 ? '+' : '-'}${r(16)}${Math.random() < 0.8 ? ':' : ''}${r(61)}`),
  );
  const diffs = [...fixed, ...random].filter((s) => (parseTimestamp(s, 'Europe/Berlin')?.getTime() ?? null) !== ref(s, 'Europe/Berlin'));
  assert.deepEqual(diffs, []);
});

test('isValidDate agrees with Luxon on valid, invalid and random dates', () => {
  // Luxon, restricted to the supported years.
  const ref = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && Number(text.slice(0, 4)) >= MIN_YEAR && Number(text.slice(0, 4)) <= MAX_YEAR && DateTime.fromISO(text, { zone: 'UTC' }).isValid;
  const fixed = ['2026-11-23', '2024-02-29', '2026-02-29', '2100-02-29', '2000-02-29', '0001-01-01', '0000-01-01', '0050-06-30',
    '2026-13-01', '2026-00-10', '2026-11-31', '2026-11-00', '2026-1-01', '20261123', '2026-11-23T00:00', ' 2026-11-23', '9999-12-31'];
  const r = (n: number, w = 2) => String(Math.floor(Math.random() * n)).padStart(w, '0');
  const random = Array.from({ length: 5000 }, () => `${r(10000, 4)}-${r(14)}-${r(33)}`);
  const diffs = [...fixed, ...random].filter((s) => isValidDate(s) !== ref(s));
  assert.deepEqual(diffs, []);
});
