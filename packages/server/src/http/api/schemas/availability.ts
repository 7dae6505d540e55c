// Availability schemas (docs/api-contract.md §5, docs/reference/gomus-v4-facts.md §4): answers are `{"data": ...}` keyed by
// slot times (ISO 8601 in the museum zone) or dates.
import { Type } from 'typebox';
import { Id, IdList } from './common.ts';

const Tokens = Type.Optional(
  Type.Array(Type.String({ maxLength: 200 }), {
    maxItems: 100,
    description: 'Your own reservation tokens: their held places count as free for you.',
  }),
);
const DateQ = (description: string) => Type.Optional(Type.String({ maxLength: 40, description }));

export const TicketCapacityQuery = Type.Object({
  date: DateQ('YYYY-MM-DD in the museum zone; default today.'),
  reservations: Tokens,
});

export const TicketCapacitiesQuery = Type.Object({
  ticket_ids: IdList,
  date: DateQ('YYYY-MM-DD in the museum zone; default today.'),
  reservations: Tokens,
});

export const TicketCalendarQuery = Type.Object({
  by_ticket_ids: Type.Optional(IdList),
  ticket_ids: Type.Optional(IdList),
  start_at: DateQ('First day (YYYY-MM-DD); default today.'),
  end_at: DateQ('Last day (YYYY-MM-DD); default end of the month; at most 366 days.'),
  reservations: Tokens,
  depth: Type.Optional(Type.Union([Type.Literal('any'), Type.Literal('all')], { description: '`any` (default): a boolean per day; `all`: the quotas with places left per slot (go~mus).' })),
});

export const TourCalendarQuery = Type.Object({
  start_at: DateQ('First day (YYYY-MM-DD); default today.'),
  end_at: DateQ('Last day (YYYY-MM-DD); default end of the month; at most 366 days.'),
  participants: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  language_id: Type.Optional(Id),
});

export const TourStartTimesQuery = Type.Object({
  participants: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  language_id: Type.Optional(Id),
});

export const TourDateParams = Type.Object({ id: Id, date: Type.String({ maxLength: 10 }) });

export const SlotsAnswer = Type.Object({
  data: Type.Record(Type.String(), Type.Integer(), { description: 'Slot start → places left; sold-out slots omitted.' }),
});

export const QuotaCapacities = Type.Object({
  tickets: Type.Array(Type.Integer()),
  capacities: Type.Record(Type.String(), Type.Integer(), { description: 'Slot start → places left (zeros included).' }),
  total_capacities: Type.Record(Type.String(), Type.Integer(), { description: 'Slot start → configured capacity.' }),
});

export const CapacitiesAnswer = Type.Object({
  data: Type.Record(Type.String(), QuotaCapacities, { description: 'Keyed by quota id.' }),
});

/** `depth=all`: per day the quotas, slot keys as go~mus writes them here ("2016-07-06 11:00:00 +0200"). */
export const TicketCalendarAnswer = Type.Object({
  data: Type.Record(
    Type.String(),
    Type.Union([
      Type.Boolean(),
      Type.Array(Type.Object({ quota: Type.Object({ id: Type.Integer(), tickets: Type.Array(Type.Integer()), capacities: Type.Array(Type.Record(Type.String(), Type.Integer())) }) })),
    ]),
    { description: 'YYYY-MM-DD → anything bookable (depth=any), or the quotas with places left per slot (depth=all).' },
  ),
});

export const CalendarAnswer = Type.Object({
  data: Type.Record(Type.String(), Type.Boolean(), { description: 'YYYY-MM-DD → anything bookable.' }),
});

export const StartTimesAnswer = Type.Object({
  data: Type.Array(
    Type.Object({
      start_time: Type.String({ format: 'date-time' }),
      participants: Type.Object({
        min: Type.Integer(),
        max: Type.Integer(),
        bookable: Type.Integer({ description: 'Participants that can still be booked at this start.' }),
      }),
    }),
  ),
});
