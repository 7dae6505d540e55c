// Gift cards (docs/vouchers.md in the server): issue, find, read with the ledger, correct, the
// public balance look-up, and paying an order with a card. A code is sent only in bodies and in
// the balance look-up's query, never in a path; the issue's answer is the one place it is shown.
// No write here is resent after a failure: look the card up first.
import type { Core, ReadOptions } from '../core.ts';
import { endpoint } from '../endpoints.ts';
import type { BodyOf, OkBody } from '../types.ts';
import type { WriteOptions } from './crud.ts';

type A = '/api/v4';
export type IssuedGiftCard = OkBody<`${A}/gift_cards`, 'post'>;
export type GiftCardWithLedger = OkBody<`${A}/gift_cards/{id}`, 'get'>;
export type GiftCard = GiftCardWithLedger['gift_card'];
export type GiftCardBalance = OkBody<`${A}/gift_cards/balance`, 'get'>;
export type GiftCardLedgerEntry = GiftCardWithLedger['ledger'][number];
export type GiftCardLiability = OkBody<`${A}/reports/gift_cards/liability`, 'get'>;
export type GiftCardMovements = OkBody<`${A}/reports/gift_cards/ledger`, 'get'>;
type Payment = OkBody<`${A}/orders/{id}/payments/gift_card`, 'post'>['payment'];

const EP = {
  issue: endpoint('POST', '/gift_cards'),
  list: endpoint('GET', '/gift_cards'),
  get: endpoint('GET', '/gift_cards/{id}'),
  lookup: endpoint('POST', '/gift_cards/lookup'),
  balance: endpoint('GET', '/gift_cards/balance'),
  correct: endpoint('POST', '/gift_cards/{id}/corrections'),
  pay: endpoint('POST', '/orders/{id}/payments/gift_card', { secret: ['id'] }),
  ledger: endpoint('GET', '/gift_cards/{id}/ledger'),
  liability: endpoint('GET', '/reports/gift_cards/liability'),
  movements: endpoint('GET', '/reports/gift_cards/ledger'),
  pdf: endpoint('GET', '/gift_cards/{id}/pdf', { retry: 'once' }),
};

export class GiftCards {
  constructor(private readonly core: Core) {}
  /** Issues a card once its price was taken; the answer holds the code, shown this once. */
  async issue(body: BodyOf<`${A}/gift_cards`, 'post'>, o: WriteOptions = {}): Promise<IssuedGiftCard> {
    return (await this.core.http.send(EP.issue, { ...o, body })).body as IssuedGiftCard;
  }
  /** Newest first; `last4` finds cards by the end of their code. */
  async list(query: { last4?: string; limit?: number; offset?: number } = {}, o: ReadOptions = {}): Promise<GiftCard[]> {
    return ((await this.core.http.send(EP.list, { ...o, query })).body as { gift_cards: GiftCard[] }).gift_cards;
  }
  async get(id: number, o: ReadOptions = {}): Promise<GiftCardWithLedger> {
    return (await this.core.http.send(EP.get, { ...o, params: { id } })).body as GiftCardWithLedger;
  }
  /** Staff: the card of a code, with its ledger. */
  async lookup(code: string, o: WriteOptions = {}): Promise<GiftCardWithLedger> {
    return (await this.core.http.send(EP.lookup, { ...o, body: { code } })).body as GiftCardWithLedger;
  }
  /** Public (rate-limited): balance and end of a card. */
  async balance(code: string, o: ReadOptions = {}): Promise<GiftCardBalance> {
    return (await this.core.http.send(EP.balance, { ...o, query: { code } })).body as GiftCardBalance;
  }
  /** Staff: a signed correction with a reason; never below zero. */
  async correct(id: number, body: BodyOf<`${A}/gift_cards/{id}/corrections`, 'post'>, o: WriteOptions = {}): Promise<GiftCardWithLedger> {
    return (await this.core.http.send(EP.correct, { ...o, params: { id }, body })).body as GiftCardWithLedger;
  }
  /** Pays what is due (or `amount_cents` of it) with a card; a second payment pays the rest. */
  async pay(orderIdOrToken: number | string, body: BodyOf<`${A}/orders/{id}/payments/gift_card`, 'post'>, o: WriteOptions = {}): Promise<Payment> {
    return ((await this.core.http.send(EP.pay, { ...o, params: { id: orderIdOrToken }, body })).body as { payment: Payment }).payment;
  }
  /** The card's ledger, oldest first. */
  async ledger(id: number, o: ReadOptions = {}): Promise<GiftCardLedgerEntry[]> {
    return ((await this.core.http.send(EP.ledger, { ...o, params: { id } })).body as { ledger: GiftCardLedgerEntry[] }).ledger;
  }
  /** Report: outstanding value of valid cards per currency (a liability). JSON; CSV through `format=csv` on the raw route. */
  async liability(o: ReadOptions = {}): Promise<GiftCardLiability> {
    return (await this.core.http.send(EP.liability, { ...o })).body as GiftCardLiability;
  }
  /**
   * The card's PDF with its code: made once (the code is shown in it and never again), so keep
   * the bytes; a second call is refused with CODE_NOT_APPLICABLE.
   */
  async pdf(id: number, o: WriteOptions = {}): Promise<Uint8Array> {
    const res = await this.core.http.send(EP.pdf, { ...o, params: { id }, binary: true });
    return res.bytes!;
  }
  /** Report: movements per kind between two days of the instance zone. */
  async movements(query: { from: string; to: string }, o: ReadOptions = {}): Promise<GiftCardMovements> {
    return (await this.core.http.send(EP.movements, { ...o, query })).body as GiftCardMovements;
  }
}
