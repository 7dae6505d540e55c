// GDPR export and erase answers (docs/operations.md, "GDPR export and erase"; ADR 0015).
import { Type } from 'typebox';
import { Customer } from './customers.ts';

const Loose = (description: string) => Type.Object({}, { additionalProperties: true, description });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const CustomerExport = Type.Object({
  export: Type.Object({
    exported_at: Type.String({ format: 'date-time' }),
    complete: Type.Boolean({ description: 'False when some of the records lie outside the caller museums (the CLI always sees all).' }),
    customer: Customer,
    erasure: Type.Union([Type.Object({ erased_at: Type.String({ format: 'date-time' }) }), Type.Null()]),
    orders: Type.Array(Loose('An order naming the person, with items and attendees.')),
    requests: Type.Array(Loose('A request naming the person, with its contact.')),
    attendees: Type.Array(Type.Object({ order_id: Type.Integer(), item_id: Type.Integer(), name: Type.String(), surname: Type.String() })),
    contacts: Type.Array(
      Type.Object({
        request_id: Type.Integer(),
        name: Type.String(),
        surname: Nullable(Type.String()),
        email: Nullable(Type.String()),
        phone: Nullable(Type.String()),
        role: Nullable(Type.String()),
      }),
    ),
    documents: Type.Array(Loose('Document metadata; the bytes via /documents/:id/download.')),
  }),
});

const Count = Type.Integer({ minimum: 0 });
export const CustomerErasure = Type.Object({
  erasure: Type.Object({
    customer_id: Type.Integer(),
    erased_at: Type.String({ format: 'date-time' }),
    already_erased: Type.Boolean(),
    anonymised: Type.Object({
      customer: Count,
      order_comments: Count,
      attendees: Count,
      request_contacts: Count,
      request_notes: Count,
      documents_wiped: Count,
      idempotency_records: Count,
      invoices_retained: Count,
      outbox_events: Count,
      mails: Count,
    }),
    retained: Type.Array(Type.Object({ what: Type.String(), ids: Type.Array(Type.Integer()), reason: Type.String() })),
    logs: Type.String(),
  }),
});
