// Customer input parsing and validation with Rails-style full messages (spec 7.2: "Email can't be
// blank", "Phone is too short (minimum is 5 characters)"). The same rules serve POST, PUT (on the
// merged record) and customers embedded in orders and requests, so a client sees one vocabulary.
import { COUNTRY_CODES } from './countries.ts';

export const CUSTOMER_FIELDS = [
  'foreign_id',
  'salutation',
  'title',
  'name',
  'surname',
  'email',
  'phone',
  'institution',
  'street',
  'zip',
  'city',
  'country',
  'locale',
] as const;
export type CustomerField = (typeof CUSTOMER_FIELDS)[number];
/** A customer's writable fields; null means "not set". */
export type CustomerFields = Record<CustomerField, string | null>;

const LABEL: Record<CustomerField, string> = {
  foreign_id: 'Foreign id',
  salutation: 'Salutation',
  title: 'Title',
  name: 'Name',
  surname: 'Surname',
  email: 'Email',
  phone: 'Phone',
  institution: 'Institution',
  street: 'Street',
  zip: 'Zip',
  city: 'City',
  country: 'Country',
  locale: 'Locale',
};

const MAX: Record<CustomerField, number> = {
  foreign_id: 255,
  salutation: 50,
  title: 50,
  name: 255,
  surname: 255,
  email: 254,
  phone: 50,
  institution: 255,
  street: 255,
  zip: 20,
  city: 255,
  country: 2,
  locale: 10,
};

export const PHONE_MIN = 5;
const REQUIRED: CustomerField[] = ['name', 'surname', 'email'];
// Pragmatic address check (one @, no spaces, a dot in the domain): stricter rules reject real
// addresses, and deliverability is only ever proven by sending mail.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const PHONE = /^\+?[0-9 ()./-]+$/;
const LOCALE = /^[a-z]{2}(-[A-Z]{2})?$/;
// Control characters (NUL in particular, which PostgreSQL text refuses) never belong in these
// single-line fields.
const CONTROL = /[\u0000-\u001f\u007f]/;

export const EMPTY_CUSTOMER: CustomerFields = Object.fromEntries(CUSTOMER_FIELDS.map((f) => [f, null])) as CustomerFields;

const length = (s: string) => [...s].length;

/**
 * Reads the known fields of an object (unknown ones are ignored, docs/api-contract.md §1). Strings are trimmed,
 * blank or null means "clear this field", numbers are accepted as their decimal text (a numeric
 * foreign_id or zip), anything else is an error. `tel` (the go~mus name) is an alias of `phone`.
 */
export function parseCustomerFields(raw: Record<string, unknown>): { given: Partial<CustomerFields>; errors: string[] } {
  const given: Partial<CustomerFields> = {};
  const errors: string[] = [];
  const source: Record<string, unknown> = { ...raw };
  if (source.phone === undefined && source.tel !== undefined) source.phone = source.tel;
  for (const field of CUSTOMER_FIELDS) {
    const value = source[field];
    if (value === undefined) continue;
    if (value === null) {
      given[field] = null;
      continue;
    }
    if (typeof value === 'number' && Number.isFinite(value)) {
      given[field] = String(value);
      continue;
    }
    if (typeof value !== 'string' || CONTROL.test(value)) {
      errors.push(`${LABEL[field]} is invalid`);
      continue;
    }
    const trimmed = value.trim();
    given[field] = trimmed === '' ? null : field === 'country' ? trimmed.toUpperCase() : trimmed;
  }
  return { given, errors };
}

/** Checks a complete record; returns the full messages in a stable order (empty when valid). */
export function validateCustomer(c: CustomerFields): string[] {
  const errors: string[] = [];
  for (const field of CUSTOMER_FIELDS) {
    const value = c[field];
    const label = LABEL[field];
    if (value === null) {
      if (REQUIRED.includes(field)) errors.push(`${label} can't be blank`);
      continue;
    }
    if (field === 'country') {
      if (!COUNTRY_CODES.has(value)) errors.push(`${label} is not an ISO 3166-1 alpha-2 country code`);
      continue;
    }
    if (field === 'phone' && length(value) < PHONE_MIN) {
      errors.push(`${label} is too short (minimum is ${PHONE_MIN} characters)`);
      continue;
    }
    if (length(value) > MAX[field]) {
      errors.push(`${label} is too long (maximum is ${MAX[field]} characters)`);
      continue;
    }
    if (field === 'email' && !EMAIL.test(value)) errors.push(`${label} is invalid`);
    if (field === 'phone' && !PHONE.test(value)) errors.push(`${label} is invalid`);
    if (field === 'locale' && !LOCALE.test(value)) errors.push(`${label} is invalid`);
  }
  return errors;
}

/** "Email can't be blank" → "Customer email can't be blank" (a customer nested in an order). */
export function nested(prefix: string, messages: string[]): string[] {
  return messages.map((m) => `${prefix} ${m.charAt(0).toLowerCase()}${m.slice(1)}`);
}
