// The jobs that talk to the outside world (webhook deliveries, visitor mails). They wait on the
// network, not the CPU, so the worker (worker.ts) runs NOTIFY_CONCURRENCY more jobs at once for
// them: receivers that hang for their full timeout do not starve document rendering.
import type { TaskList } from 'graphile-worker';
import type { Ctx } from '../domain/context.ts';
import { sendMail } from '../notify/mail/sendMail.ts';
import { deliverWebhook } from '../notify/webhooks/deliver.ts';
import { TASKS } from '../db/repositories/jobQueue.ts';

function numberField(payload: unknown, name: string): number {
  const v = (payload as Record<string, unknown> | null)?.[name];
  if (!Number.isInteger(v)) throw new Error(`job payload has no ${name}`);
  return v as number;
}

export const NOTIFY_CONCURRENCY = 4;

export function notifyTaskList(ctx: Ctx): TaskList {
  return {
    [TASKS.deliverWebhook]: async (payload, helpers) => {
      await deliverWebhook(ctx, { deliveryId: numberField(payload, 'deliveryId') }, { warn: (obj, msg) => helpers.logger.warn(msg, obj as Record<string, unknown>) });
    },
    [TASKS.sendMail]: async (payload, helpers) => {
      const waits = Number((payload as { waits?: unknown } | null)?.waits) || 0;
      await sendMail(ctx, { mailId: numberField(payload, 'mailId'), waits }, {
        warn: (obj, msg) => helpers.logger.warn(msg, obj as Record<string, unknown>),
        error: (obj, msg) => helpers.logger.error(msg, obj as Record<string, unknown>),
      });
    },
  };
}
