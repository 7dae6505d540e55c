// Response schemas of the catalogue (docs/reference/gomus-v4-facts.md §3). fast-json-stringify sends only what is
// listed here, so every field of domain/catalog/views.ts appears; back-office fields are optional
// (present for user tokens only).
import { Type, type TSchema } from 'typebox';
import { Id, IdList, ListMeta, Nullable, PageQuery } from './common.ts';


/** One locale: a string; `locale[]=…` with a token: an object keyed by locale. */
export const Text = Type.Union([Type.String(), Type.Record(Type.String(), Nullable(Type.String()))], {
  description: 'A string, or with `locale[]` an object keyed by locale.',
});
const NText = Nullable(Text);
export const LanguageRef = Type.Object({ id: Type.Integer(), name: Type.String() });
/** go~mus tag object: an event's or tour's category (GET /events/categories, /tours/categories). */
export const CategoryRef = Type.Object({ id: Type.Integer(), name: Type.String() });
/** go~mus tag filters Atrium keeps: `by_language_ids[]`, `by_category_ids[]` and `by_categories[]` (names; a record matching either category filter is listed). */
export const TagFilters = {
  by_language_ids: Type.Optional(IdList),
  by_category_ids: Type.Optional(IdList),
  by_categories: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 500, description: 'Category names.' })),
};

const BackOffice = {
  sales_channels: Type.Optional(Type.Array(Type.String(), { description: 'User tokens only.' })),
  reseller_account_ids: Type.Optional(Type.Array(Type.Integer(), { description: 'User tokens only.' })),
  reseller_price_cents: Type.Optional(Nullable(Type.Integer({ description: 'User tokens only.' }))),
  active: Type.Optional(Type.Boolean({ description: 'User tokens only.' })),
};
const Texts = { title: Text, sub_title: NText, description: NText };
const Price = { price_cents: Type.Integer({ description: 'Reseller price for resellers where one is set.' }), vat_pct: Type.Number(), tax_included: Type.Boolean() };

const Url = (size: string) => Type.String({ description: `${size}: a JPEG under /media (the same path ending in .webp is WebP).` });
/** go~mus's picture object: the record's current picture, null when it has none (docs/gomus-compatibility.md). */
export const PictureObject = Type.Object({
  title: Nullable(Type.String()),
  description: Nullable(Type.String()),
  copyright_info: Nullable(Type.String()),
  teaser: Url('At most 320 px'),
  preview: Url('At most 640 px'),
  article: Url('At most 1024 px'),
  detail: Url('At most 1600 px'),
  original: Url('Full size, metadata removed'),
});
export const Picture = Nullable(PictureObject);

export const Museum = Type.Object({
  id: Type.Integer(),
  ...Texts,
  time_zone: Type.String(),
  location: Nullable(Type.Object({}, { additionalProperties: true })),
  picture: Picture,
  weekly_opening_hours: Type.Optional(Type.Array(Nullable(Type.Array(Type.Integer())), { description: 'User tokens only.' })),
  opening_exceptions: Type.Optional(Type.Record(Type.String(), Nullable(Type.Array(Type.Integer())), { description: 'User tokens only.' })),
});

export const Exhibition = Type.Object({
  id: Type.Integer(),
  museum_id: Type.Integer(),
  ...Texts,
  featured: Type.Boolean(),
  time_frames: Type.Array(Type.Object({ start_at: Type.String(), end_at: Type.String() })),
  picture: Picture,
});

export const Ticket = Type.Object({
  id: Type.Integer(),
  ...Texts,
  ticket_type: Type.String({ description: 'time_slot or normal (day ticket)' }),
  bookable: Type.Boolean(),
  museum_ids: Type.Array(Type.Integer()),
  exhibition_ids: Type.Array(Type.Integer()),
  quota_ids: Type.Array(Type.Integer()),
  ...Price,
  discount: Type.Integer(),
  first_entry: Type.Integer({ description: 'Minutes after midnight.' }),
  last_entry: Type.Integer(),
  entry_duration: Nullable(Type.Integer()),
  min_persons: Type.Integer(),
  max_persons: Type.Integer(),
  attendees: Type.String(),
  personalizeable: Type.Boolean({ description: 'go~mus: always false (no annual tickets).' }),
  identification: Type.Boolean({ description: 'go~mus: always false (no ID check hint).' }),
  after_sale_information: Nullable(Type.String({ description: 'go~mus: always null.' })),
  picture: Picture,
  valid_from: Nullable(Type.String()),
  valid_until: Nullable(Type.String()),
  ...BackOffice,
});

