// EN 16931 e-invoice (CII syntax, the one ZUGFeRD / Factur-X and XRechnung-CII build on) of an
// issued invoice or credit note, made by @e-invoice-eu/core from its internal format (UBL-shaped
// JSON). The library validates that input against its EN 16931 JSON schema (mandatory business
// terms, code lists, formats) and throws on a violation. The tests validate the XML against the
// CII XSD and the EN 16931 arithmetic rules; the Schematron itself is not run
// (docs/adr/0025-e-invoice-validation-and-rtl-text.md says which rules are checked).
// Amounts are those of the PDF (domain/pricing/vat.ts: rounded per line, sums of rounded lines), so the
// XML and the PDF can never disagree. Usually the order is paid when the invoice is issued: the
// gross total is the prepaid amount (BT-113) and nothing is due (BT-115 = 0). An invoice to be
// paid by transfer has a due date (BT-9) and all of it is due.
import { FormatFactoryService, ValidationService, invoiceSchema, type EInvoiceFormat, type Invoice } from '@e-invoice-eu/core';
import { Ajv2019, type ValidateFunction } from 'ajv/dist/2019.js';
import { t } from '../../i18n/index.ts';
import type { IssuedInvoice } from '../../domain/documents/invoiceTypes.ts';
import { computeInvoiceTotals, lineAmounts } from '../../domain/pricing/vat.ts';
import { paymentLabel, paymentMeansCode } from '../paymentText.ts';

export const E_INVOICE_FORMAT = 'CII';

