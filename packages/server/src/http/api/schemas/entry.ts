// Entry control (docs/api-contract.md §14): scans, the offline manifest, occupancy.
import { Type } from 'typebox';
import { Id, ListMeta, Nullable, PageQuery } from './common.ts';

const Result = Type.String({ enum: ['valid', 'already_used', 'not_entered', 'not_yet_valid', 'expired', 'cancelled', 'wrong_museum', 'unknown'] });

export const ScanBody = Type.Object({
  barcode: Type.String({ minLength: 1, maxLength: 64, description: 'As printed or scanned, e.g. "403421029763-5".' }),
  direction: Type.Optional(Type.String({ enum: ['entry', 'exit'], default: 'entry' })),
  location: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  device_scan_id: Type.Optional(
    Nullable(Type.String({ minLength: 1, maxLength: 100, description: 'Unique per device; a repeat replays the first answer (200).' })),
  ),
  scanned_at: Type.Optional(
    Nullable(Type.String({ maxLength: 40, description: 'When an offline device scanned; at most 2 minutes ahead of the server.' })),
  ),
  people_count: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1000, description: 'Default: everybody the barcode covers.' }))),
});

export const ScanOut = Type.Object({
  id: Type.Integer(),
  barcode: Type.String(),
  direction: Type.String(),
  is_valid: Type.Boolean(),
  result: Result,
  message: Type.String({ description: 'Short display text in the museum language.' }),
  people_count: Type.Integer(),
  ticket: Nullable(Type.Object({ id: Type.Integer(), title: Type.String() })),
  start_at: Nullable(Type.String()),
  order_id: Nullable(Type.Integer()),
  museum_id: Nullable(Type.Integer()),
  entries_used: Type.Integer(),
  entries_allowed: Type.Integer(),
  scanned_at: Type.String(),
  location: Nullable(Type.String()),
  device: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
  revised: Type.Boolean({ description: 'A later-arriving earlier scan changed this verdict since (lists only).' }),
  used_at: Type.Optional(Nullable(Type.String({ description: 'already_used: when the barcode was last admitted (fresh answers only).' }))),
  entry_opens_at: Type.Optional(Nullable(Type.String({ description: 'not_yet_valid: when its entry opens (fresh answers only).' }))),
});

export const ScanEnvelope = Type.Object({ scan: ScanOut });
export const ScanList = Type.Object({ scans: Type.Array(ScanOut), meta: ListMeta });

const DateQ = Type.String({ maxLength: 10, description: 'YYYY-MM-DD in the museum zone; default today.' });

export const ListScansQuery = Type.Object({
  museum_id: Type.Optional(Id),
  date: Type.Optional(DateQ),
  barcode: Type.Optional(Type.String({ maxLength: 64 })),
  device: Type.Optional(Type.String({ maxLength: 100, description: 'Scanner account id or name.' })),
  ...PageQuery,
});

export const ManifestQuery = Type.Object({ museum_id: Id, date: Type.Optional(DateQ) });

export const ManifestOut = Type.Object({
  manifest: Type.Object({
    museum_id: Type.Integer(),
    date: Type.String(),
    generated_at: Type.String(),
    barcodes: Type.Array(
      Type.Object({
        barcode: Type.String(),
        order_id: Type.Integer(),
        ticket: Type.Object({ id: Type.Integer(), title: Type.String() }),
        start_at: Type.String(),
        opens_at: Type.String(),
        closes_at: Type.String(),
        people: Type.Integer(),
        entries_allowed: Type.Integer(),
        entries_used: Type.Integer(),
        reentry: Type.Boolean(),
        inside: Type.Boolean(),
      }),
    ),
  }),
});

export const OccupancyQuery = Type.Object({ museum_id: Id });

export const OccupancyOut = Type.Object({
  occupancy: Type.Object({
    museum_id: Type.Integer(),
    date: Type.String(),
    inside: Type.Integer(),
    entries_today: Type.Integer(),
    exits_today: Type.Integer(),
    by_hour: Type.Array(Type.Object({ hour: Type.Integer(), entries: Type.Integer(), exits: Type.Integer() })),
  }),
});

export const EntryRulesBody = Type.Object({
  entries_allowed: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 1 })),
  reentry: Type.Optional(Type.Boolean({ default: false, description: 'Admit again after an exit scan, without using an entry.' })),
  early_minutes: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1440, description: 'Door opens this long before the slot; null = 15.' }))),
});
export const EntryRulesOut = Type.Object({
  entry_rules: Type.Object({ ticket_id: Type.Integer(), entries_allowed: Type.Integer(), reentry: Type.Boolean(), early_minutes: Type.Integer() }),
});

// go~mus entry API (docs/gomus-compatibility.md): a stored scan's people, the scanner's config.
export const ScanPeopleBody = Type.Object({
  people_count: Type.Integer({ minimum: 1, maximum: 1000, description: 'People the scan admitted: 1 up to what the barcode covers.' }),
});

export const EntryConfigQuery = Type.Object({
  entry_zone: Type.Optional(Type.String({ maxLength: 100, description: 'Accepted and ignored: Atrium has no entry zones.' })),
});

export const EntryConfigOut = Type.Object({
  config: Type.Object({
    id: Type.Integer({ description: 'The scanner (token) account.' }),
    name: Type.String(),
    settings: Type.Object({
      museums: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), time_zone: Type.String() }), { description: 'Museums this scanner admits to.' }),
      locale: Type.String({ description: 'Language of scan messages.' }),
      early_minutes: Type.Integer({ description: 'Default: the door opens this long before a slot.' }),
      max_clock_skew_seconds: Type.Integer({ description: 'How far an offline scanned_at may be ahead of the server.' }),
    }),
  }),
});
