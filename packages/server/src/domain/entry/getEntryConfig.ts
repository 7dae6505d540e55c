// GET /entry/config (go~mus entry API): the scanner device's settings. go~mus configures entry
// zones; Atrium has none, so this is the calling account (id, name) with what a scanner or the
// /scan page needs: the museums it may admit to, the door's display language, the default entry
// window and how far a device clock may run ahead (docs/adr/0017-entry-control.md).
import { museumsForDoor } from '../../db/repositories/entry.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { doorLocale, titleIn } from './internal.ts';
import { DEFAULT_EARLY_MINUTES, MAX_CLOCK_SKEW_MS } from './rules.ts';

export async function getEntryConfig(ctx: Ctx) {
  const p = ctx.principal;
  if (p.kind !== 'account') throw invalid('the entry config needs a token');
  const locale = doorLocale(ctx.config);
  // An empty scope is every museum of the instance (staff tokens without a museum list).
  const rows = await museumsForDoor(ctx.db, p.museumIds.length > 0 ? p.museumIds : null);
  return {
    id: p.accountId,
    name: p.accountName,
    settings: {
      museums: rows.map((m) => ({ id: m.id, name: titleIn(m.title, locale), time_zone: m.zone })),
      locale,
      early_minutes: DEFAULT_EARLY_MINUTES,
      max_clock_skew_seconds: MAX_CLOCK_SKEW_MS / 1000,
    },
  };
}
