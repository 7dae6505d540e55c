// Promo codes (docs/vouchers.md in the server): staff create, list, read and switch them on or
// off; orders name them in `codes`. A create is not resent after a failure (list first).
import type { Core, ReadOptions } from '../core.ts';
import { endpoint } from '../endpoints.ts';
import type { BodyOf, OkBody } from '../types.ts';
import type { WriteOptions } from './crud.ts';

type A = '/api/v4';
export type PromoCode = OkBody<`${A}/promo_codes/{id}`, 'get'>['promo_code'];
export type Shop = OkBody<`${A}/shop`, 'get'>['shop'];
export type CodeUsage = OkBody<`${A}/reports/codes/usage`, 'get'>;
export type CodeDiscounts = OkBody<`${A}/reports/codes/discounts`, 'get'>;

const EP = {
  create: endpoint('POST', '/promo_codes'),
  list: endpoint('GET', '/promo_codes'),
  get: endpoint('GET', '/promo_codes/{id}'),
  update: endpoint('PATCH', '/promo_codes/{id}'),
  shop: endpoint('GET', '/shop'),
  usage: endpoint('GET', '/reports/codes/usage'),
  discounts: endpoint('GET', '/reports/codes/discounts'),
};

export class PromoCodes {
  constructor(private readonly core: Core) {}
  async create(body: BodyOf<`${A}/promo_codes`, 'post'>, o: WriteOptions = {}): Promise<PromoCode> {
    return ((await this.core.http.send(EP.create, { ...o, body })).body as { promo_code: PromoCode }).promo_code;
  }
  async list(o: ReadOptions = {}): Promise<PromoCode[]> {
    return ((await this.core.http.send(EP.list, { ...o })).body as { promo_codes: PromoCode[] }).promo_codes;
  }
  async get(id: number, o: ReadOptions = {}): Promise<PromoCode> {
    return ((await this.core.http.send(EP.get, { ...o, params: { id } })).body as { promo_code: PromoCode }).promo_code;
  }
  /** Switches a code on or off. */
  async update(id: number, body: BodyOf<`${A}/promo_codes/{id}`, 'patch'>, o: WriteOptions = {}): Promise<PromoCode> {
    return ((await this.core.http.send(EP.update, { ...o, params: { id }, body })).body as { promo_code: PromoCode }).promo_code;
  }
  /** Report: per promo code its partner, orders and discount total between two days. */
  async usage(query: { from: string; to: string }, o: ReadOptions = {}): Promise<CodeUsage> {
    return (await this.core.http.send(EP.usage, { ...o, query })).body as CodeUsage;
  }
  /** Report: every discount a code or voucher gave between two days. */
  async discounts(query: { from: string; to: string }, o: ReadOptions = {}): Promise<CodeDiscounts> {
    return (await this.core.http.send(EP.discounts, { ...o, query })).body as CodeDiscounts;
  }
}

/** The visitor shop's public settings (GET /shop, go~mus's shop object). */
export async function getShop(core: Core, query: { locale?: string } = {}, o: ReadOptions = {}): Promise<Shop> {
  return ((await core.http.send(EP.shop, { ...o, query })).body as { shop: Shop }).shop;
}
