// Validation rules of catalogue writes, used by every create/update verb (HTTP and the catalogue
// importer alike), so no path can store a record the booking side cannot handle. Each rule set
// takes the record as it would be after the write (existing values merged with the input, in the
// snake_case shape of the request bodies) and returns human-readable messages; the verbs answer
// 422 with all of them at once and write nothing.
import type { Config } from '../../config.ts';
import type { DbOrTx } from '../../db/client.ts';
import { dayTicketIdsOfQuota, exhibitionIdsInMuseum, languageIdsAmong, quotasByIds, resellerIdsAmong } from '../../db/repositories/catalog/refs.ts';
import { isValidDate, parseTimestamp } from '../time.ts';
import { categoryInputProblems } from './categories.ts';
import { hoursProblem, Problems, validZone } from './checks.ts';

type Rec = Record<string, unknown>;

export function museumRules(config: Config, m: Record<string, unknown>): string[] {
  const p = new Problems();
  p.text(config, 'title', m.title, true);
  p.text(config, 'sub_title', m.sub_title, false);
  p.text(config, 'description', m.description, false);
  if (!validZone(m.time_zone)) p.add('time_zone must be an IANA time zone such as Europe/Berlin');
  const week = m.opening_hours;
  if (!Array.isArray(week) || week.length !== 7 || week.some(hoursProblem)) {
    p.add('opening_hours must list 7 days (Monday first), each [open, close] in minutes with open < close, or null');
  }
  const ex = m.opening_exceptions;
  if (ex === null || typeof ex !== 'object' || Array.isArray(ex)) p.add('opening_exceptions must be an object keyed by date');
  else for (const [d, h] of Object.entries(ex)) if (!isValidDate(d) || hoursProblem(h)) p.add(`opening_exceptions.${d} is invalid`);
  if (m.location !== null && (typeof m.location !== 'object' || Array.isArray(m.location))) p.add('location must be an object');
  return p.list;
}

export function exhibitionRules(config: Config, x: Record<string, unknown>): string[] {
  const p = new Problems();
  p.text(config, 'title', x.title, true);
  p.text(config, 'sub_title', x.sub_title, false);
  p.text(config, 'description', x.description, false);
  p.bool('featured', x.featured);
  const frames = x.time_frames;
  if (!Array.isArray(frames)) p.add('time_frames must be a list');
  else
    frames.forEach((f: { start_at?: unknown; end_at?: unknown }, i) => {
      const s = typeof f?.start_at === 'string' ? parseTimestamp(f.start_at, config.zone) : null;
      const e = typeof f?.end_at === 'string' ? parseTimestamp(f.end_at, config.zone) : null;
      if (!s || !e || e <= s) p.add(`time_frames[${i}] needs start_at before end_at (ISO 8601)`);
    });
  return p.list;
}

export function quotaRules(q: Record<string, unknown>): string[] {
  const p = new Problems();
  if (typeof q.name !== 'string' || q.name.trim() === '' || q.name.length > 200) p.add("name can't be blank (at most 200 characters)");
  p.oneOf('kind', q.kind, ['slot', 'day']);
  p.int('capacity', q.capacity, 0, 1_000_000);
  return p.list;
}

/** Price and channel fields shared by tickets, events and tours. */
export function sellableRules(config: Config, s: Record<string, unknown>, p: Problems): void {
  p.text(config, 'title', s.title, true);
  p.text(config, 'sub_title', s.sub_title, false);
  p.text(config, 'description', s.description, false);
  p.int('price_cents', s.price_cents, 0, 100_000_000);
  p.int('reseller_price_cents', s.reseller_price_cents, 0, 100_000_000, true);
  if (typeof s.vat_pct !== 'number' || !Number.isFinite(s.vat_pct) || s.vat_pct < 0 || s.vat_pct > 100) p.add('vat_pct must be between 0 and 100');
  p.bool('tax_included', s.tax_included);
  p.bool('active', s.active);
  p.channels(s.sales_channels, s.reseller_account_ids);
}

export function ticketRules(config: Config, t: Rec): string[] {
  const p = new Problems();
  sellableRules(config, t, p);
  p.oneOf('ticket_type', t.ticket_type, ['time_slot', 'normal']);
  p.int('discount', t.discount, 0, 100);
  p.int('first_entry', t.first_entry, 0, 1439);
  p.int('last_entry', t.last_entry, 0, 1439);
  if (typeof t.first_entry === 'number' && typeof t.last_entry === 'number' && t.last_entry < t.first_entry) {
    p.add('last_entry must not be before first_entry');
  }
  if (t.ticket_type === 'time_slot') p.int('entry_duration', t.entry_duration, 15, 720);
  else if (t.entry_duration !== null) p.add('entry_duration is only allowed for time_slot tickets');
  p.int('min_persons', t.min_persons, 1, 100_000);
  p.int('max_persons', t.max_persons, 1, 100_000);
  if (typeof t.min_persons === 'number' && typeof t.max_persons === 'number' && t.max_persons < t.min_persons) {
    p.add('max_persons must not be below min_persons');
  }
  p.oneOf('attendees', t.attendees, ['none', 'optional', 'required']);
  p.date('valid_from', t.valid_from);
  p.date('valid_until', t.valid_until);
  if (typeof t.valid_from === 'string' && typeof t.valid_until === 'string' && t.valid_until < t.valid_from) {
    p.add('valid_until must not be before valid_from');
  }
  p.ids('exhibition_ids', t.exhibition_ids);
  p.ids('quota_ids', t.quota_ids);
  return p.list;
}

