// What the order-line tests of gift cards and vouchers share: an app sending mail to a local SMTP
// server, with the demo provider and a running worker (cards and vouchers are issued, invoices
// rendered, by jobs); a catalogue; tokens; and the calls the tests make.
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import type { IssuedInvoice } from '../../src/domain/documents/invoiceTypes.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { pdfPages, squash } from '../helpers/pdftext.ts';
import { smtpStandIn, type SmtpStandIn } from '../helpers/smtp.ts';
import { catalogue, testWorker, waitFor, type Catalogue } from '../jobs/support.ts';

export type Sold = { id: number; code_last4: string; status: string; pdf_url: string };
export type OrderJson = { id: number; token: string; status: string; total_price_cents: number; items: Array<{ id: number; type: string; price_cents: number; vat_pct: number; attributes: { gift_cards?: Sold[]; vouchers?: Sold[] } }> };

export interface LinesWorld {
  t: TestApp;
  c: Catalogue;
  staff: string;
  reseller: string;
  /** The mails the SMTP server received for an address. */
  mailsTo: SmtpStandIn['mailsTo'];
  close(): Promise<void>;
  post(url: string, payload: object, token?: string): ReturnType<TestApp['request']>;
  get(url: string, token?: string): ReturnType<TestApp['request']>;
  /** Places an order, which must succeed. */
  order(body: object, token?: string): Promise<OrderJson>;
  /** Pays what is due through the demo provider's page, as a visitor would. */
  payWithDemo(orderId: number): Promise<void>;
  /** The order's invoice once the worker has issued it. */
  issuedInvoice(orderId: number): Promise<IssuedInvoice>;
  count(table: string): Promise<number>;
  ticketItem(quantity?: number, min?: number): object;
}

export async function linesWorld(): Promise<LinesWorld> {
  const smtp = await smtpStandIn();
  const t = await testApp({
    env: {
      SMTP_URL: smtp.url,
      ATRIUM_MAIL_FROM: 'Museum <tickets@museum.example>',
      ATRIUM_DEMO: 'true',
      ATRIUM_PAYMENT_PROVIDERS: 'demo,desk,invoice',
      ATRIUM_PUBLIC_URL: 'https://tickets.example.org',
    },
  });
  const db = t.database.db;
  const c = await catalogue(db);
  const staff = await t.token({ class: 'user' });
  const reseller = await t.token({ class: 'reseller' });
  const worker = await testWorker(t, { dispatchIntervalMs: 50 });

  const post = (url: string, payload: object, token = staff) => t.request({ method: 'POST', url: `/api/v4${url}`, token, payload });
  const get = (url: string, token: string | undefined = staff) => t.request({ method: 'GET', url: url.startsWith('/api') ? url : `/api/v4${url}`, ...(token ? { token } : {}) });
  return {
    t, c, staff, reseller, mailsTo: smtp.mailsTo, post, get,
    async close() {
      await worker.stop();
      await t.close();
      await smtp.close();
    },
    async order(body, token = staff) {
      const r = await post('/orders', body, token);
      assert.equal(r.statusCode, 201, r.body);
      return r.json().order;
    },
    async payWithDemo(orderId) {
      const r = await post(`/orders/${orderId}/checkout`, { provider: 'demo', return_url: 'https://shop.example.org/back' });
      assert.equal(r.statusCode, 201, r.body);
      const ref = r.json().payment.provider_ref as string;
      const paid = await t.request({ method: 'POST', url: `/api/v4/payments/demo/${ref}`, payload: 'outcome=paid', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.equal(paid.statusCode, 200, paid.body);
    },
    issuedInvoice: (orderId) => waitFor('the invoice', async () => {
      const r = await db.execute<{ data: IssuedInvoice }>(sql`select data from invoices where order_id = ${orderId} and kind = 'invoice'`);
      return r.rows[0]?.data ?? null;
    }, 60_000),
    count: async (table) => Number((await db.execute<{ n: string }>(sql`select count(*) n from ${sql.raw(table)}`)).rows[0]!.n),
    ticketItem: (quantity = 1, min = 630) => ({ type: 'Ticket', attributes: { id: c.ticketId, quantity, time: c.at(min) } }),
  };
}

/** The code printed on a card's or voucher's PDF (grouped by four). */
export function codeOnPdf(pdf: Buffer): string {
  const text = squash(pdfPages(pdf)!.join('\n'));
  const m = /\b([0-9A-Z]{4}(?:-[0-9A-Z]{4}){4})\b/.exec(text);
  assert.ok(m, text);
  return m[1]!.replace(/-/g, '');
}
