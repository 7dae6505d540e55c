// Statements of the GDPR area: what is stored about one person (export), and the erasure that
// replaces every free text of theirs (customer, orders, attendees, requests, documents, stored
// answers, events and mails).
import { and, asc, eq, inArray, isNotNull, notInArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import {
  customerErasures, customers, documents, idempotencyKeys, mailMessages, orderItems, orders, outboxEvents, requests,
} from '../schema/index.ts';
import { metaColumns, type DocumentMetaRow } from './documents/documents.ts';
import { scopeWhere, type RecordScope } from './scope.ts';

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type RequestRow = typeof requests.$inferSelect;
export type ErasureRow = typeof customerErasures.$inferSelect;
export type OutboxEventRow = typeof outboxEvents.$inferSelect;

export interface CustomerRecordRows {
  orders: OrderRow[];
  items: OrderItemRow[];
  requests: RequestRow[];
  documents: DocumentMetaRow[];
}

/** Where each kind of record may be read from; 'all' = no scope (the erasure's view). */
export type PersonScopes = 'all' | { orders: RecordScope; requests: RecordScope; documents: RecordScope };

/** The orders and requests naming the customer, the items of those orders and the documents of both. */
export async function recordsOfCustomer(db: DbOrTx, customerId: number, scopes: PersonScopes): Promise<CustomerRecordRows> {
  const within = (scope: RecordScope | undefined, table: Parameters<typeof scopeWhere>[0]) => (scope ? scopeWhere(table, scope) : undefined);
  const s = scopes === 'all' ? undefined : scopes;
  const os = await db.select().from(orders).where(and(eq(orders.customerId, customerId), within(s?.orders, orders))).orderBy(asc(orders.id));
  const rs = await db.select().from(requests).where(and(eq(requests.customerId, customerId), within(s?.requests, requests))).orderBy(asc(requests.id));
  const orderIds = os.map((o) => o.id);
  const requestIds = rs.map((r) => r.id);
  const items = orderIds.length ? await db.select().from(orderItems).where(inArray(orderItems.orderId, orderIds)).orderBy(asc(orderItems.id)) : [];
  const owners = or(
    orderIds.length ? inArray(documents.orderId, orderIds) : sql`false`,
    requestIds.length ? inArray(documents.requestId, requestIds) : sql`false`,
  )!;
  const docs = orderIds.length + requestIds.length
    ? await db.select(metaColumns).from(documents).where(and(owners, within(s?.documents, documents))).orderBy(asc(documents.id))
    : [];
  return { orders: os, items, requests: rs, documents: docs };
}

/** How many orders and requests name the customer, whatever the scope. */
export async function countCustomerRecords(db: DbOrTx, customerId: number): Promise<{ orders: number; requests: number }> {
  const [n] = (await db.execute<{ o: number; r: number }>(sql`select
    (select count(*)::int from ${orders} where ${orders.customerId} = ${customerId}) o,
    (select count(*)::int from ${requests} where ${requests.customerId} = ${customerId}) r`)).rows;
  return { orders: n!.o, requests: n!.r };
}

export async function erasureOfCustomer(db: DbOrTx, customerId: number): Promise<ErasureRow | null> {
  const [row] = await db.select().from(customerErasures).where(eq(customerErasures.customerId, customerId));
  return row ?? null;
}

export async function insertErasure(db: DbOrTx, values: typeof customerErasures.$inferInsert): Promise<void> {
  await db.insert(customerErasures).values(values);
}

/** Deletes stored Idempotency-Key answers that carry the address or the customer id; returns how many. */
export async function deleteStoredAnswersNaming(db: DbOrTx, email: string, customerId: number): Promise<number> {
  const emailInJson = JSON.stringify(email).slice(1, -1);
  const gone = await db
    .delete(idempotencyKeys)
    .where(sql`strpos(${idempotencyKeys.responseBody}, ${emailInJson}) > 0
      or strpos(${idempotencyKeys.responseBody}, ${`"customer_id":${customerId},`}) > 0
      or strpos(${idempotencyKeys.responseBody}, ${`"customer_id":${customerId}}`}) > 0`)
    .returning({ key: idempotencyKeys.key });
  return gone.length;
}

/** The customer row with every field cleared but the placeholders for name, surname and email. */
export async function anonymiseCustomer(db: DbOrTx, customerId: number, erased: { name: string; email: string }, now: Date): Promise<void> {
  await db
    .update(customers)
    .set({
      foreignId: null, salutation: null, title: null, name: erased.name, surname: erased.name, email: erased.email,
      phone: null, institution: null, street: null, zip: null, city: null, country: null, locale: null, updatedAt: now,
    })
    .where(eq(customers.id, customerId));
}

/**
 * Clears the free texts of orders (comment, reference, and the client's foreign_id, which may be
 * any text); returns how many had a comment.
 */
