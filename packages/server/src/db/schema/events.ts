// The outbox and what leaves the service from it (migration 0017, docs/webhooks.md): events
// written in the transaction of the change they report, webhook endpoints with their deliveries
// and attempts, and mails (one per event and kind).
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';

export const outboxEvents = pgTable(
  'outbox_events',
  {
    /** `evt_` + 32 hex digits; the Standard Webhooks `webhook-id` of every delivery of it. */
    id: text().primaryKey().default(sql`('evt_' || replace(gen_random_uuid()::text, '-', ''))`),
    /** Commit-independent order of recording, for the dispatcher. */
    seq: bigint({ mode: 'number' }).generatedAlwaysAsIdentity(),
    type: text().notNull(),
    /** The owning account (orders, requests): the only reseller that receives the event. */
    accountId: integer(),
    /** Museums the event concerns: user endpoints receive it within their museum scope. */
    museumIds: integer().array().notNull().default(sql`'{}'::integer[]`),
    /** What `data` is rendered from at dispatch when the writer did not give it. */
    subjectType: text(),
    subjectId: integer(),
    /** The body's `data`; fixed once (at dispatch at the latest) so every delivery is identical. */
    data: jsonb(),
    /**
     * The subject's rows when the recording transaction committed (src/db/sql/events_snapshot.sql;
     * domain/orders/snapshot.ts).
     */
    snapshot: jsonb(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    dispatchPending: boolean().notNull().default(true),
  },
  (t) => [
    uniqueIndex('outbox_events_seq').on(t.seq),
    index('outbox_events_pending').on(t.seq).where(sql`${t.dispatchPending}`),
    index('outbox_events_subject').on(t.subjectType, t.subjectId),
    uniqueIndex('outbox_events_order_expired_once').on(t.subjectId).where(sql`${t.type} = 'order.expired'`),
  ],
);

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: serial().primaryKey(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id),
    url: text().notNull(),
    events: text().array().notNull(),
    description: text(),
    /** The signing secret, encrypted at rest (src/domain/webhooks/secrets.ts). */
    secretEnc: text().notNull(),
    secretLast4: text().notNull(),
    enabled: boolean().notNull().default(true),
    disabledReason: text(),
    disabledAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
    deletedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('webhook_endpoints_account').on(t.accountId)],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serial().primaryKey(),
    endpointId: integer()
      .notNull()
      .references(() => webhookEndpoints.id),
    eventId: text()
      .notNull()
      .references(() => outboxEvents.id),
    /** pending | succeeded | failed (gave up) */
    status: text().notNull().default('pending'),
    attemptCount: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }),
    /** Claimed by a sender until then (migration 0022): no other job sends it meanwhile. */
    sendingUntil: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('webhook_deliveries_endpoint_event').on(t.endpointId, t.eventId)],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: serial().primaryKey(),
    deliveryId: integer()
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    /** 1, 2, … per delivery, unique: one send per attempt number (migration 0022). */
    attemptNo: integer().notNull(),
    attemptedAt: timestamp({ withTimezone: true }).notNull(),
    /** Null while the attempt is in flight (claimed, not answered yet). */
    durationMs: integer(),
    statusCode: integer(),
    error: text(),
    responseExcerpt: text(),
  },
  (t) => [index('webhook_attempts_delivery').on(t.deliveryId), uniqueIndex('webhook_attempts_delivery_attempt').on(t.deliveryId, t.attemptNo)],
);

export const mailMessages = pgTable(
  'mail_messages',
  {
    id: serial().primaryKey(),
    eventId: text()
      .notNull()
      .references(() => outboxEvents.id),
    /** order_confirmation | order_cancellation | request_received | request_accepted | request_declined | payment_returned */
    kind: text().notNull(),
    recipient: text().notNull(),
    locale: text().notNull(),
    /** pending | sent | failed */
    status: text().notNull().default('pending'),
    attemptCount: integer().notNull().default(0),
    lastError: text(),
    messageId: text(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('mail_messages_event_kind').on(t.eventId, t.kind)],
);

/** Per-account switches; no row = defaults (mail on). */
export const accountNotifySettings = pgTable('account_notify_settings', {
  accountId: integer()
    .primaryKey()
    .references(() => accounts.id),
  mailEnabled: boolean().notNull().default(true),
});
