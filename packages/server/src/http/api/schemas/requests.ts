// Group booking request schemas (docs/api-contract.md §9). Body fields that carry Rails-style messages (date,
// participants, items, contact, customer) are optional here on purpose: a missing value must
// reach the domain so the client reads "Date can't be blank" in the "request could not be
// saved" list. Only wrong JSON types fail here. Bodies may come wrapped as {"request": {...}}.
import { Type } from 'typebox';
import { Id, ListMeta, Nullable, PageQuery } from './common.ts';

const Str = (description: string) => Type.Optional(Nullable(Type.String({ maxLength: 1000, description })));

const ItemInput = Type.Object({
  tour_id: Id,
  start_time: Type.String({ maxLength: 40, description: 'Tour start (ISO 8601), on the requested date.' }),
  language_id: Id,
});

const ContactInput = Type.Object(
  {
    name: Str('Required.'),
    surname: Str('Family name.'),
    email: Str('Email or phone is required.'),
    phone: Str('At least 5 characters.'),
    tel: Str('go~mus alias of phone.'),
    role: Str('e.g. "teacher".'),
  },
  { description: 'The person to talk to about this request.' },
);

export const CreateRequestBody = Type.Object(
  {
    foreign_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Your key; a repeat with the same content returns the existing request.' })),
    date: Type.Optional(Type.String({ maxLength: 40, description: 'YYYY-MM-DD, museum-local; not in the past.' })),
    participants: Type.Optional(Type.Integer({ maximum: 10_000, description: 'Group size (at least 1).' })),
    companions: Type.Optional(Type.Integer({ maximum: 10_000, description: 'Accompanying adults (teachers, carers).' })),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
    items: Type.Optional(Type.Array(ItemInput, { maxItems: 20, description: 'Requested tours (at least one).' })),
    customer: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'A new customer, as POST /customers.' })),
    customer_id: Type.Optional(Type.Union([Id, Type.String({ minLength: 1, maxLength: 255 })], { description: 'Existing customer id or foreign_id.' })),
    contact: Type.Optional(Nullable(ContactInput)),
  },
  { description: 'Also accepted wrapped as {"request": {...}}. Give customer or customer_id.' },
);

export const DeclineBody = Type.Object({
  reason: Type.Optional(Nullable(Type.String({ maxLength: 2000, description: 'Required; shown to the requester.' }))),
});

export const RequestParam = Type.Object({ id: Id });

const Status = Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('declined'), Type.Literal('withdrawn')]);

export const ListRequestsQuery = Type.Object({
  foreign_id: Type.Optional(Type.String({ maxLength: 255 })),
  status: Type.Optional(Status),
  updated_since: Type.Optional(Type.String({ maxLength: 40, description: 'Changed at or after (date or timestamp).' })),
  ...PageQuery,
});

const NullableString = Nullable(Type.String());

const Contact = Type.Object({
  name: Type.String(),
  surname: NullableString,
  email: NullableString,
  phone: NullableString,
  role: NullableString,
});

export const Request = Type.Object({
  id: Type.Integer(),
  foreign_id: NullableString,
  status: Status,
  date: Type.String({ description: 'YYYY-MM-DD' }),
  participants: Type.Integer(),
  companions: Type.Integer(),
  notes: NullableString,
  items: Type.Array(
    Type.Object({
      tour_id: Type.Integer(),
      start_time: Type.String({ format: 'date-time', description: "In the museum's zone." }),
      language_id: Type.Integer(),
    }),
  ),
  customer_id: Nullable(Type.Integer()),
  contact: Nullable(Contact),
  order_id: Nullable(Type.Integer({ description: 'The booking order once accepted.' })),
  decline_reason: NullableString,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const RequestEnvelope = Type.Object({ request: Request });
export const RequestList = Type.Object({ requests: Type.Array(Request), meta: ListMeta });
