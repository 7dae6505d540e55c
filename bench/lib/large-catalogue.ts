// The large catalogue (bench/catalog.ts, "large catalogue"): a museum with 2,000
// time-slot tickets (every second one on the given quota) and 100 events with 500 daily dates each
// (50,000 event dates from today on), inserted in one statement. The SQL is the one bench/catalog.ts
// seeds with, so figures of bench/dates-large.ts compare with its `/dates` row.
import type pg from 'pg';

/** Seeds the large catalogue (then ANALYZE); returns the milliseconds it took. */
export async function seedLargeCatalogue(pool: pg.Pool, quotaId: number): Promise<number> {
  const t0 = Date.now();
  await pool.query(
    `
  with m as (insert into museums (title, time_zone, opening_hours) values ('{"de":"Großes Museum","en":"Large Museum"}', 'Europe/Berlin', '[[540,1080],[540,1080],[540,1080],[540,1080],[540,1080],[540,1080],[540,1080]]') returning id),
  t as (insert into tickets (museum_id, title, description, ticket_type, price_cents, first_entry, last_entry, entry_duration, sales_channels)
        select m.id, jsonb_build_object('de', 'Karte ' || lpad(g::text, 4, '0'), 'en', 'Ticket ' || lpad(g::text, 4, '0')),
               '{"de":"Zutritt zu allen Dauerausstellungen.","en":"Entry to every permanent exhibition."}', 'time_slot', 1000 + g, 540, 1050, 30, '{shop,reseller}'
          from m, generate_series(1, 2000) g returning id),
  q as (insert into ticket_quotas (ticket_id, quota_id) select id, $1 from t where id % 2 = 0 returning 1),
  e as (insert into events (museum_id, title, price_cents) select m.id, jsonb_build_object('de', 'Führung ' || g, 'en', 'Guided tour ' || g), 1200 from m, generate_series(1, 100) g returning id)
  insert into event_dates (event_id, start_at, seats_max)
  select e.id, date_trunc('day', now()) + (d || ' days')::interval + ((10 + (e.id % 8)) || ' hours')::interval, 30
    from e, generate_series(0, 499) d`,
    [quotaId],
  );
  await pool.query('analyze');
  return Date.now() - t0;
}
