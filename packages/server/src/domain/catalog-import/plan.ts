// The validated, normalised form of a catalogue file: database values per record, references
// still by key (ids are only known while applying). Produced by validateCatalogue, consumed by
// applyCatalogue. Every optional field is spelled out with its default, because the file is
// declarative: a field removed from the file returns to its default on the next import.
// What the file does not name at all is left alone (apply.ts; --prune is prune.ts).
import type { eventDates, events, exhibitions, museums, quotas, tickets, tours, WeeklyHours } from '../../db/schema/index.ts';
import { isValidDate } from '../time.ts';
import type { Path } from './source.ts';

type Values<T extends { $inferInsert: unknown }, Omitted extends string> = Omit<
  T['$inferInsert'],
  Omitted | 'id' | 'createdAt' | 'updatedAt'
>;

export interface Plan {
  languages: Array<{ code: string; name: string }>;
  museums: Array<{
    key: string;
    values: Values<typeof museums, never>;
    /** The museum's opening seasons, or null when the file does not give them (then left alone). */
    seasons: Array<{ startDate: string; endDate: string; hours: WeeklyHours }> | null;
  }>;
  closures: Array<{
    key: string;
    museum: string;
    tickets: string[];
    quotas: string[];
    events: string[];
    tours: string[];
    values: { startDate: string; endDate: string; startTime: number | null; endTime: number | null; reason: string | null };
  }>;
  exhibitions: Array<{ key: string; museum: string; values: Values<typeof exhibitions, 'museumId'> }>;
  quotas: Array<{
    key: string;
    museum: string;
    values: Values<typeof quotas, 'museumId'>;
    overrides: Array<{ date: string; capacity: number | null }>;
  }>;
  tickets: Array<{
    key: string;
    museum: string;
    exhibitions: string[];
    quotas: string[];
    values: Values<typeof tickets, 'museumId' | 'exhibitionIds'>;
  }>;
  events: Array<{
    key: string;
    museum: string;
    exhibition: string | null;
    /** Category name, or null (apply.ts finds or creates it). */
    category: string | null;
    values: Values<typeof events, 'museumId' | 'exhibitionId' | 'categoryId'>;
    dates: Array<{
      key: string;
      language: string | null;
      values: Values<typeof eventDates, 'eventId' | 'languageId'>;
      /** Every date of a rule (schedules/recurrence.ts), each keyed by its start like a single date. */
      recurrence?: { rrule: string; startDate: string | null; startMinutes: number };
    }>;
  }>;
  tours: Array<{
    key: string;
    museum: string;
    exhibition: string | null;
    languages: string[];
    category: string | null;
    values: Values<typeof tours, 'museumId' | 'exhibitionId' | 'categoryId'>;
  }>;
  /** Reseller account ids named by products, checked against the database before applying. */
  resellerRefs: Array<{ path: Path; id: number }>;
  /** Time zone of each museum key. */
  zones: Map<string, string>;
}

export function emptyPlan(): Plan {
  return { languages: [], museums: [], exhibitions: [], quotas: [], tickets: [], events: [], tours: [], closures: [], resellerRefs: [], zones: new Map() };
}

/** Collects issues; `at(path)` binds a record's path so rule code stays short. */
export class Issues {
  readonly list: Array<{ path: Path; message: string; atKey?: boolean }> = [];
  add(path: Path, message: string, atKey = false): void {
    this.list.push({ path, message, ...(atKey ? { atKey } : {}) });
  }
  at(base: Path) {
    return (sub: Path, message: string) => this.add([...base, ...sub], message);
  }
}

const CLOCK_RE = /^(\d{1,2}):(\d{2})$/;

/**
 * "HH:MM" or an integer number of minutes → minutes. `max` bounds the result (1440 allows
 * "24:00" as a closing time). Returns null when it is neither.
 */
export function parseClock(v: string | number, max = 1439): number | null {
  let n: number;
  if (typeof v === 'number') n = v;
  else {
    const m = CLOCK_RE.exec(v.trim());
    if (!m || Number(m[2]) > 59) return null;
    n = Number(m[1]) * 60 + Number(m[2]);
  }
  return Number.isInteger(n) && n >= 0 && n <= max ? n : null;
}

/** "10:00-18:00" → [600, 1080]; null or "closed" → null; anything else → undefined (invalid). */
export function parseHours(v: string | null): [number, number] | null | undefined {
  if (v === null || v.trim().toLowerCase() === 'closed') return null;
  const [a, b, ...rest] = v.split('-');
  if (a === undefined || b === undefined || rest.length) return undefined;
  const open = parseClock(a);
  const close = parseClock(b, 1440);
  return open !== null && close !== null && open < close ? [open, close] : undefined;
}

export function checkDate(report: (sub: Path, m: string) => void, sub: Path, v: string | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  if (!isValidDate(v)) {
    report(sub, `"${v}" is not a date: use YYYY-MM-DD`);
    return null;
  }
  return v;
}
