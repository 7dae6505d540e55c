// The manage-booking link of an order (docs/shop.md): `/shop/manage/<token>`, the token 256 random
// bits (base64url, prefixed "mb_"). Only its SHA-256 is stored, so the table leaks nothing; the
// lookup is by that hash and the found hash is compared again in constant time. A malformed, unknown or
// altered token is the same NOT_FOUND, so a link reveals nothing about other orders.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { insertManageToken, orderOfManageToken } from '../../db/repositories/shopManage.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Clock } from '../clock.ts';
import { notFound } from '../errors.ts';

const TOKEN = /^mb_[A-Za-z0-9_-]{43}$/;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Makes a new manage link for an order and returns its token (shown once: the confirmation
 * page and mail carry it). Earlier links of the order stay valid.
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
