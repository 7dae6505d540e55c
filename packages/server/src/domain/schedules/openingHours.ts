// GET|PUT /museums/:id/schedule (docs/api-contract.md §13): a museum's weekly hours, dated seasons that replace
// them for a period, and single-date exceptions, in the catalogue file's notation ("10:00-18:00"
// or "closed"). A PUT replaces the parts it names and leaves the others. Weekly hours and
// exceptions live on the museum row, seasons in opening_seasons (migration 0012).
import type { DbOrTx } from '../../db/client.ts';
import { museumForSchedule, replaceSeasons, seasonsOfMuseum, setMuseumHours, type Museum } from '../../db/repositories/schedules/hours.ts';
import type { WeeklyHours } from '../../db/schema/index.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { assertStaff, failIfAny } from '../catalog/writeSupport.ts';
import { inMuseumScope } from '../principal.ts';
import { isValidDate } from '../time.ts';
import { clock, parseClock } from './closureInput.ts';
import { lockSchedule } from '../../db/repositories/schedules/closures.ts';
import type { Hours } from './schedule.ts';

export const WEEKDAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
type Week = Partial<Record<(typeof WEEKDAY_NAMES)[number], string>>;

export interface ScheduleInput {
  weekly?: Week;
  seasons?: Array<{ start_date: string; end_date: string; hours: Week }>;
  exceptions?: Record<string, string>;
}

const MAX_SEASONS = 100;
const MAX_EXCEPTIONS = 1000;

/** "10:00-18:00" → [600, 1080]; "closed" → null; undefined when invalid (00:00–24:00, begin < end). */
export function parseHours(v: unknown): Hours | undefined {
  if (v === 'closed') return null;
  if (typeof v !== 'string') return undefined;
  const [a, b, ...rest] = v.split('-');
  if (a === undefined || b === undefined || rest.length) return undefined;
  const from = parseClock(a.trim());
  const to = parseClock(b.trim());
  return from !== undefined && to !== undefined && from < to ? [from, to] : undefined;
}

const show = (h: Hours | undefined) => (h ? `${clock(h[0])}-${clock(h[1])}` : 'closed');
const showWeek = (w: WeeklyHours) => Object.fromEntries(WEEKDAY_NAMES.map((d, i) => [d, show(w[i])]));

function weekOf(problems: string[], field: string, w: Week | undefined, base: WeeklyHours): WeeklyHours {
  if (w === undefined) return base;
  if (w === null || typeof w !== 'object') {
    problems.push(`${field} must be an object keyed by weekday`);
    return base;
  }
  for (const k of Object.keys(w)) if (!(WEEKDAY_NAMES as readonly string[]).includes(k)) problems.push(`${field}.${k} is not a weekday (monday … sunday)`);
  return WEEKDAY_NAMES.map((d, i) => {
    if (w[d] === undefined) return base[i] ?? null;
    const h = parseHours(w[d]);
    if (h === undefined) problems.push(`${field}.${d}: "${w[d]}" is not opening hours: use "10:00-18:00" (00:00-24:00, begin before end) or "closed"`);
    return h ?? null;
  });
}

export interface ScheduleView {
  weekly: Record<string, string>;
  seasons: Array<{ start_date: string; end_date: string; hours: Record<string, string> }>;
  exceptions: Record<string, string>;
}

async function view(db: DbOrTx, m: Museum): Promise<ScheduleView> {
  const seasons = await seasonsOfMuseum(db, m.id);
  return {
    weekly: showWeek(m.openingHours),
    seasons: seasons.map((s) => ({ start_date: s.startDate, end_date: s.endDate, hours: showWeek(s.hours) })),
    exceptions: Object.fromEntries(Object.entries(m.openingExceptions ?? {}).sort().map(([d, h]) => [d, show(h)])),
  };
}

async function museumIn(ctx: Ctx, db: DbOrTx, id: number, lock: boolean) {
  const m = await museumForSchedule(db, id, lock);
  if (!m || !inMuseumScope(ctx.principal, m.id)) throw notFound('museum');
  return m;
}

export async function getSchedule(ctx: Ctx, id: number): Promise<ScheduleView> {
  assertStaff(ctx);
  return view(ctx.db, await museumIn(ctx, ctx.db, id, false));
}

export async function setSchedule(ctx: Ctx, id: number, input: ScheduleInput): Promise<ScheduleView> {
  assertStaff(ctx);
  return transaction(ctx.db, async (tx) => {
    const m = await museumIn(ctx, tx, id, true);
    await lockSchedule(tx, m.id);
    const problems: string[] = [];
    const weekly = weekOf(problems, 'weekly', input.weekly, m.openingHours);
    let exceptions = m.openingExceptions ?? {};
    if (input.exceptions !== undefined) {
      exceptions = {};
      const entries = Object.entries(input.exceptions ?? {});
      if (entries.length > MAX_EXCEPTIONS) problems.push(`exceptions: at most ${MAX_EXCEPTIONS} dates`);
      for (const [date, v] of entries) {
        const h = parseHours(v);
        if (!isValidDate(date)) problems.push(`exceptions.${date} is not a date (YYYY-MM-DD)`);
        else if (h === undefined) problems.push(`exceptions.${date}: "${v}" is not opening hours: use "10:00-18:00" or "closed"`);
        else exceptions[date] = h;
      }
    }
    const seasons = (input.seasons ?? []).map((s, i) => {
      const f = `seasons[${i}]`;
      if (!isValidDate(s.start_date)) problems.push(`${f}.start_date must be a date (YYYY-MM-DD)`);
      if (!isValidDate(s.end_date)) problems.push(`${f}.end_date must be a date (YYYY-MM-DD)`);
      else if (isValidDate(s.start_date) && s.end_date < s.start_date) problems.push(`${f}.end_date must not be before start_date`);
      const hours = weekOf(problems, `${f}.hours`, s.hours ?? {}, [null, null, null, null, null, null, null]);
      return { museumId: m.id, startDate: s.start_date, endDate: s.end_date, hours };
    });
    if (seasons.length > MAX_SEASONS) problems.push(`seasons: at most ${MAX_SEASONS}`);
    const sorted = seasons.map((s, i) => ({ ...s, i })).sort((a, b) => (a.startDate < b.startDate ? -1 : 1));
    for (let k = 1; k < sorted.length; k++) {
      if (sorted[k]!.startDate <= sorted[k - 1]!.endDate) problems.push(`seasons[${sorted[k]!.i}] overlaps seasons[${sorted[k - 1]!.i}]`);
    }
    failIfAny('opening hours', problems);
    const row = await setMuseumHours(tx, m.id, weekly, exceptions, ctx.clock.now());
    if (input.seasons !== undefined) await replaceSeasons(tx, m.id, seasons);
    return view(tx, row);
  });
}
