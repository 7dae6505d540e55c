// GET /scans/manifest: every barcode that may enter a museum on a date, with its window and rules
// and where it stands now, so a scanner can decide offline. The ETag is a hash of the content, so
// a device polling with If-None-Match gets a 304 until a sale, cancellation or scan changes it.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Ctx } from '../context.ts';
import { addDays, isoInZone, startOfLocalDay } from '../time.ts';
import { doorLocale, titleIn } from './internal.ts';
import { DEFAULT_EARLY_MINUTES, DEFAULT_ENTRIES_ALLOWED, entryWindow, type AdmissionItem } from './rules.ts';
import { dateOrToday, museumInScope } from './scope.ts';

/** Upper bound of barcodes in one manifest: a museum day far beyond any real one. */
const MAX_MANIFEST = 100_000;

export async function getManifest(ctx: Ctx, input: { museum_id: number; date?: string }) {
  const museum = await museumInScope(ctx, input.museum_id);
  const date = dateOrToday(ctx, input.date, museum.zone);
  const from = startOfLocalDay(date, museum.zone).toISOString();
  const to = startOfLocalDay(addDays(date, 1), museum.zone).toISOString();
  // Only finalized orders carry barcodes; void barcodes and cancelled items are left out.
  const res = await ctx.db.execute<Record<string, any>>(sql`
    select b.code, o.id as order_id, i.type, i.quantity, i.start_at, t.entry_duration, t.last_entry,
           coalesce(ed.duration, tr.duration) as fixed_duration,
           coalesce(i.ticket_id, ed.event_id, i.tour_id) as product_id, coalesce(t.title, e.title, tr.title) as title,
           r.entries_allowed, r.reentry, r.early_minutes, st.entries_used, st.inside_people
      from order_items i
      join orders o on o.id = i.order_id and o.status = 'finalized'
      join barcodes b on b.order_item_id = i.id and b.status = 'valid'
      left join tickets t on t.id = i.ticket_id
      left join event_dates ed on ed.id = i.event_date_id
      left join events e on e.id = ed.event_id
      left join tours tr on tr.id = i.tour_id
      left join entry_rules r on r.ticket_id = i.ticket_id
      left join entry_states st on st.barcode_id = b.id
     where i.museum_id = ${museum.id} and i.status = 'active' and i.start_at >= ${from} and i.start_at < ${to}
     order by b.id
     limit ${MAX_MANIFEST}`);
  const locale = doorLocale(ctx.config);
  const barcodes = res.rows.map((r) => {
    const item: AdmissionItem = {
      type: r.type,
      startAt: new Date(r.start_at),
      zone: museum.zone,
      durationMinutes: r.type === 'Ticket' ? (r.entry_duration ?? null) : r.fixed_duration,
      lastEntry: r.type === 'Ticket' ? r.last_entry : null,
    };
    const w = entryWindow(item, r.early_minutes ?? DEFAULT_EARLY_MINUTES);
    return {
      barcode: r.code as string,
      order_id: r.order_id as number,
      ticket: { id: r.product_id as number, title: titleIn(r.title ?? {}, locale) },
      start_at: isoInZone(item.startAt, museum.zone),
      opens_at: isoInZone(w.opens, museum.zone),
      closes_at: isoInZone(w.closes, museum.zone),
      people: r.type === 'Tour' ? (r.quantity as number) : 1,
      entries_allowed: (r.entries_allowed as number | null) ?? DEFAULT_ENTRIES_ALLOWED,
      entries_used: (r.entries_used as number | null) ?? 0,
      reentry: (r.reentry as boolean | null) ?? false,
      inside: ((r.inside_people as number | null) ?? 0) > 0,
    };
  });
  const body = { museum_id: museum.id, date, barcodes };
  const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
  return { etag, manifest: { ...body, generated_at: isoInZone(ctx.clock.now(), museum.zone) } };
}
