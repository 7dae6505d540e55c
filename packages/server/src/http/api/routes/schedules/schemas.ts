// Request and answer shapes of the schedule routes (docs/api-contract.md §13). Bounds that need context (dates,
// 00:00–24:00, overlapping ranges, ids of the museum) are checked by domain/schedules, which
// answers 422 with field errors.
import { Type } from 'typebox';
import { IdList, Nullable } from '../../schemas/common.ts';

const Opt = Type.Optional;
const DateIn = Type.String({ maxLength: 10, description: 'YYYY-MM-DD (museum-local)' });
const TimeIn = Type.String({ maxLength: 5, description: 'HH:MM, 00:00–24:00 (museum-local)' });
const HoursIn = Type.String({ maxLength: 11, description: '"10:00-18:00" or "closed"' });
const Week = Type.Record(Type.String({ maxLength: 12 }), HoursIn, { description: 'monday … sunday → hours' });

export const ClosureBody = Type.Object({
  museum_id: Opt(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  start_date: Opt(DateIn),
  end_date: Opt(DateIn),
  start_time: Opt(Nullable(TimeIn)),
  end_time: Opt(Nullable(TimeIn)),
  ticket_ids: Opt(IdList),
  quota_ids: Opt(IdList),
  event_ids: Opt(IdList),
  tour_ids: Opt(IdList),
  reason: Opt(Nullable(Type.String({ maxLength: 1000 }))),
  cancel_orders: Opt(Type.Boolean({ description: 'Cancel the live order items in the closed period, in the same transaction.' })),
});

export const Closure = Type.Object({
  id: Type.Integer(),
  museum_id: Type.Integer(),
  start_date: Type.String(),
  end_date: Type.String(),
  start_time: Nullable(Type.String()),
  end_time: Nullable(Type.String()),
  ticket_ids: Type.Array(Type.Integer()),
  quota_ids: Type.Array(Type.Integer()),
  event_ids: Type.Array(Type.Integer()),
  tour_ids: Type.Array(Type.Integer()),
  reason: Nullable(Type.String()),
  created_at: Type.String(),
});

export const Affected = Type.Object({
  orders: Type.Integer({ description: 'Live orders with items in the closed period.' }),
  order_ids: Type.Array(Type.Integer()),
  visitors: Type.Integer({ description: 'Tickets, seats and tour participants of those items.' }),
});

export const ScheduleBody = Type.Object({
  weekly: Opt(Week),
  seasons: Opt(Type.Array(Type.Object({ start_date: DateIn, end_date: DateIn, hours: Week }), { maxItems: 200 })),
  exceptions: Opt(Type.Record(Type.String({ maxLength: 10 }), HoursIn, { description: 'date → hours or "closed"' })),
});

export const Schedule = Type.Object({
  weekly: Type.Record(Type.String(), Type.String()),
  seasons: Type.Array(Type.Object({ start_date: Type.String(), end_date: Type.String(), hours: Type.Record(Type.String(), Type.String()) })),
  exceptions: Type.Record(Type.String(), Type.String()),
});

export const CapacitiesBody = Type.Object({
  capacities: Type.Array(
    Type.Object({ date: DateIn, time: Opt(Nullable(TimeIn)), capacity: Type.Integer({ minimum: -2_147_483_648, maximum: 2_147_483_647 }) }),
    { maxItems: 2000 },
  ),
});

export const Capacities = Type.Object({
  quota_id: Type.Integer(),
  capacities: Type.Array(
    Type.Object({
      date: Type.String(),
      time: Nullable(Type.String()),
      capacity: Type.Integer(),
      sold: Type.Integer({ description: 'Used now (the most in one slot for a date entry).' }),
      oversold_by: Type.Integer({ description: 'How far sold exceeds the new capacity; nothing is cancelled.' }),
    }),
  ),
});
