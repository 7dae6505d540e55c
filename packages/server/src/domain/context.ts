// Everything a domain verb needs, passed explicitly: the database (pool handle or transaction),
// the caller, the clock and the instance settings. Verbs are `verb(ctx, input)`.
import type { Config } from '../config.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import type { Clock } from './clock.ts';
import type { Principal } from './principal.ts';

export interface Ctx {
  db: DbOrTx;
  principal: Principal;
  clock: Clock;
  config: Config;
  /**
   * Per-process memo of master-data rows (src/cache/masterData.ts), kept correct across nodes by
   * LISTEN/NOTIFY. Absent (tests, tools, caches off) = read through every time. Only for reads
   * of rows no booking writes; never inside a transaction that changes master data.
   */
  masterData?: MasterDataMemo;
  /**
   * The sales channel when the caller sells in person (the console's box office): a running slot
   * is sold there until its end (schedules/saleWindow.ts). Absent for everything else.
   */
  channel?: 'desk';
  /**
   * Test-only switches (never set from the environment in production code paths).
   * disableEntryLocks: scans store without their compare-and-set (the entry race's control run).
   * disableHoldLimitLock: hold limits are checked without the account's lock (its control run).
   * disablePaymentLocks: refunds neither lock the order's payments nor reserve their amount
   * (the refund race's control run, test/payments/refund-race.test.ts).
   * disableGiftCardGuard: a gift card is debited by writing the balance read before, without the
   * conditional update (the control run of test/multinode/gift-card-race.test.ts).
   */
  testing?: { disableCapacityLocks?: boolean; disableEntryLocks?: boolean; disableHoldLimitLock?: boolean; disablePaymentLocks?: boolean; disableGiftCardGuard?: boolean; unguardedPromoUses?: boolean; unguardedGiftCardVoid?: boolean };
}

export interface MasterDataMemo {
  /**
   * The value under `key`, loading (and keeping) it when absent. Values are shared: a caller may
   * only add to one what it read from the same catalogue version (a date list fills in the rows
   * of its pages, db/repositories/catalog/datesPages.ts), never change what is there. `bytes`: the value's size, for
   * values that are not a few small rows; those are bounded apart (src/cache/masterData.ts).
   */
  memo<T>(key: string, load: () => Promise<T>, bytes?: (value: T) => number): Promise<T>;
  /** Whether values are kept now (false while the change listener is down: each read loads). */
  readonly keeping: boolean;
}

/** Reads master data through the process memo when there is one. */
export function masterData<T>(ctx: Pick<Ctx, 'masterData'>, key: string, load: () => Promise<T>, bytes?: (value: T) => number): Promise<T> {
  return ctx.masterData ? ctx.masterData.memo(key, load, bytes) : load();
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
