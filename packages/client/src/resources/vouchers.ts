// Single-purpose vouchers (docs/vouchers.md in the server): one admission of a named ticket,
// redeemed by naming the code in an order's `codes`. The code is shown once, in the answer that
// issues the voucher. A create is not resent after a failure (list first).
import type { Core, ReadOptions } from '../core.ts';
import { endpoint } from '../endpoints.ts';
import type { BodyOf, OkBody } from '../types.ts';
import type { WriteOptions } from './crud.ts';

type A = '/api/v4';
export type IssuedVoucher = OkBody<`${A}/vouchers`, 'post'>;
export type Voucher = OkBody<`${A}/vouchers/{id}`, 'get'>['voucher'];

const EP = {
  create: endpoint('POST', '/vouchers'),
  list: endpoint('GET', '/vouchers'),
  get: endpoint('GET', '/vouchers/{id}'),
};

export class Vouchers {
  constructor(private readonly core: Core) {}
  /** Issues a voucher for one admission of `ticket_id`; the answer holds the code, shown this once. */
  async create(body: BodyOf<`${A}/vouchers`, 'post'>, o: WriteOptions = {}): Promise<IssuedVoucher> {
    return (await this.core.http.send(EP.create, { ...o, body })).body as IssuedVoucher;
  }
  /** Newest first; `last4` finds vouchers by the end of their code. */
  async list(query: { last4?: string; limit?: number; offset?: number } = {}, o: ReadOptions = {}): Promise<Voucher[]> {
    return ((await this.core.http.send(EP.list, { ...o, query })).body as { vouchers: Voucher[] }).vouchers;
  }
  async get(id: number, o: ReadOptions = {}): Promise<Voucher> {
    return ((await this.core.http.send(EP.get, { ...o, params: { id } })).body as { voucher: Voucher }).voucher;
  }
}
