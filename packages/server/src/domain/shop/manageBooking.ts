// What a visitor sees and does on the manage-booking page (docs/shop.md), reached only through
// the order's manage link (manageLink.ts): the order with its items, documents and payments,
// which items the cancellation rule still lets them cancel, what a cancellation would refund,
// and the cancellation itself. The verbs run with a system context on the one order the link
// opens: the link is the visitor's authority, and nothing here reaches another order.
import { itemsWithRules, type ItemRuleRow } from '../../db/repositories/shopManage.ts';
import { transaction } from '../../db/transaction.ts';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { systemCtx, type Ctx } from '../context.ts';
import { downloadDocument, type DocumentFile } from '../documents/downloadDocument.ts';
import { DomainError, invalid, notFound } from '../errors.ts';
import { cancelOrder } from '../orders/cancelOrder.ts';
import { findOrder, reload, type OrderView } from '../orders/internal.ts';
import type { OrderPayments } from '../payments/json.ts';
import { paymentsOf } from '../payments/listPayments.ts';
import type { PaymentProviders } from '../payments/provider.ts';
import { refundAfterCancellation } from '../payments/refunds.ts';
import { received } from '../payments/status.ts';
import { cancellableUntil, mayCancel, parseRule, ruleText } from './cancellationRule.ts';
import { openManageLink } from './manageLink.ts';
import { defaultCancellationRule } from './settings.ts';

export interface ManagedItem {
  id: number;
  cancellable: boolean;
  /** The last instant the rule allows cancelling or moving; null: never. */
  until: Date | null;
  /** The rule that applies ('never' or 'Nh'). */
  rule: string;
}

export interface ManagedOrder {
  order: OrderView;
  items: Map<number, ManagedItem>;
  payments: OrderPayments;
}

export const notAllowed = () => new DomainError('CANCELLATION_NOT_ALLOWED', 'this booking can no longer be cancelled or moved');

/** The visitor's rights on each item now. */
export async function itemRights(ctx: Ctx, rows: ItemRuleRow[]): Promise<Map<number, ManagedItem>> {
  const fallback = await defaultCancellationRule(ctx);
  const now = ctx.clock.now();
  return new Map(rows.map((r) => {
    const rule = parseRule(r.rule) ?? fallback;
    return [r.id, { id: r.id, cancellable: mayCancel(r, fallback, now), until: cancellableUntil(rule, r.startAt), rule: ruleText(rule) }];
  }));
}

/** The order behind a manage link, with what the visitor may do. */
export async function getManagedOrder(ctx: Ctx, token: string): Promise<ManagedOrder> {
  const orderId = await openManageLink(ctx, token);
  const sys = systemCtx(ctx);
  const order = await reload(ctx.db, sys, orderId);
  const items = order.status === 'finalized' ? await itemRights(ctx, await itemsWithRules(ctx.db, orderId)) : new Map<number, ManagedItem>();
  return { order, items, payments: await paymentsOf(ctx.db, order) };
}

/** The items a visitor's request names (all active ones when none), each allowed by the rule. */
function targetsOf(m: ManagedOrder, itemIds: number[]): number[] {
  if (m.order.status !== 'finalized') throw notAllowed();
  const active = m.order.items.filter((i) => i.status === 'active');
  const unknown = itemIds.filter((id) => !active.some((i) => i.id === id));
  if (unknown.length) throw invalid('order could not be cancelled', unknown.map((id) => `order item ${id} is not an active item of this order`));
  const targets = itemIds.length ? itemIds : active.map((i) => i.id);
  if (targets.length === 0 || targets.some((id) => !m.items.get(id)?.cancellable)) throw notAllowed();
  return targets;
}

/** What cancelling these items would refund: what was kept beyond the total that remains. */
export function refundPreview(m: ManagedOrder, itemIds: number[]): number {
  const targets = targetsOf(m, itemIds);
  const left = m.order.items.filter((i) => i.status === 'active' && !targets.includes(i.id)).reduce((s, i) => s + i.priceCents, 0);
  const kept = m.payments.payments.filter(received).reduce((s, p) => s + p.amountCents - p.refundedCents, 0);
  return Math.max(0, kept - left);
}

/**
 * Cancels the named items (all when none) if the rule allows each, then refunds what was paid
 * for them through the order's payments (payments/refunds.ts). The cancellation issues the
 * credit note and frees the places (orders/cancelOrder.ts). Returns the refunded amount.
 */
export async function cancelByVisitor(ctx: Ctx, providers: PaymentProviders, token: string, itemIds: number[]): Promise<{ refundedCents: number; itemIds: number[] }> {
  const sys = systemCtx(ctx);
  const done = await transaction(ctx.db, async (tx) => {
    const db = tx as unknown as Db;
    const txCtx = { ...sys, db };
    // The order row is locked before its items are read (cancelOrder takes the lock again in
    // this transaction), so two cancellations through one link cannot both pass the checks.
    await findOrder(tx, sys, await openManageLink({ db }, token), true);
    const m = await getManagedOrder({ ...ctx, db }, token);
    const ids = targetsOf(m, itemIds);
    await cancelOrder(txCtx, String(m.order.id), { item_ids: ids });
    await recordAudit(txCtx, { system: 'shop-visitor' }, { action: 'order.cancel', entityType: 'order', entityId: m.order.id, after: { item_ids: ids } });
    return { orderId: m.order.id, ids };
  });
  const refunds = await refundAfterCancellation(sys, providers, String(done.orderId));
  return { refundedCents: refunds.filter((r) => r.state !== 'failed').reduce((s, r) => s + r.amountCents, 0), itemIds: done.ids };
}

/** A document of the link's order (tickets, invoice, credit notes); NOT_FOUND for any other. */
export async function managedDocument(ctx: Ctx, token: string, documentId: number): Promise<DocumentFile> {
  const orderId = await openManageLink(ctx, token);
  const order = await reload(ctx.db, systemCtx(ctx), orderId);
  if (!order.documents.some((d) => d.id === documentId)) throw notFound('document');
  return downloadDocument(systemCtx(ctx), documentId);
}
