// Request bodies of the staff catalogue writes. Bodies may come bare or wrapped in their singular
// key (`{"ticket": {...}}`, docs/api-contract.md §1). The schemas bound every number so absurd values are a
// 422 here; cross-field and reference rules live in domain/catalog/rules.ts. Unknown fields are
// ignored. Every field is optional in the schema: create verbs report what is missing.
import { Type } from 'typebox';
import { Nullable, StringEnum } from './common.ts';

const Int = (min: number, max = 2_147_483_647) => Type.Integer({ minimum: min, maximum: max });
const Ids = Type.Array(Int(1), { maxItems: 500 });
const TextIn = Type.Union([Type.String({ maxLength: 10_000 }), Type.Record(Type.String(), Type.String({ maxLength: 10_000 }))], {
  description: 'A string (stored under the default locale) or an object keyed by locale.',
});
const Opt = Type.Optional;
const Money = Int(0, 100_000_000);
const Hours = Nullable(Type.Array(Int(0, 2880), { minItems: 2, maxItems: 2 }));

const Texts = { title: Opt(TextIn), sub_title: Opt(Nullable(TextIn)), description: Opt(Nullable(TextIn)) };
const Sellable = {
  price_cents: Opt(Money),
  reseller_price_cents: Opt(Nullable(Money)),
  vat_pct: Opt(Type.Number({ minimum: 0, maximum: 100 })),
  tax_included: Opt(Type.Boolean()),
  sales_channels: Opt(Type.Array(StringEnum(['shop', 'reseller']), { maxItems: 2 })),
  reseller_account_ids: Opt(Ids),
  active: Opt(Type.Boolean()),
};

export const MuseumBody = Type.Object({
  ...Texts,
  time_zone: Opt(Type.String({ maxLength: 64 })),
  location: Opt(Nullable(Type.Object({}, { additionalProperties: true }))),
  opening_hours: Opt(Type.Array(Hours, { minItems: 7, maxItems: 7, description: 'Monday first: [open, close] minutes, or null (closed).' })),
  opening_exceptions: Opt(Type.Record(Type.String(), Hours)),
});

export const ExhibitionBody = Type.Object({
  museum_id: Opt(Int(1)),
  ...Texts,
  featured: Opt(Type.Boolean()),
  time_frames: Opt(Type.Array(Type.Object({ start_at: Type.String({ maxLength: 40 }), end_at: Type.String({ maxLength: 40 }) }), { maxItems: 100 })),
});

export const QuotaBody = Type.Object({
  museum_id: Opt(Int(1)),
  name: Opt(Type.String({ maxLength: 200 })),
  kind: Opt(StringEnum(['slot', 'day'])),
  capacity: Opt(Int(0, 1_000_000)),
});
export const QuotaOverrideBody = Type.Object({ capacity: Nullable(Int(0, 1_000_000)) });

export const TicketBody = Type.Object({
  museum_id: Opt(Int(1)),
  ...Texts,
  ticket_type: Opt(StringEnum(['time_slot', 'normal'])),
  ...Sellable,
  discount: Opt(Int(0, 100)),
  first_entry: Opt(Int(0, 1439)),
  last_entry: Opt(Int(0, 1439)),
  entry_duration: Opt(Nullable(Int(15, 720))),
  min_persons: Opt(Int(1, 100_000)),
  max_persons: Opt(Int(1, 100_000)),
  attendees: Opt(StringEnum(['none', 'optional', 'required'])),
  valid_from: Opt(Nullable(Type.String({ maxLength: 10 }))),
  valid_until: Opt(Nullable(Type.String({ maxLength: 10 }))),
  exhibition_ids: Opt(Ids),
  quota_ids: Opt(Ids),
});

export const LanguageBody = Type.Object({ code: Opt(Type.String({ maxLength: 20 })), name: Opt(Type.String({ maxLength: 100 })) });
export const Language = Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() });

/** A category by name (found or created), by `{id}`, or `{name}`; null for none. */
const CategoryBody = Nullable(
  Type.Union([Type.String({ maxLength: 200 }), Type.Object({ id: Int(1) }), Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) })], {
    description: 'A category name (created when new; "" is none), {"id": …} of an existing category of this kind, or {"name": …}.',
  }),
);

export const EventBody = Type.Object({
  museum_id: Opt(Int(1)),
  exhibition_id: Opt(Nullable(Int(1))),
  ...Texts,
  category: Opt(CategoryBody),
  featured: Opt(Type.Boolean()),
  ...Sellable,
});

export const EventDateBody = Type.Object({
  start_time: Opt(Type.String({ maxLength: 40, description: 'ISO 8601; without offset it is read in the museum zone.' })),
  duration: Opt(Int(1, 1440)),
  seats_min: Opt(Int(1, 1_000_000)),
  seats_max: Opt(Int(0, 1_000_000)),
  max_per_registration: Opt(Nullable(Int(1, 1_000_000))),
  language_id: Opt(Nullable(Int(1))),
  active: Opt(Type.Boolean()),
});

/** Recurring dates (docs/api-contract.md §13 in docs): an RFC 5545 RRULE in the museum's wall time. */
export const Recurrence = Type.Object({
  rrule: Type.String({ maxLength: 500, description: 'RFC 5545 RRULE, e.g. FREQ=WEEKLY;BYDAY=SA,SU;UNTIL=20270331T000000Z (UNTIL or COUNT required, at most 1,000 dates).' }),
  start_date: Opt(Type.String({ maxLength: 10, description: 'First date the rule counts from (museum-local, YYYY-MM-DD); default today.' })),
  start_time: Type.Union([Type.String({ maxLength: 5 }), Int(0, 1439)], { description: 'Wall time of every date, "HH:MM" (same on both sides of a DST change).' }),
  duration: Opt(Int(1, 1440)),
  seats: Opt(Int(0, 1_000_000)),
});

/** POST /events/:id/dates: one date, or `recurrence` for many (the other fields apply to each). */
export const EventDateCreateBody = Type.Object({ ...EventDateBody.properties, recurrence: Opt(Recurrence) });

export const TourBody = Type.Object({
  museum_id: Opt(Int(1)),
  exhibition_id: Opt(Nullable(Int(1))),
  ...Texts,
  category: Opt(CategoryBody),
  featured: Opt(Type.Boolean()),
  duration: Opt(Int(15, 720)),
  min_persons: Opt(Int(1, 10_000)),
  max_persons: Opt(Int(1, 10_000)),
  max_concurrent: Opt(Int(1, 1000)),
  window_start: Opt(Int(0, 1439)),
  window_end: Opt(Int(1, 1440)),
  step: Opt(Int(5, 720)),
  pricing: Opt(StringEnum(['group', 'person'])),
  ...Sellable,
  language_ids: Opt(Ids),
});
