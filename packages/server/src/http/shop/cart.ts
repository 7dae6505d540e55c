// The cart lives in a cookie: an id (the checkout's idempotency key: one cart, one order) and its
// lines. Ticket and event lines name a hold (a reservation of the shop's account) that keeps the
// places; tours cannot be held, so their line is checked when the order is placed. Nothing in
// the cookie is trusted: prices are never in it, and the order re-checks every line (product
// sellable on the shop channel, quantity within limits, capacity), so an edited cookie can only
// ask for something else, never get it cheaper or beyond what is left.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cartCookie, cookieOptions } from './security.ts';

export interface HoldLine {
  kind: 'ticket' | 'event';
  /** Ticket id or event date id. */
  id: number;
  token: string;
  quantity: number;
  /** ISO instant of the slot or date. */
  start: string;
  /** ISO instant the hold ends (as the reservation answered). */
  until: string;
}
export interface TourLine {
  kind: 'tour';
  id: number;
  quantity: number;
  start: string;
  languageId: number;
}
export type CartLine = HoldLine | TourLine;

export interface Cart {
  id: string;
  lines: CartLine[];
  /** Whether the one extension of the holds was used. */
  extended: boolean;
  /** Set once the cart became an order: its token (the order page's key). */
  order?: string;
}

export const MAX_LINES = 10;
const ID = /^[A-Za-z0-9_-]{22}$/;
const TOKEN = /^[A-Za-z0-9_-]{10,100}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T[0-9:.+\-Z]{5,30}$/;

export const newCart = (): Cart => ({ id: randomBytes(16).toString('base64url'), lines: [], extended: false });

const posInt = (v: unknown) => Number.isInteger(v) && (v as number) > 0 && (v as number) < 2_147_483_647;

function lineOf(raw: unknown): CartLine | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  if (!posInt(r.id) || !posInt(r.quantity) || typeof r.start !== 'string' || !ISO.test(r.start)) return null;
  const base = { id: r.id as number, quantity: r.quantity as number, start: r.start };
  if (r.kind === 'tour') return posInt(r.languageId) ? { kind: 'tour', ...base, languageId: r.languageId as number } : null;
  if ((r.kind === 'ticket' || r.kind === 'event') && typeof r.token === 'string' && TOKEN.test(r.token) && typeof r.until === 'string' && ISO.test(r.until)) {
    return { kind: r.kind, ...base, token: r.token, until: r.until };
  }
  return null;
}

/** The visitor's cart; a missing or malformed cookie is an empty cart. */
export function readCart(req: FastifyRequest): Cart {
  const raw = req.cookies[cartCookie(req)];
  if (!raw || raw.length > 4000) return newCart();
  try {
    const v = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof v.id !== 'string' || !ID.test(v.id) || !Array.isArray(v.lines)) return newCart();
    const lines = v.lines.slice(0, MAX_LINES).map(lineOf).filter((l): l is CartLine => l !== null);
    const order = typeof v.order === 'string' && TOKEN.test(v.order) ? v.order : undefined;
    return { id: v.id, lines, extended: v.extended === true, ...(order ? { order } : {}) };
  } catch {
    return newCart();
  }
}

/** The cart's size in the page frame: none after its order was placed; without a cookie none is made up. */
export function cartCount(req: FastifyRequest): number {
  if (!req.cookies[cartCookie(req)]) return 0;
  const cart = readCart(req);
  return cart.order ? 0 : cart.lines.length;
}

export function writeCart(req: FastifyRequest, reply: FastifyReply, cart: Cart) {
  reply.setCookie(cartCookie(req), Buffer.from(JSON.stringify(cart)).toString('base64url'), cookieOptions(req, 7 * 24 * 3600));
}

/** When the first hold of the cart ends (null: nothing held). */
export function cartExpiry(cart: Cart): Date | null {
  const ends = cart.lines.filter((l): l is HoldLine => l.kind !== 'tour').map((l) => new Date(l.until).getTime());
  return ends.length ? new Date(Math.min(...ends)) : null;
}

export const placesIn = (cart: Cart) => cart.lines.reduce((s, l) => s + l.quantity, 0);