export async function clearOrderTexts(db: DbOrTx, orderIds: number[], now: Date): Promise<number> {
  if (orderIds.length === 0) return 0;
  const commented = await db.select({ id: orders.id }).from(orders).where(and(inArray(orders.id, orderIds), isNotNull(orders.comment)));
  await db
    .update(orders)
    .set({ comment: null, reference: null, foreignId: null, updatedAt: now })
    .where(and(inArray(orders.id, orderIds), or(isNotNull(orders.comment), isNotNull(orders.reference), isNotNull(orders.foreignId))));
  return commented.length;
}

/** Replaces every attendee's name and surname on the orders' items by the placeholder. */
export async function anonymiseAttendees(db: DbOrTx, orderIds: number[], placeholder: string): Promise<void> {
  if (orderIds.length === 0) return;
  await db
    .update(orderItems)
    .set({ attendees: sql`(select coalesce(jsonb_agg(jsonb_build_object('name', ${placeholder}::text, 'surname', ${placeholder}::text)), '[]'::jsonb) from jsonb_array_elements(${orderItems.attendees}))` })
    .where(and(inArray(orderItems.orderId, orderIds), isNotNull(orderItems.attendees)));
}

/**
 * Clears the free texts of requests: contact, notes and the client's foreign_id; a decline
 * reason (staff text that may name the person) becomes the placeholder, so a declined request
 * still has one.
 */
export async function clearRequestTexts(db: DbOrTx, requestIds: number[], placeholder: string, now: Date): Promise<void> {
  if (requestIds.length === 0) return;
  await db
    .update(requests)
    .set({
      contact: null, notes: null, foreignId: null, updatedAt: now,
      declineReason: sql`case when ${requests.declineReason} is null then null else ${placeholder}::text end`,
    })
    .where(inArray(requests.id, requestIds));
}

/**
 * Wipes the bytes of documents (except the `keep` kinds) and renames uploads, whose names the
 * client chose; the generation bump makes a render job still running discard its result.
 * Returns how many were wiped.
 */
export async function wipeDocuments(db: DbOrTx, ids: number[], keep: string[], now: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const wiped = await db
    .update(documents)
    .set({
      content: null, status: 'expired', purgedAt: now, updatedAt: now, renderPending: false,
      generation: sql`${documents.generation} + 1`,
      filename: sql`case when ${documents.kind} = 'attachment' then 'erased' else ${documents.filename} end`,
    })
    .where(and(inArray(documents.id, ids), notInArray(documents.kind, keep)))
    .returning({ id: documents.id });
  return wiped.length;
}

const aboutSubjects = (ids: { orders: number[]; requests: number[]; documents: number[] }) => {
  const subject = (type: string, list: number[]) => (list.length ? and(eq(outboxEvents.subjectType, type), inArray(outboxEvents.subjectId, list)) : undefined);
  return or(subject('order', ids.orders), subject('request', ids.requests), subject('document', ids.documents));
};

/** Takes the order snapshots of the events about these records again, from the records as they are now. */
export async function resnapshotOrderEvents(db: DbOrTx, ids: { orders: number[]; requests: number[]; documents: number[] }): Promise<void> {
  const which = aboutSubjects(ids);
  if (!which) return;
  await db
    .update(outboxEvents)
    .set({ snapshot: sql`order_snapshot(${outboxEvents.subjectId})` })
    .where(and(which, eq(outboxEvents.subjectType, 'order'), sql`${outboxEvents.snapshot} is not null`));
}

/** The events about these records that carry a rendered body. */
export async function renderedEventsAbout(db: DbOrTx, ids: { orders: number[]; requests: number[]; documents: number[] }): Promise<OutboxEventRow[]> {
  const which = aboutSubjects(ids);
  if (!which) return [];
  return db.select().from(outboxEvents).where(and(which, sql`${outboxEvents.data} is not null`));
}

export async function setEventData(db: DbOrTx, eventId: string, data: Record<string, unknown>): Promise<void> {
  await db.update(outboxEvents).set({ data }).where(eq(outboxEvents.id, eventId));
}

/**
 * Gives mails to the address the erased address; a pending one is marked failed so it is never
 * sent. Returns the ids of the mails changed.
 */
export async function eraseMailRecipient(db: DbOrTx, email: string, erasedEmail: string): Promise<number[]> {
  const mails = await db
    .update(mailMessages)
    .set({
      recipient: erasedEmail,
      status: sql`case when ${mailMessages.status} = 'pending' then 'failed' else ${mailMessages.status} end`,
      lastError: sql`case when ${mailMessages.status} = 'pending' then 'recipient erased (GDPR)' else ${mailMessages.lastError} end`,
    })
    .where(sql`lower(${mailMessages.recipient}) = lower(${email})`)
    .returning({ id: mailMessages.id });
  return mails.map((m) => m.id);
}
