// The manage-booking link of an order (docs/shop.md): `/shop/manage/<token>`, the token 256 bits
// (base64url, prefixed "mb_"). Only its SHA-256 is stored, so the table leaks nothing; the
// lookup is by that hash and the found hash is compared again in constant time. A malformed, unknown or
// altered token is the same NOT_FOUND, so a link reveals nothing about other orders.
//
// A shop order gets ONE link, issued when it is finalized. The confirmation page (any number of
// views) and the confirmation mail (sent later by the worker) must both show it, yet the token
// is not stored: it is an HMAC of the order's id and its own random API token under a key
// derived from the instance's sealing key (domain/webhooks/secrets.ts), so it can be computed
// again where it is shown and opens only if its hash was stored at finalization.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ensureManageToken, insertManageToken, orderOfManageToken } from '../../db/repositories/shopManage.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import type { Clock } from '../clock.ts';
import { notFound } from '../errors.ts';
import { sealingKey } from '../webhooks/secrets.ts';
import { shopAccountId } from './principal.ts';

const TOKEN = /^mb_[A-Za-z0-9_-]{43}$/;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

type Order = { id: number; accountId: number; token: string };

/** The order's link token, computed (never read back): the same on every call. */
function orderLinkToken(config: Pick<Config, 'notify'>, order: Pick<Order, 'id' | 'token'>): string {
  const key = createHmac('sha256', sealingKey(config)).update('atrium shop manage link v1').digest();
  return `mb_${createHmac('sha256', key).update(`${order.id}:${order.token}`).digest('base64url')}`;
}

/**
 * Issues the link of a shop order when it is finalized (in the finalizing transaction); orders of
 * other accounts get none. Idempotent: the one link of the order.
 */
export async function issueOrderManageLink(ctx: { db: DbOrTx; clock: Clock; config: Pick<Config, 'notify'> }, tx: DbOrTx, order: Order): Promise<void> {
  // The shop's account id is remembered per pool-backed handle (ctx.db), not per transaction.
  if (order.accountId !== (await shopAccountId(ctx.db))) return;
  await ensureManageToken(tx, { tokenHash: digest(orderLinkToken(ctx.config, order)), orderId: order.id, createdAt: ctx.clock.now() });
}

/** The order's issued link token, for the confirmation page and mail; null when none was issued. */
export async function orderManageLink(ctx: { db: DbOrTx; config: Pick<Config, 'notify'> }, order: Pick<Order, 'id' | 'token'>): Promise<string | null> {
  const token = orderLinkToken(ctx.config, order);
  const row = await orderOfManageToken(ctx.db, digest(token));
  return row && row.orderId === order.id ? token : null;
}

/**
 * Makes an extra random link for an order and returns its token (shown once). Earlier links of
 * the order stay valid. The shop itself uses the order's one link (issueOrderManageLink).
 */
export async function issueManageLink(ctx: { db: DbOrTx; clock: Clock }, orderId: number): Promise<string> {
  const token = `mb_${randomBytes(32).toString('base64url')}`;
  await insertManageToken(ctx.db, { tokenHash: digest(token), orderId, createdAt: ctx.clock.now() });
  return token;
}

/** The order id a token opens; NOT_FOUND for anything else. */
export async function openManageLink(ctx: { db: DbOrTx }, token: string): Promise<number> {
  if (!TOKEN.test(token)) throw notFound('order');
  const wanted = digest(token);
  const row = await orderOfManageToken(ctx.db, wanted);
  if (!row || !timingSafeEqual(Buffer.from(row.tokenHash), Buffer.from(wanted))) throw notFound('order');
  return row.orderId;
}