export function eventRules(config: Config, e: Rec): string[] {
  const p = new Problems();
  sellableRules(config, e, p);
  p.int('exhibition_id', e.exhibition_id, 1, undefined, true);
  p.bool('featured', e.featured);
  for (const m of categoryInputProblems(e.category)) p.add(m);
  return p.list;
}

export function eventDateRules(zone: string, d: Rec): string[] {
  const p = new Problems();
  if (typeof d.start_time !== 'string' || !parseTimestamp(d.start_time, zone)) p.add('start_time must be an ISO 8601 date-time');
  p.int('duration', d.duration, 1, 1440);
  p.int('seats_max', d.seats_max, 0, 1_000_000);
  p.int('seats_min', d.seats_min, 1, 1_000_000);
  p.int('max_per_registration', d.max_per_registration, 1, 1_000_000, true);
  if (typeof d.seats_min === 'number' && typeof d.seats_max === 'number' && d.seats_min > Math.max(d.seats_max, 1)) {
    p.add('seats_min must not exceed seats_max');
  }
  p.int('language_id', d.language_id, 1, undefined, true);
  p.bool('active', d.active);
  return p.list;
}

export function tourRules(config: Config, t: Rec): string[] {
  const p = new Problems();
  sellableRules(config, t, p);
  p.int('exhibition_id', t.exhibition_id, 1, undefined, true);
  p.bool('featured', t.featured);
  p.int('duration', t.duration, 15, 720);
  p.int('min_persons', t.min_persons, 1, 10_000);
  p.int('max_persons', t.max_persons, 1, 10_000);
  if (typeof t.min_persons === 'number' && typeof t.max_persons === 'number' && t.max_persons < t.min_persons) {
    p.add('max_persons must not be below min_persons');
  }
  p.int('max_concurrent', t.max_concurrent, 1, 1000);
  p.int('step', t.step, 5, 720);
  p.int('window_start', t.window_start, 0, 1439);
  p.int('window_end', t.window_end, 1, 1440);
  if (typeof t.window_start === 'number' && typeof t.window_end === 'number' && t.window_end <= t.window_start) {
    p.add('window_end must be after window_start');
  }
  p.oneOf('pricing', t.pricing, ['group', 'person']);
  p.ids('language_ids', t.language_ids);
  for (const m of categoryInputProblems(t.category)) p.add(m);
  return p.list;
}

// ---- rules that look at other records (run inside the write's transaction) ----

/** Exhibitions must exist and belong to the product's museum. */
export async function exhibitionRefs(db: DbOrTx, museumId: number, ids: number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const ok = await exhibitionIdsInMuseum(db, museumId, ids);
  return ids.filter((id) => !ok.has(id)).map((id) => `exhibition ${id} does not exist in museum ${museumId}`);
}

/** Quotas must be in the ticket's museum; a day ticket ('normal') may only draw from day quotas. */
export async function quotaRefs(db: DbOrTx, museumId: number, ticketType: unknown, ids: number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await quotasByIds(db, ids);
  const byId = new Map(found.map((q) => [q.id, q]));
  const out: string[] = [];
  for (const id of ids) {
    const q = byId.get(id);
    if (!q || q.museumId !== museumId) out.push(`quota ${id} does not exist in museum ${museumId}`);
    else if (ticketType === 'normal' && q.kind !== 'day') out.push(`quota ${id} is a slot quota; a day ticket may only draw from day quotas`);
  }
  return out;
}

/** A quota turned into a slot quota must not feed day tickets. */
export async function quotaKindRefs(db: DbOrTx, quotaId: number, kind: unknown): Promise<string[]> {
  if (kind !== 'slot') return [];
  const dayTickets = await dayTicketIdsOfQuota(db, quotaId);
  return dayTickets.map((id) => `day ticket ${id} draws from this quota, so it must stay a day quota`);
}

export async function languageRefs(db: DbOrTx, ids: number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await languageIdsAmong(db, ids);
  return ids.filter((id) => !found.has(id)).map((id) => `language ${id} is unknown`);
}

export async function resellerRefs(db: DbOrTx, ids: number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const ok = await resellerIdsAmong(db, ids);
  return ids.filter((id) => !ok.has(id)).map((id) => `reseller account ${id} is unknown`);
}
