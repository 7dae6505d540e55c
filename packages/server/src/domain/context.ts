// Everything a domain verb needs, passed explicitly: the database (pool handle or transaction),
// the caller, the clock and the instance settings. Verbs are `verb(ctx, input)`.
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Clock } from './clock.ts';
import type { Principal } from './principal.ts';

export interface Ctx {
  db: Db;
  principal: Principal;
  clock: Clock;
  config: Config;
  /** Test-only switches (never set from the environment in production code paths). */
  testing?: { disableCapacityLocks?: boolean };
}

/** A context for system work (CLI, jobs) that acts with full rights. */
export function systemCtx(base: Omit<Ctx, 'principal'>): Ctx {
  return {
    ...base,
    principal: {
      kind: 'account',
      accountId: 0,
      accountName: 'system',
      access: 'user',
      museumIds: [],
      rights: new Set(['*']),
      tokenId: 0,
      tokenLast4: '',
      rateLimitPerMinute: null,
    },
  };
}