/** Integer cents as the decimal string EN 16931 amounts use ("12.5" style is fine, we write "12.50"). */
const amount = (cents: number) => `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
/** A rate as EN 16931 writes it: "7", "19", "5.5". */
const pct = (p: number) => String(Number(p.toFixed(2)));
/**
 * Net price (BT-146) and its base quantity (BT-149), so that quantity × price / base quantity is
 * exactly the line net (BT-131), as receivers recompute it (PEPPOL-EN16931-R120 and most ERPs).
 * The line net comes from the gross price (domain/pricing/vat.ts) and is often not a multiple of the
 * quantity (3 tickets at 14.00 € incl. 7 % = 39.25 € net, 13.083… per ticket): then the price is
 * given for the whole quantity ("39.25 per 3 pieces") instead of a rounded unit price.
 */
function price(netCents: number, qty: number, cur: string) {
  const exact = Number.isInteger(qty) && qty !== 0 && netCents % qty === 0;
  return exact
    ? { 'cbc:PriceAmount': amount(Math.abs(netCents / qty)), 'cbc:PriceAmount@currencyID': cur }
    : { 'cbc:PriceAmount': amount(Math.abs(netCents)), 'cbc:PriceAmount@currencyID': cur, 'cbc:BaseQuantity': String(Math.abs(qty)), 'cbc:BaseQuantity@unitCode': 'C62' };
}

/**
 * A line's promo codes and vouchers as line allowances (BG-27, reason code 95 "Discount"): the
 * price is then the list price, and quantity × price − allowances is the line net (BT-131). The
 * allowances' net is what the list price's net exceeds the line's, split over the codes in
 * proportion to their amounts (the rounding rest on the last).
 */
function lineAllowances(inv: IssuedInvoice, l: IssuedInvoice['lines'][number] & { net_cents: number }, cur: string) {
  const off = l.discounts ?? [];
  const gross = off.reduce((s, d) => s + d.amount_cents, 0);
  const listNet = lineAmounts({ ...l, total_cents: l.total_cents + gross }).net_cents;
  const allowance = listNet - l.net_cents;
  if (off.length === 0 || allowance <= 0) return { 'cac:Price': price(l.net_cents, l.quantity, cur) };
  let left = allowance;
  const parts = off.map((d, k) => {
    const part = k === off.length - 1 ? left : Math.floor((allowance * d.amount_cents) / gross);
    left -= part;
    return { d, part };
  });
  return {
    'cac:AllowanceCharge': parts.filter((p) => p.part > 0).map(({ d, part }) => ({
      'cbc:ChargeIndicator': 'false',
      'cbc:AllowanceChargeReasonCode': '95',
      'cbc:AllowanceChargeReason': t(inv.locale, 'invoice.discount', { code: d.code }),
      'cbc:Amount': amount(part),
      'cbc:Amount@currencyID': cur,
    })),
    'cac:Price': price(listNet, l.quantity, cur),
  };
}

const noLogs = { log() {}, warn() {}, error() {} };

// What InvoiceService.generate does, with the schema compiled once per process: the library
// compiles its EN 16931 JSON schema on every call (0.5–1 s of CPU), which would make e-invoices
// the slowest documents by far. Same schema, same Ajv options, same format service.
let engine: { format: EInvoiceFormat; validate: ValidateFunction<Invoice>; validation: ValidationService } | undefined;
function eInvoiceEngine() {
  if (engine) return engine;
  const format = new FormatFactoryService().createFormatService(E_INVOICE_FORMAT, noLogs);
  const schema = structuredClone(invoiceSchema);
  format.patchSchema(schema);
  const validate = new Ajv2019({ strict: true, allErrors: true, useDefaults: true }).compile(schema) as ValidateFunction<Invoice>;
  engine = { format, validate, validation: new ValidationService(noLogs) };
  return engine;
}

/** Validates the data against the library's EN 16931 schema; throws its ValidationError. */
export function validateEInvoiceData(data: Invoice): Invoice {
  const e = eInvoiceEngine();
  return e.validation.validate('invoice data', e.validate, structuredClone(data));
}

export function eInvoiceData(inv: IssuedInvoice): Invoice {
  const cur = inv.currency;
  const totals = computeInvoiceTotals(inv.lines);
  const due = inv.kind === 'invoice' ? (inv.due_date ?? null) : null;
  const paid = inv.kind === 'invoice' ? (inv.payments ?? []) : [];
  const taxCat = (p: number) => ({ 'cbc:ID': p > 0 ? 'S' : 'Z', 'cbc:Percent': pct(p), 'cac:TaxScheme': { 'cbc:ID': 'VAT' } });
  // Not subject to VAT (a gift card sold, ADR 0043): category O carries no rate (BR-O-05), its
  // breakdown an exemption reason (BR-O-10), and the invoice no seller VAT identifier (BR-O-02).
  const notSubject = { 'cbc:ID': 'O', 'cac:TaxScheme': { 'cbc:ID': 'VAT' } };
  const outOfScope = totals.lines.some((l) => l.vat_category === 'O');
  const s = inv.seller;
  const b = inv.buyer;
  const data = {
    'ubl:Invoice': {
      'cbc:CustomizationID': 'urn:cen.eu:en16931:2017',
      'cbc:ID': inv.number,
      'cbc:IssueDate': inv.issued_at.slice(0, 10),
      ...(due ? { 'cbc:DueDate': due } : {}),
      'cbc:InvoiceTypeCode': inv.kind === 'credit_note' ? '381' : '380',
      'cbc:DocumentCurrencyCode': cur,
      'cbc:BuyerReference': inv.order.reference ?? String(inv.order.id),
      'cac:InvoicePeriod': { 'cbc:StartDate': inv.service.from, 'cbc:EndDate': inv.service.to },
      'cac:OrderReference': { 'cbc:ID': String(inv.order.id) },
      // BG-3 for credit notes: validated here, written by withPrecedingInvoice (see there).
      ...(inv.refers_to
        ? { 'cac:BillingReference': [{ 'cac:InvoiceDocumentReference': { 'cbc:ID': inv.refers_to.number, 'cbc:IssueDate': inv.refers_to.issued_at.slice(0, 10) } }] }
        : {}),
      'cac:AccountingSupplierParty': {
        'cac:Party': {
          ...(s.email ? { 'cbc:EndpointID': s.email, 'cbc:EndpointID@schemeID': 'EM' } : {}),
          'cac:PartyName': { 'cbc:Name': s.name },
          'cac:PostalAddress': {
            'cbc:StreetName': s.street,
            'cbc:CityName': s.city,
            'cbc:PostalZone': s.zip,
            'cac:Country': { 'cbc:IdentificationCode': s.country },
          },
          'cac:PartyTaxScheme': [
            ...(s.vatId && !outOfScope ? [{ 'cbc:CompanyID': s.vatId, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } }] : []),
            ...(s.taxNumber ? [{ 'cbc:CompanyID': s.taxNumber, 'cac:TaxScheme': { 'cbc:ID': 'FC' } }] : []),
          ],
          'cac:PartyLegalEntity': { 'cbc:RegistrationName': s.name },
        },
      },
      'cac:AccountingCustomerParty': {
        'cac:Party': {
          ...(b?.email ? { 'cbc:EndpointID': b.email, 'cbc:EndpointID@schemeID': 'EM' } : {}),
          'cac:PostalAddress': {
            ...(b?.street ? { 'cbc:StreetName': b.street } : {}),
            ...(b?.city ? { 'cbc:CityName': b.city } : {}),
            ...(b?.zip ? { 'cbc:PostalZone': b.zip } : {}),
            'cac:Country': { 'cbc:IdentificationCode': b?.country ?? s.country },
          },
          'cac:PartyLegalEntity': { 'cbc:RegistrationName': b ? b.name : t(inv.locale, 'invoice.anonymous_buyer') },
        },
      },
      'cac:Delivery': { 'cbc:ActualDeliveryDate': inv.service.from },
      // BG-16 and BT-22: how it was paid; a gift card is a payment means, never an allowance.
      ...(paid.length > 0
        ? {
            'cac:PaymentMeans': paid.map((p) => ({ 'cbc:PaymentMeansCode': paymentMeansCode(p), 'cbc:PaymentMeansCode@name': paymentLabel(inv.locale, p) })),
            'cbc:Note': [`${t(inv.locale, 'invoice.payments')}: ${paid.map((p) => `${paymentLabel(inv.locale, p)} ${amount(p.amount_cents)} ${cur}`).join('; ')}`],
          }
        : {}),
      'cac:TaxTotal': [
        {
          'cbc:TaxAmount': amount(totals.vat_cents),
          'cbc:TaxAmount@currencyID': cur,
          'cac:TaxSubtotal': totals.by_rate.map((r) => ({
            'cbc:TaxableAmount': amount(r.net_cents),
            'cbc:TaxableAmount@currencyID': cur,
            'cbc:TaxAmount': amount(r.vat_cents),
            'cbc:TaxAmount@currencyID': cur,
            'cac:TaxCategory': r.category === 'O'
              ? { ...notSubject, 'cbc:TaxExemptionReasonCode': 'VATEX-EU-O', 'cbc:TaxExemptionReason': t(inv.locale, 'invoice.not_subject') }
              : { ...taxCat(r.vat_pct), ...(r.vat_pct > 0 ? {} : { 'cbc:TaxExemptionReason': 'Zero rated' }) },
          })),
        },
      ],
      'cac:LegalMonetaryTotal': {
        'cbc:LineExtensionAmount': amount(totals.net_cents),
        'cbc:LineExtensionAmount@currencyID': cur,
        'cbc:TaxExclusiveAmount': amount(totals.net_cents),
        'cbc:TaxExclusiveAmount@currencyID': cur,
        'cbc:TaxInclusiveAmount': amount(totals.gross_cents),
        'cbc:TaxInclusiveAmount@currencyID': cur,
        // Paid with the order: all of it prepaid. To be paid by transfer: all of it due (BT-9 says when).
        'cbc:PrepaidAmount': amount(due ? 0 : totals.gross_cents),
        'cbc:PrepaidAmount@currencyID': cur,
        'cbc:PayableAmount': amount(due ? totals.gross_cents : 0),
        'cbc:PayableAmount@currencyID': cur,
      },
      'cac:InvoiceLine': totals.lines.map((l, i) => ({
        'cbc:ID': String(i + 1),
        'cbc:InvoicedQuantity': String(l.quantity),
        'cbc:InvoicedQuantity@unitCode': 'C62',
        'cbc:LineExtensionAmount': amount(l.net_cents),
        'cbc:LineExtensionAmount@currencyID': cur,
        'cac:InvoicePeriod': { 'cbc:StartDate': l.service_date, 'cbc:EndDate': l.service_date },
        'cac:Item': {
          ...(l.detail ? { 'cbc:Description': l.detail } : {}),
          'cbc:Name': l.title,
          'cac:ClassifiedTaxCategory': l.vat_category === 'O' ? notSubject : taxCat(l.vat_pct),
        },
        ...lineAllowances(inv, l, cur),
      })),
    },
  };
  return data as unknown as Invoice;
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * BG-3 (preceding invoice reference) in CII. @e-invoice-eu/core 2.3.4 validates
 * cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID but its CII mapping reads
 * cac:BillingReference/cbc:ID, so the reference never reaches the XML. It is written here, where
 * the CII schema puts it: right after the header monetary summation in the settlement.
 */
function withPrecedingInvoice(xml: string, ref: NonNullable<IssuedInvoice['refers_to']>): string {
  const anchor = '</ram:SpecifiedTradeSettlementHeaderMonetarySummation>';
  const at = xml.indexOf(anchor);
  if (at < 0 || xml.includes('<ram:InvoiceReferencedDocument>')) throw new Error('e-invoice: no place for the preceding invoice reference');
  const date = ref.issued_at.slice(0, 10).replace(/-/g, '');
  const block =
    `\n\t\t\t<ram:InvoiceReferencedDocument>\n\t\t\t\t<ram:IssuerAssignedID>${xmlEscape(ref.number)}</ram:IssuerAssignedID>` +
    `\n\t\t\t\t<ram:FormattedIssueDateTime>\n\t\t\t\t\t<qdt:DateTimeString format="102">${date}</qdt:DateTimeString>\n\t\t\t\t</ram:FormattedIssueDateTime>` +
    `\n\t\t\t</ram:InvoiceReferencedDocument>`;
  return xml.slice(0, at + anchor.length) + block + xml.slice(at + anchor.length);
}

/**
 * Every text value as the library's XML builder (xmlbuilder2) must be handed it to come out as
 * given. The builder first decodes its input once (`&amp;` → `&`, `&#38;` → `&`), then writes
 * `<` and `>` escaped but leaves an `&` alone wherever it starts something entity-shaped, so
 * "Kunst &S;" came out as an undefined entity (not well-formed) and a literal "&amp;" as "&".
 * Given each `&` as `&amp;amp;`, the decoding leaves `&amp;`, which the writer keeps: the XML
 * says exactly the text given. Applied after validation, so the EN 16931 schema checks
 * (lengths, formats) see the text itself; test/documents/einvoice-text.test.ts pins the library
 * behaviour this relies on.
 */
function forXmlBuilder<T>(v: T): T {
  if (typeof v === 'string') return v.replace(/&/g, '&amp;amp;') as T;
  if (Array.isArray(v)) return v.map(forXmlBuilder) as T;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, forXmlBuilder(x)])) as T;
  return v;
}

/** The e-invoice XML; throws when the library's EN 16931 checks reject the data. */
export async function renderEInvoiceXml(inv: IssuedInvoice): Promise<Buffer> {
  const e = eInvoiceEngine();
  const checked = validateEInvoiceData(eInvoiceData(inv));
  e.format.fillInvoiceDefaults(checked);
  const invoice = forXmlBuilder(checked);
  const out = await e.format.generate(invoice, { format: E_INVOICE_FORMAT, lang: inv.locale, noWarnings: true });
  const xml = typeof out === 'string' ? out : new TextDecoder().decode(out);
  return Buffer.from(inv.refers_to ? withPrecedingInvoice(xml, inv.refers_to) : xml, 'utf8');
}
