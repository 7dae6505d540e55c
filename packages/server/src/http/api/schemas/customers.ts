// Customer request and response schemas (spec 2.2, docs/api-contract.md §8). Input fields are loose optional
// strings on purpose: missing or blank fields must reach the domain so the client sees its
// Rails-style messages ("Email can't be blank"); numbers and null are coerced by the validator
// (null → "" → "clear this field"). Only wrong JSON types (objects, arrays) fail here.
import { Type } from 'typebox';
import { ListMeta, Nullable, PageQuery } from './common.ts';

const In = (description: string) => Type.Optional(Type.String({ description }));

export const CustomerInput = Type.Object(
  {
    foreign_id: In('Your own key for the customer (16+ random characters or a UUID recommended); unique per account.'),
    salutation: In('e.g. "Frau", "Herr", "divers".'),
    title: In('e.g. "Dr.", "Prof.".'),
    name: In('First name; required on create.'),
    surname: In('Family name; required on create.'),
    email: In('Required on create.'),
    phone: In('At least 5 characters.'),
    tel: In('go~mus alias of phone.'),
    institution: In('Organisation, school, company.'),
    street: In('Street and number.'),
    zip: In('Postal code.'),
    city: In('City.'),
    country: In('ISO 3166-1 alpha-2 code, e.g. "DE".'),
    locale: In('Preferred language, e.g. "de" or "en-GB".'),
  },
  { description: 'Also accepted wrapped as {"customer": {...}}. Blank or null clears an optional field on update.' },
);

const NullableString = Nullable(Type.String());

export const Customer = Type.Object({
  id: Type.Integer(),
  foreign_id: NullableString,
  salutation: NullableString,
  title: NullableString,
  name: Type.String(),
  surname: Type.String(),
  email: Type.String(),
  phone: NullableString,
  institution: NullableString,
  street: NullableString,
  zip: NullableString,
  city: NullableString,
  country: NullableString,
  locale: NullableString,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const CustomerEnvelope = Type.Object({ customer: Customer });

export const CustomerList = Type.Object({ customers: Type.Array(Customer), meta: ListMeta });

export const CustomerParam = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255, description: 'Numeric id, falling back to foreign_id.' }),
});

export const CustomerQuery = Type.Object({
  foreign_id: Type.Optional(Type.String({ maxLength: 255, description: 'Exact foreign_id.' })),
  email: Type.Optional(Type.String({ maxLength: 254, description: 'E-mail address, case-insensitive.' })),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Start of the surname or first name, or "Surname, Name"; umlauts match ue/oe/ae, ß matches ss, accents and apostrophes are ignored (as in the console search).' })),
  ...PageQuery,
});
