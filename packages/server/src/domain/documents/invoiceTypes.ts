// An invoice or credit note as issued: the frozen content stored in invoices.data (migration
// 0018) and the one input of both its PDF (documents/render/invoice.ts) and its e-invoice
// (documents/einvoice/build.ts). Plain JSON (instants as ISO strings, money as integer cents),
// so what is stored is exactly what is rendered, on any node, years later.
import type { Issuer } from './issuer.ts';

export interface IssuedLine {
  title: string;
  /** Second line under the title: the slot as people write it, in the invoice's locale. */
  detail: string | null;
  quantity: number;
  unit_price_cents: number;
  /** quantity × unit price as charged; gross when tax_included, else net (domain/pricing/vat.ts). */
  total_cents: number;
  vat_pct: number;
  tax_included: boolean;
  /** Date of service (the visit date, museum-local "YYYY-MM-DD"; the day of sale for cards and vouchers). */
  service_date: string;
  /**
   * 'O': not subject to VAT (the sale of a gift card, a multi-purpose voucher), vat_pct 0. Absent:
   * standard or zero rated by vat_pct. An invoice holds O lines only or none (ADR 0043).
   */
  vat_category?: 'O';
  /**
   * What promo codes and vouchers took off the line, on the same basis as total_cents (which is
   * after them): the list price is total_cents plus these. Absent on lines without any.
   */
  discounts?: Array<{ code: string; amount_cents: number }>;
}

export interface IssuedParty {
  name: string;
  institution: string | null;
  street: string | null;
  zip: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2, when known */
  country: string | null;
  email: string | null;
}

/** A payment received for the order (a gift card is a means of payment: VAT is on the lines). */
export interface IssuedPayment {
  provider: string;
  amount_cents: number;
  /** Gift cards: the last four characters of the code, never more. */
  card_last4: string | null;
}

export interface IssuedInvoice {
  kind: 'invoice' | 'credit_note';
  /** As printed, e.g. "INV-000042". */
  number: string;
  /** ISO instant. */
  issued_at: string;
  locale: string;
  /** Zone in which dates are printed (the museum's). */
  time_zone: string;
  currency: string;
  seller: Issuer;
  /** Null when the order has no customer (or in the small-amount form). */
  buyer: IssuedParty | null;
  order: { id: number; reference: string | null };
  /** Date(s) of service: first and last visit date of the lines. */
  service: { from: string; to: string };
  lines: IssuedLine[];
  /** Credit notes: the invoice they correct. */
  refers_to: { number: string; issued_at: string } | null;
  /** § 33 UStDV form (gross ≤ 250 €, configured): no recipient, gross amounts and rate. */
  small_amount: boolean;
  /**
   * Invoices to be paid by bank transfer (the order's payment method `invoice`): the museum-local
   * date ("YYYY-MM-DD") the amount is due. Null or absent (invoices issued before it existed)
   * when it was paid with the order; credit notes have none.
   */
  due_date?: string | null;
  /** Payments received when it was issued (absent on invoices issued before they were listed). */
  payments?: IssuedPayment[];
}
