// Claiming and recording one attempt of a webhook delivery (docs/adr/0023). Before the POST a
// sender claims the delivery under its row lock: it numbers the attempt (unique per delivery,
// migration 0022) and holds the delivery until `sending_until`. Another job for the same
// delivery (a manual retry while one is in flight, a second job left by a queue retry) finds
// it held and does not send; once the holder has written its outcome, or its claim has lapsed
// because it died, the delivery can be sent again. The claim uses the database's clock, so
// nodes with different clocks agree on when it lapses.
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../domain/context.ts';
import { transaction } from '../../db/transaction.ts';

export interface Claimed {
  id: number;
  attemptId: number;
  /** This attempt's number (1, 2, …; counts every attempt, also before a manual retry). */
  attemptNo: number;
  /** Attempts in the current retry schedule, this one included (a manual retry starts anew). */
  scheduled: number;
  endpointId: number;
  url: string;
  secretEnc: string;
  event: { id: string; type: string; subjectType: string | null; subjectId: number | null; data: Record<string, unknown> | null; snapshot: unknown; createdAt: Date };
}

/** Another sender holds the delivery: the job fails and the queue tries again later. */
export class DeliveryBusy extends Error {}

/**
 * A claim outlives the longest possible attempt: the address check, and the POST's timeout
 * extended once for a stall of this process (post.ts), so at most three timeouts, plus slack.
 */
export const claimMs = (timeoutMs: number) => 3 * timeoutMs + 5_000;

export async function claimDelivery(ctx: Ctx, deliveryId: number): Promise<Claimed | 'done' | 'endpoint gone'> {
  const hold = claimMs(ctx.config.notify.webhooksTimeoutMs);
  return transaction(ctx.db, async (tx) => {
    const [row] = (
      await tx.execute<Record<string, unknown>>(sql`
        select d.id, d.status, d.attempt_count, d.sending_until > now() as held, d.endpoint_id, e.url, e.secret_enc,
               e.enabled and e.deleted_at is null as live, v.id as event_id, v.type, v.subject_type, v.subject_id, v.data, v.snapshot, v.created_at
          from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id join outbox_events v on v.id = d.event_id
         where d.id = ${deliveryId} for update of d`)
    ).rows;
    if (!row || row.status !== 'pending') return 'done';
    const now = ctx.clock.now();
    if (!row.live) {
      await tx.execute(sql`update webhook_deliveries set status = 'failed', next_attempt_at = null, updated_at = ${now} where id = ${deliveryId}`);
      return 'endpoint gone';
    }
    if (row.held) throw new DeliveryBusy(`delivery ${deliveryId} is being sent by another job`);
    const [a] = (
      await tx.execute<{ id: number; attempt_no: number }>(sql`
        insert into webhook_attempts (delivery_id, attempt_no, attempted_at)
        select ${deliveryId}, coalesce(max(attempt_no), 0) + 1, ${now} from webhook_attempts where delivery_id = ${deliveryId}
        returning id, attempt_no`)
    ).rows;
    await tx.execute(sql`
      update webhook_deliveries set attempt_count = attempt_count + 1, sending_until = now() + ${`${hold} milliseconds`}::interval, updated_at = ${now}
       where id = ${deliveryId}`);
    return {
      id: deliveryId,
      attemptId: a!.id,
      attemptNo: a!.attempt_no,
      scheduled: (row.attempt_count as number) + 1,
      endpointId: row.endpoint_id as number,
      url: row.url as string,
      secretEnc: row.secret_enc as string,
      event: {
        id: row.event_id as string,
        type: row.type as string,
        subjectType: row.subject_type as string | null,
        subjectId: row.subject_id as number | null,
        data: row.data as Record<string, unknown> | null,
        snapshot: row.snapshot,
        createdAt: new Date(row.created_at as string),
      },
    };
  });
}
