// The periodic jobs (docs/operations.md, "Background jobs"). graphile-worker records each tick in
// its known_crontabs table, so several nodes running workers still enqueue one job per tick.
// - the document retention purge at minute 17 of every hour;
// - the sweep of expired holds and pending orders every 5 minutes (ADR 0011);
// - the purge of expired Idempotency-Key answers at minute 43 of every hour: expired keys already
//   count as absent, so this only reclaims space, but without it the table grows forever;
// - the purge of ended console sessions and old sign-in attempts at minute 29 (the same reason);
// - every minute, payments still open on a provider's page are asked about (docs/payments.md);
// - at 03:07 every day, what is left on gift cards past their end is written off (docs/vouchers.md).
import type { CronItem } from 'graphile-worker';
import { TASKS } from '../db/repositories/jobQueue.ts';

export const CRON_ITEMS: Array<CronItem & { identifier: string }> = [
  { task: TASKS.purgeDocuments, match: '17 * * * *', identifier: 'documents-purge' },
  { task: TASKS.sweepAllocations, match: '*/5 * * * *', identifier: 'capacity-sweep' },
  { task: TASKS.purgeIdempotencyKeys, match: '43 * * * *', identifier: 'idempotency-purge' },
  { task: TASKS.purgeStaffSessions, match: '29 * * * *', identifier: 'staff-sessions-purge' },
  { task: TASKS.reconcilePayments, match: '* * * * *', identifier: 'payments-reconcile' },
  { task: TASKS.expireGiftCards, match: '7 3 * * *', identifier: 'gift-cards-expire' },
];
