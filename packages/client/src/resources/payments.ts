// Payments and refunds of an order (docs/payments.md): what was paid and refunded, money taken
// outside (desk, invoice), a payment on a provider's page, and refunds. No call here is resent
// after a failure: each would be a new payment or refund; look with `payments.list` first.
import type { Core, ReadOptions } from '../core.ts';
import { endpoint } from '../endpoints.ts';
import type { BodyOf, OkBody } from '../types.ts';
import type { WriteOptions } from './crud.ts';

type A = '/api/v4';
export type OrderPayments = OkBody<`${A}/orders/{id}/payments`, 'get'>;
export type Payment = OrderPayments['payments'][number];
export type Refund = OrderPayments['refunds'][number];
export type Checkout = OkBody<`${A}/orders/{id}/checkout`, 'post'>;
export type PaymentsReport = OkBody<`${A}/reports/payments`, 'get'>;

const EP = {
  list: endpoint('GET', '/orders/{id}/payments', { secret: ['id'] }),
  record: endpoint('POST', '/orders/{id}/payments', { secret: ['id'] }),
  checkout: endpoint('POST', '/orders/{id}/checkout', { secret: ['id'] }),
  confirm: endpoint('POST', '/orders/{id}/payments/{payment_id}/confirm', { secret: ['id'] }),
  refund: endpoint('POST', '/orders/{id}/refunds', { secret: ['id'] }),
  retry: endpoint('POST', '/orders/{id}/refunds/{refund_id}/retry', { secret: ['id'] }),
  report: endpoint('GET', '/reports/payments'),
};

export class Payments {
  constructor(private readonly core: Core) {}
  /** The order's payments and refunds, and its payment_status. */
  async list(orderIdOrToken: number | string, o: ReadOptions = {}): Promise<OrderPayments> {
    return (await this.core.http.send(EP.list, { ...o, params: { id: orderIdOrToken } })).body as OrderPayments;
  }
  /** Records money taken outside Atrium (desk: cash or card terminal; invoice: transfer received). */
  async record(orderIdOrToken: number | string, body: BodyOf<`${A}/orders/{id}/payments`, 'post'>, o: WriteOptions = {}): Promise<Payment> {
    return ((await this.core.http.send(EP.record, { ...o, params: { id: orderIdOrToken }, body })).body as { payment: Payment }).payment;
  }
  /** Starts a payment of what is due on a provider's page; send the visitor to `redirect_url`. */
  async checkout(orderIdOrToken: number | string, body: BodyOf<`${A}/orders/{id}/checkout`, 'post'>, o: WriteOptions = {}): Promise<Checkout> {
    return (await this.core.http.send(EP.checkout, { ...o, params: { id: orderIdOrToken }, body })).body as Checkout;
  }
  /**
   * Payments confirmed and refunds done per provider and museum-local day, `from`..`to` (at most
   * 366 days), for reconciling with the providers' payouts. Never cached.
   */
  async report(query: { from: string; to: string; museum_id?: number }, o: ReadOptions = {}): Promise<PaymentsReport> {
    return (await this.core.http.send(EP.report, { ...o, query })).body as PaymentsReport;
  }
  /** The visitor is back from the provider's page: the server asks the provider and settles the order. */
  async confirm(orderIdOrToken: number | string, paymentId: number, o: WriteOptions = {}): Promise<Payment> {
    return ((await this.core.http.send(EP.confirm, { ...o, params: { id: orderIdOrToken, payment_id: paymentId } })).body as { payment: Payment }).payment;
  }
}

export class Refunds {
  constructor(private readonly core: Core) {}
  /** Refunds `amount_cents` (default: everything still refundable) across the order's payments. */
  async create(orderIdOrToken: number | string, body: BodyOf<`${A}/orders/{id}/refunds`, 'post'>, o: WriteOptions = {}): Promise<Refund[]> {
    return ((await this.core.http.send(EP.refund, { ...o, params: { id: orderIdOrToken }, body })).body as { refunds: Refund[] }).refunds;
  }
  /** Sends a failed refund to its provider again. */
  async retry(orderIdOrToken: number | string, refundId: number, o: WriteOptions = {}): Promise<Refund> {
    return ((await this.core.http.send(EP.retry, { ...o, params: { id: orderIdOrToken, refund_id: refundId } })).body as { refund: Refund }).refund;
  }
}