const EventCommon = {
  museum_id: Type.Integer(),
  exhibition_id: Nullable(Type.Integer()),
  ...Texts,
  category: Nullable(CategoryRef),
  bookable: Type.Boolean(),
  ...Price,
};

/** A go~mus tag (`{id, name}`); Atrium keeps none, so every tag list is empty. */
const Tags = Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() }));
/** go~mus event fields: the museum's address; the rest constant (docs/gomus-compatibility.md). */
const EventGomus = {
  location: Nullable(Type.Object({}, { additionalProperties: true, description: "The museum's address." })),
  registerable: Type.Boolean({ description: 'go~mus: always false (no public registration form).' }),
  content: Type.Object({}, { additionalProperties: true, description: 'go~mus dynamic content: always empty.' }),
  age_groups: Tags, audiences: Tags, catch_words: Tags, disablements: Tags, grades: Tags, proposal_categories: Tags,
  picture: Picture,
};

export const Event = Type.Object({
  id: Type.Integer(), ...EventCommon, featured: Type.Boolean(), languages: Type.Array(LanguageRef), ...EventGomus, ...BackOffice,
  // Last, so the list's kept row JSON can be completed by appending it (domain/catalog/listEvents.ts).
  upcoming_bookings_start_times: Type.Optional(Type.Array(Type.String(), {
    description: 'Lists and one event (not write answers): museum-local "YYYY-MM-DD HH:MM:SS" of the next bookable dates, at most 5 within 92 days, earliest first.',
  })),
});

export const EventDate = Type.Object({
  id: Type.Integer(),
  event_id: Type.Integer(),
  ...EventCommon,
  start_time: Type.String(),
  duration: Type.Integer(),
  seats: Type.Object({
    min: Type.Integer(),
    max: Type.Integer(),
    booked: Type.Integer(),
    available: Type.Integer(),
    max_per_registration: Nullable(Type.Integer()),
  }),
  language: Nullable(LanguageRef),
  closed: Type.Boolean({ description: 'Outside opening hours or inside a closure (docs/api-contract.md §13); then bookable is false.' }),
  active: Type.Optional(Type.Boolean({ description: 'User tokens only.' })),
  prices: Type.Optional(Type.Array(Type.Object({
    group: Type.Boolean(), optional: Type.Boolean(), price_cents: Type.Integer(), vat_pct: Type.Number(),
  }), { description: 'One date only: go~mus default price, per seat.' })),
  discount: Type.Optional(Type.Integer({ description: 'One date only: always 0.' })),
  seatings: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }), { description: 'One date only: always [] (no seated events).' })),
});

export const Tour = Type.Object({
  id: Type.Integer(),
  museum_id: Type.Integer(),
  exhibition_id: Nullable(Type.Integer()),
  ...Texts,
  category: Nullable(CategoryRef),
  featured: Type.Boolean(),
  duration: Type.Integer(),
  min_persons: Type.Integer(),
  max_persons: Type.Integer(),
  max_concurrent: Type.Integer(),
  window_start: Type.Integer(),
  window_end: Type.Integer(),
  step: Type.Integer(),
  languages: Type.Array(LanguageRef),
  bookable: Type.Boolean(),
  ...Price,
  pricing: Type.String(),
  ...EventGomus,
  ...BackOffice,
});

export const Quota = Type.Object({
  id: Type.Integer(),
  museum_id: Type.Integer(),
  name: Type.String(),
  kind: Type.String({ description: "'slot' (per time slot) or 'day' (per museum-local day)" }),
  capacity: Type.Integer(),
  overrides: Type.Array(Type.Object({ date: Type.String(), capacity: Nullable(Type.Integer()) })),
  ticket_ids: Type.Array(Type.Integer()),
});

// No `type` keyword on purpose: with ajv's array coercion a one-element `locale[]=de` would be
// turned into the string "de" (or `locale=de` into an array), losing which form was sent. The
// values are checked in domain/catalog/internal.ts (resolveLocale → 422 for unknown locales).
export const LocaleQuery = Type.Optional(
  Type.Unsafe<string | string[]>({
    description: 'A string (`locale=de`), or with a token an array (`locale[]=de&locale[]=en`).',
  }),
);

export const ListQuery = {
  ...PageQuery,
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive substring of the title (any locale).' })),
  locale: LocaleQuery,
  by_museum_ids: Type.Optional(IdList),
};
export const OneQuery = Type.Object({ locale: LocaleQuery });

/** `{"<plural>": [...], "meta": {...}}` */
export const listOf = (key: string, item: TSchema) => Type.Object({ [key]: Type.Array(item), meta: ListMeta });
export const oneOf = (key: string, item: TSchema) => Type.Object({ [key]: item });

export const DateString = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
export { Id, IdList };
