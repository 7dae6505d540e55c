// The baseline the service is measured against (same machine, same run): a bare Fastify app with
// a constant JSON route, one indexed SELECT, one guarded UPDATE + INSERT in a transaction (the
// least work any correct booking endpoint must do), and a page of tickets in one prepared query.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
await pool.query(`
  create table if not exists bare_slots (id int primary key, used int not null default 0, cap int not null);
  create table if not exists bare_orders (id bigserial primary key, slot_id int not null, qty int not null, created_at timestamptz not null default now());
  insert into bare_slots (id, cap) select g, 1000000 from generate_series(1, 2000) g on conflict do nothing;
`);

const app = Fastify({ logger: false });
const constant = { tickets: [{ id: 1, title: 'Admission', price_cents: 1400 }], meta: { total_count: 1, page: 1, per_page: 25 } };
app.get('/const', async () => constant);
app.get<{ Params: { id: string } }>('/select/:id', async (req) => {
  const r = await pool.query('select id, cap - used as left from bare_slots where id = $1', [Number(req.params.id)]);
  return { data: r.rows[0] ?? null };
});
app.post<{ Body: { slot: number; qty: number } }>('/book', async (req, reply) => {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const u = await client.query('update bare_slots set used = used + $2 where id = $1 and used + $2 <= cap', [
      req.body.slot,
      req.body.qty,
    ]);
    if (u.rowCount === 0) {
      await client.query('rollback');
      return reply.code(422).send({ error: 'sold out' });
    }
    const o = await client.query('insert into bare_orders (slot_id, qty) values ($1, $2) returning id', [req.body.slot, req.body.qty]);
    await client.query('commit');
    return reply.code(201).send({ order: { id: o.rows[0].id } });
  } catch (e) {
    await client.query('rollback').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
});
// The catalogue's database floor: the same page of tickets the public list answers
// (shop channel, active, id order, 25), every text column with all its translations, in one
// prepared statement, serialized with JSON.stringify. bench/catalog.ts compares the uncached
// public list to it.
const TICKETS_SQL = `select id, title, sub_title, description, ticket_type, price_cents, vat_pct, tax_included, discount,
       first_entry, last_entry, entry_duration, min_persons, max_persons, attendees, valid_from, valid_until, exhibition_ids,
       array(select quota_id from ticket_quotas q where q.ticket_id = t.id order by quota_id) as quota_ids,
       count(*) over () as total_count
  from tickets t where active and 'shop' = any(sales_channels) order by id limit $1`;
app.get('/tickets', async () => {
  const r = await pool.query({ name: 'bare_tickets', text: TICKETS_SQL, values: [25] });
  return { tickets: r.rows, meta: { total_count: Number(r.rows[0]?.total_count ?? 0), page: 1, per_page: 25 } };
});
await app.listen({ port: 0, host: '127.0.0.1' });
const addr = app.server.address();
process.stdout.write(`baseline listening on ${typeof addr === 'object' && addr ? addr.port : 0}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  await pool.end();
  process.exit(0);
});
