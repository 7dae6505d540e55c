// Invoice issuer settings (§14 Abs. 4 UStG: the issuer's full name and address, and its VAT ID or
// tax number, are mandatory on every invoice). They come from the environment like every other
// instance setting (docs/operations.md); `atrium serve --demo` (ATRIUM_DEMO) fills in a sample
// issuer when none is given, so the demo shows real invoices. Missing settings do not stop the
// service: invoices are refused, naming the variables to set (missingIssuerSettings), while
// tickets and everything else keep working.
export interface Issuer {
  name: string;
  street: string;
  zip: string;
  city: string;
  /** ISO 3166-1 alpha-2 */
  country: string;
  vatId: string | null;
  taxNumber: string | null;
  email: string | null;
}

export interface InvoiceSettings {
  issuer: Partial<Issuer> & { country: string };
  /**
   * Issue invoices up to 250 € gross in the small-amount form of § 33 UStDV (no recipient, no
   * net/VAT split per line: gross amount and the rate suffice). Default off: full invoices.
   */
  smallAmount: boolean;
  /** Days an invoice paid by bank transfer (payment method `invoice`) gives (ATRIUM_INVOICE_DUE_DAYS). */
  dueDays: number;
}

/** The demo install's issuer: clearly a sample (the VAT ID is syntactically valid, not real). */
export const DEMO_ISSUER: Issuer = {
  name: 'Atrium Demo Museum gGmbH',
  street: 'Museumsinsel 1',
  zip: '10178',
  city: 'Berlin',
  country: 'DE',
  vatId: 'DE123456789',
  taxNumber: null,
  email: 'rechnung@demo-museum.example',
};

type Env = Record<string, string | undefined>;

/** `fail` throws the caller's configuration error (config.ts: ConfigError, naming the variable). */
export function invoiceSettingsFromEnv(env: Env, demo: boolean, fail: (message: string) => never): InvoiceSettings {
  const v = (name: string) => env[name]?.trim() || undefined;
  const country = (v('ATRIUM_ISSUER_COUNTRY') ?? 'DE').toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) fail(`ATRIUM_ISSUER_COUNTRY must be an ISO 3166 country code such as DE, got "${country}"`);
  const vatId = v('ATRIUM_ISSUER_VAT_ID')?.replace(/\s+/g, '').toUpperCase();
  if (vatId && !/^[A-Z]{2}[0-9A-Z+*.]{2,12}$/.test(vatId)) {
    fail(`ATRIUM_ISSUER_VAT_ID must be a VAT identification number such as DE123456789, got "${vatId}"`);
  }
  const smallRaw = (v('ATRIUM_INVOICE_SMALL_AMOUNT') ?? 'false').toLowerCase();
  if (!['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'].includes(smallRaw)) {
    fail(`ATRIUM_INVOICE_SMALL_AMOUNT must be true or false, got "${smallRaw}"`);
  }
  const smallAmount = ['1', 'true', 'yes', 'on'].includes(smallRaw);
  const dueRaw = v('ATRIUM_INVOICE_DUE_DAYS') ?? '14';
  if (!/^\d{1,3}$/.test(dueRaw) || Number(dueRaw) < 1 || Number(dueRaw) > 365) fail(`ATRIUM_INVOICE_DUE_DAYS must be a number of days from 1 to 365, got "${dueRaw}"`);
  const dueDays = Number(dueRaw);
  if (demo && !v('ATRIUM_ISSUER_NAME')) return { issuer: DEMO_ISSUER, smallAmount, dueDays };
  return {
    issuer: {
      name: v('ATRIUM_ISSUER_NAME'),
      street: v('ATRIUM_ISSUER_STREET'),
      zip: v('ATRIUM_ISSUER_ZIP'),
      city: v('ATRIUM_ISSUER_CITY'),
      country,
      vatId: vatId ?? null,
      taxNumber: v('ATRIUM_ISSUER_TAX_NUMBER') ?? null,
      email: v('ATRIUM_ISSUER_EMAIL') ?? null,
    },
    smallAmount,
    dueDays,
  };
}

/** The variables still to set before invoices can be issued; empty when complete. */
export function missingIssuerSettings(s: InvoiceSettings): string[] {
  const i = s.issuer;
  const missing: string[] = [];
  if (!i.name) missing.push('ATRIUM_ISSUER_NAME');
  if (!i.street) missing.push('ATRIUM_ISSUER_STREET');
  if (!i.zip) missing.push('ATRIUM_ISSUER_ZIP');
  if (!i.city) missing.push('ATRIUM_ISSUER_CITY');
  if (!i.vatId && !i.taxNumber) missing.push('ATRIUM_ISSUER_VAT_ID or ATRIUM_ISSUER_TAX_NUMBER');
  return missing;
}

export function completeIssuer(s: InvoiceSettings): Issuer | null {
  return missingIssuerSettings(s).length ? null : (s.issuer as Issuer);
}
