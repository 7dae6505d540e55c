// Visitors by museum-local hour over a date range, from the entry scans (domain/entry): people
// admitted by a valid entry scan, the same count GET /occupancy shows for today
// (entry/getOccupancy.ts). Exits are listed beside them; refused scans never count.
import { visitorsPerHour } from '../../db/repositories/reports.ts';
import type { Ctx } from '../context.ts';
import { rangeOf, reportScope, type ReportInput } from './range.ts';

export interface VisitorsRow {
  date: string;
  hour: number;
  entries: number;
  exits: number;
}
export interface VisitorsReport {
  from: string;
  to: string;
  /** Per day and hour, only hours with scans, in order. */
  rows: VisitorsRow[];
  /** Hours 0–23 summed over the range (all 24, zeros included). */
  by_hour: Array<{ hour: number; entries: number; exits: number }>;
  total: { entries: number; exits: number };
}

export async function visitorsReport(ctx: Ctx, input: ReportInput): Promise<VisitorsReport> {
  const scope = await reportScope(ctx, input);
  const rows = await visitorsPerHour(ctx.db, rangeOf(scope));
  const byHour = Array.from({ length: 24 }, (_, hour) => ({ hour, entries: 0, exits: 0 }));
  for (const x of rows) {
    byHour[x.hour]!.entries += x.entries;
    byHour[x.hour]!.exits += x.exits;
  }
  const total = { entries: rows.reduce((s, x) => s + x.entries, 0), exits: rows.reduce((s, x) => s + x.exits, 0) };
  return { from: scope.from, to: scope.to, rows, by_hour: byHour, total };
}
