// Statements of webhook endpoints, their deliveries and attempts, and accounts' notification
// switches.
import { and, asc, count, desc, eq, getTableColumns, inArray, isNull, like } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { accountNotifySettings, accounts, outboxEvents, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../schema/index.ts';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type NewEndpoint = typeof webhookEndpoints.$inferInsert;
export type AttemptRow = typeof webhookAttempts.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect & { eventType: string };

const live = (accountId: number) => and(eq(webhookEndpoints.accountId, accountId), isNull(webhookEndpoints.deletedAt));

/** A live (not deleted) endpoint of the account, optionally locked FOR UPDATE. */
export async function liveEndpoint(db: DbOrTx, accountId: number, id: number, forUpdate = false): Promise<EndpointRow | null> {
  const q = db.select().from(webhookEndpoints).where(and(eq(webhookEndpoints.id, id), live(accountId)));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

export async function countLiveEndpoints(db: DbOrTx, accountId: number): Promise<number> {
  const [n] = await db.select({ n: count() }).from(webhookEndpoints).where(live(accountId));
  return n?.n ?? 0;
}

export async function pageOfEndpoints(db: DbOrTx, accountId: number, page: { limit: number; offset: number }): Promise<{ rows: EndpointRow[]; total: number }> {
  const [rows, [total]] = await Promise.all([
    db.select().from(webhookEndpoints).where(live(accountId)).orderBy(asc(webhookEndpoints.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(webhookEndpoints).where(live(accountId)),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function insertEndpoint(db: DbOrTx, values: NewEndpoint): Promise<EndpointRow> {
  const [row] = await db.insert(webhookEndpoints).values(values).returning();
  return row!;
}

export async function updateEndpoint(db: DbOrTx, id: number, changes: Partial<NewEndpoint>): Promise<EndpointRow> {
  const [row] = await db.update(webhookEndpoints).set(changes).where(eq(webhookEndpoints.id, id)).returning();
  return row!;
}

/** Marks a live endpoint deleted and disabled; its row stays for the deliveries log. */
export async function deleteEndpoint(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({ deletedAt: now, enabled: false, updatedAt: now })
    .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt)));
}

const deliveryColumns = { ...getTableColumns(webhookDeliveries), eventType: outboxEvents.type };

/** A page of an endpoint's deliveries, newest first, with the total. */
export async function pageOfDeliveries(db: DbOrTx, endpointId: number, page: { limit: number; offset: number }): Promise<{ rows: DeliveryRow[]; total: number }> {
  const where = eq(webhookDeliveries.endpointId, endpointId);
  const [rows, [total]] = await Promise.all([
    db
      .select(deliveryColumns)
      .from(webhookDeliveries)
      .innerJoin(outboxEvents, eq(outboxEvents.id, webhookDeliveries.eventId))
      .where(where)
      .orderBy(desc(webhookDeliveries.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(webhookDeliveries).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function deliveryOfEndpoint(db: DbOrTx, endpointId: number, deliveryId: number): Promise<DeliveryRow | null> {
  const [row] = await db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .innerJoin(outboxEvents, eq(outboxEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)));
  return row ?? null;
}

/** The attempts of deliveries, id ascending. */
export async function attemptsOf(db: DbOrTx, deliveryIds: number[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, deliveryIds)).orderBy(asc(webhookAttempts.id));
}

/** A delivery pending again from now, with its attempts counted anew. */
export async function rearmDelivery(db: DbOrTx, deliveryId: number, now: Date): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: 'pending', attemptCount: 0, nextAttemptAt: now, updatedAt: now })
    .where(eq(webhookDeliveries.id, deliveryId));
}

/** An event that is already dispatched (it reaches only the deliveries made for it). */
export async function insertDispatchedEvent(db: DbOrTx, values: Omit<typeof outboxEvents.$inferInsert, 'dispatchPending'>): Promise<void> {
  await db.insert(outboxEvents).values({ ...values, dispatchPending: false });
}

export async function insertDelivery(db: DbOrTx, endpointId: number, eventId: string, now: Date): Promise<number> {
  const [d] = await db.insert(webhookDeliveries).values({ endpointId, eventId, createdAt: now, updatedAt: now }).returning({ id: webhookDeliveries.id });
  return d!.id;
}

/** The account and its mail switch (null: no row, the defaults). */
export async function accountMailSwitch(db: DbOrTx, accountId: number): Promise<{ id: number; mail: boolean | null } | null> {
  const [row] = await db
    .select({ id: accounts.id, mail: accountNotifySettings.mailEnabled })
    .from(accounts)
    .leftJoin(accountNotifySettings, eq(accountNotifySettings.accountId, accounts.id))
    .where(eq(accounts.id, accountId));
  return row ?? null;
}

export async function setAccountMailSwitch(db: DbOrTx, accountId: number, mailEnabled: boolean): Promise<void> {
  await db
    .insert(accountNotifySettings)
    .values({ accountId, mailEnabled })
    .onConflictDoUpdate({ target: accountNotifySettings.accountId, set: { mailEnabled } });
}

/** Endpoints whose secret an older version stored in the clear (`plain:`). */
export async function endpointsWithClearSecrets(db: DbOrTx): Promise<Array<{ id: number; secretEnc: string }>> {
  return db
    .select({ id: webhookEndpoints.id, secretEnc: webhookEndpoints.secretEnc })
    .from(webhookEndpoints)
    .where(like(webhookEndpoints.secretEnc, 'plain:%'));
}

/** Replaces an endpoint's stored secret if it is still `old` (a concurrent rotation wins). */
export async function replaceSecretIfUnchanged(db: DbOrTx, id: number, old: string, next: string): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({ secretEnc: next })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.secretEnc, old)));
}
