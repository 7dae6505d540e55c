// GET /scans/manifest: every barcode that may enter a museum on a date, with its window and rules
// and where it stands now, so a scanner can decide offline. The ETag is a hash of the content, so
// a device polling with If-None-Match gets a 304 until a sale, cancellation or scan changes it.
//
// Only today and tomorrow (the museum's dates) are served: a device loads the day's manifest
// while online, or the next day's the evening before. Any other date is a 422: a manifest is a
// list of every admissible barcode, and handing out those of any future day gives a scanner
// token far more than it needs to decide the day's scans.
import { createHash } from 'node:crypto';
import { manifestRows } from '../../db/repositories/entry.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { addDays, isoInZone, localDateOf, startOfLocalDay } from '../time.ts';
import { doorLocale, titleIn } from './internal.ts';
import { DEFAULT_EARLY_MINUTES, DEFAULT_ENTRIES_ALLOWED, entryWindow, type AdmissionItem } from './rules.ts';
import { dateOrToday, museumInScope } from './scope.ts';

/** Upper bound of barcodes in one manifest: a museum day far beyond any real one. */
const MAX_MANIFEST = 100_000;

export async function getManifest(ctx: Ctx, input: { museum_id: number; date?: string }) {
  const museum = await museumInScope(ctx, input.museum_id);
  const date = dateOrToday(ctx, input.date, museum.zone);
  const today = localDateOf(ctx.clock.now(), museum.zone);
  if (date !== today && date !== addDays(today, 1)) {
    throw invalid('the manifest is served for today and tomorrow only', [`date must be ${today} or ${addDays(today, 1)} (the museum's today and tomorrow)`]);
  }
  const from = startOfLocalDay(date, museum.zone).toISOString();
  const to = startOfLocalDay(addDays(date, 1), museum.zone).toISOString();
  // Only finalized orders carry barcodes; void barcodes and cancelled items are left out.
  const rows = await manifestRows(ctx.db, museum.id, from, to, MAX_MANIFEST);
  const locale = doorLocale(ctx.config);
  const barcodes = rows.map((r) => {
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
