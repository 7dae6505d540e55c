// The shape of a catalogue file (`atrium import FILE`, documented with examples in
// packages/server/examples/catalogue.example.yaml). TypeBox checks the structure; rules that
// need more than one field (references, time windows, zones) live in rules.ts.
// Unknown fields are errors here, unlike the HTTP API: a typo such as `capcity` in a file an
// operator maintains by hand must not be silently ignored.
import { Type, type Static, type TSchema } from 'typebox';

const strict = { additionalProperties: false } as const;
const opt = <T extends TSchema>(t: T) => Type.Optional(t);
const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

// Integers end up in int4 columns: bounding them here keeps an absurd value a positioned
// validation error instead of a database failure.
const Int = (minimum: number) => Type.Integer({ minimum, maximum: 2_147_483_647 });
const Key = Type.String({ minLength: 1, maxLength: 100 });
const Text = Type.Record(Type.String(), Type.String(), { minProperties: 1 });
/** "HH:MM" or minutes after midnight / minutes of duration. */
const Clock = Type.Union([Type.String(), Int(0)]);
/** "HH:MM-HH:MM", or null / "closed". */
const Hours = nullable(Type.String());
const Cents = Int(0);
const DateText = Type.String();
const Channels = Type.Array(Type.Enum(['shop', 'reseller']));
const Persons = Int(0);
/** A category by name (created when new, per kind: docs/gomus-compatibility.md), or `{name}`. */
const Category = Type.Union([Type.String(), Type.Object({ name: Type.String() }, strict)]);

const described = {
  title: Text,
  sub_title: opt(nullable(Text)),
  description: opt(nullable(Text)),
};
const selling = {
  price_cents: Cents,
  reseller_price_cents: opt(nullable(Cents)),
  vat_pct: opt(Type.Number({ minimum: 0, maximum: 100 })),
  tax_included: opt(Type.Boolean()),
  sales_channels: opt(Channels),
  resellers: opt(Type.Array(Int(1))),
  active: opt(Type.Boolean()),
};

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

const Week = Type.Object(Object.fromEntries(WEEKDAYS.map((d) => [d, opt(Hours)])), strict);

const Language = Type.Object({ code: Type.String({ minLength: 2, maxLength: 10 }), name: Type.String({ minLength: 1 }) }, strict);

const Museum = Type.Object(
  {
    key: Key,
    ...described,
    time_zone: Type.String(),
    opening_hours: Week,
    opening_exceptions: opt(Type.Record(Type.String(), Hours)),
    /** Weekly hours that replace opening_hours from start_date to end_date; when given, the museum's seasons are these. */
    opening_seasons: opt(Type.Array(Type.Object({ start_date: DateText, end_date: DateText, hours: Week }, strict))),
    location: opt(
      Type.Object(
        {
          name: opt(Type.String()),
          street: opt(Type.String()),
          zip: opt(Type.String()),
          city: opt(Type.String()),
          country: opt(Type.String()),
          latitude: opt(Type.Number({ minimum: -90, maximum: 90 })),
          longitude: opt(Type.Number({ minimum: -180, maximum: 180 })),
        },
        strict,
      ),
    ),
  },
  strict,
);

const Exhibition = Type.Object(
  {
    key: Key,
    museum: Key,
    ...described,
    featured: opt(Type.Boolean()),
    time_frames: opt(Type.Array(Type.Object({ start_at: DateText, end_at: DateText }, strict))),
  },
  strict,
);

const Quota = Type.Object(
  {
    key: Key,
    museum: Key,
    name: opt(Type.String({ minLength: 1 })),
    kind: Type.Enum(['slot', 'day']),
    capacity: Int(0),
    overrides: opt(Type.Record(Type.String(), nullable(Int(0)))),
  },
  strict,
);

const Ticket = Type.Object(
  {
    key: Key,
    museum: Key,
    exhibitions: opt(Type.Array(Key)),
    quotas: opt(Type.Array(Key)),
    ...described,
    ticket_type: Type.Enum(['time_slot', 'normal']),
    ...selling,
    discount: opt(Type.Integer({ minimum: 0, maximum: 100 })),
    first_entry: Clock,
    last_entry: Clock,
    entry_duration: opt(nullable(Clock)),
    min_persons: opt(Persons),
    max_persons: opt(Persons),
    attendees: opt(Type.Enum(['none', 'optional', 'required'])),
    valid_from: opt(nullable(DateText)),
    valid_until: opt(nullable(DateText)),
  },
  strict,
);

/** Every date of an RFC 5545 rule at one wall time (docs/api-contract.md §13 in docs): FREQ=WEEKLY;BYDAY=SA,SU;UNTIL=… */
const Recurrence = Type.Object({ rrule: Type.String(), start_date: opt(DateText), start_time: Clock }, strict);

const EventDate = Type.Object(
  {
    key: opt(Key),
    start_at: opt(DateText),
    recurrence: opt(Recurrence),
    duration: opt(Clock),
    seats_min: opt(Int(1)),
    seats_max: Int(1),
    max_per_registration: opt(nullable(Int(1))),
    language: opt(nullable(Type.String())),
    active: opt(Type.Boolean()),
  },
  strict,
);

const Event = Type.Object(
  {
    key: Key,
    museum: Key,
    exhibition: opt(nullable(Key)),
    ...described,
    category: opt(nullable(Category)),
    featured: opt(Type.Boolean()),
    ...selling,
    price_cents: opt(Cents),
    dates: opt(Type.Array(EventDate)),
  },
  strict,
);

const Tour = Type.Object(
  {
    key: Key,
    museum: Key,
    exhibition: opt(nullable(Key)),
    ...described,
    category: opt(nullable(Category)),
    featured: opt(Type.Boolean()),
    duration: Clock,
    min_persons: opt(Int(1)),
    max_persons: Int(1),
    max_concurrent: opt(Int(1)),
    window_start: opt(Clock),
    window_end: opt(Clock),
    step: opt(Clock),
    pricing: opt(Type.Enum(['group', 'person'])),
    ...selling,
    languages: opt(Type.Array(Type.String())),
  },
  strict,
);

/** A closed period (docs/api-contract.md §13 in docs): the whole museum, or only the products and quotas it names by key. */
const Closure = Type.Object(
  {
    key: Key,
    museum: Key,
    start_date: DateText,
    end_date: opt(DateText),
    start_time: opt(Type.String()),
    end_time: opt(Type.String()),
    tickets: opt(Type.Array(Key)),
    quotas: opt(Type.Array(Key)),
    events: opt(Type.Array(Key)),
    tours: opt(Type.Array(Key)),
    reason: opt(nullable(Type.String({ maxLength: 500 }))),
  },
  strict,
);

export const CatalogueDocument = Type.Object(
  {
    languages: opt(Type.Array(Language)),
    museums: opt(Type.Array(Museum)),
    exhibitions: opt(Type.Array(Exhibition)),
    quotas: opt(Type.Array(Quota)),
    tickets: opt(Type.Array(Ticket)),
    events: opt(Type.Array(Event)),
    tours: opt(Type.Array(Tour)),
    closures: opt(Type.Array(Closure)),
  },
  strict,
);

export type CatalogueDocument = Static<typeof CatalogueDocument>;
export type MuseumDoc = Static<typeof Museum>;
export type TicketDoc = Static<typeof Ticket>;
export type EventDoc = Static<typeof Event>;
export type EventDateDoc = Static<typeof EventDate>;
export type ClosureDoc = Static<typeof Closure>;
export type TourDoc = Static<typeof Tour>;
