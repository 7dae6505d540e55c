// Webhook endpoint schemas (docs/webhooks.md). The url's rules (https, length, address) are the
// domain's, so a bad url gets the same 422 list whatever is wrong with it; here only JSON types.
import { Type } from 'typebox';
import { Id, ListMeta, Nullable, PageQuery } from './common.ts';

export const WebhookInput = Type.Object(
  {
    url: Type.Optional(Type.String({ maxLength: 10_000, description: 'https URL (at most 2048 characters), not resolving to a private address.' })),
    events: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50, description: 'Event types to receive, e.g. ["order.created"].' })),
    description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  },
  { description: 'Also accepted wrapped as {"webhook": {...}}.' },
);

export const WebhookPatch = Type.Object(
  {
    url: Type.Optional(Type.String({ maxLength: 10_000 })),
    events: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })),
    description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    enabled: Type.Optional(Type.Boolean({ description: 'true re-enables an endpoint that delivery disabled.' })),
  },
  { description: 'Also accepted wrapped as {"webhook": {...}}.' },
);

export const WebhookParam = Type.Object({ id: Id });
export const DeliveryParam = Type.Object({ id: Id, delivery_id: Id });
export const WebhookListQuery = Type.Object({ ...PageQuery });

const NullableString = Nullable(Type.String());

export const Webhook = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: NullableString,
  enabled: Type.Boolean(),
  disabled_reason: NullableString,
  disabled_at: Nullable(Type.String({ format: 'date-time' })),
  secret_last4: Type.String({ description: 'The secret itself is shown only in the answer to POST /webhooks.' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const WebhookEnvelope = Type.Object({ webhook: Webhook });
export const WebhookCreated = Type.Object({
  webhook: Type.Intersect([Webhook, Type.Object({ secret: Type.String({ description: 'whsec_…: shown this once.' }) })]),
});
export const WebhookList = Type.Object({ webhooks: Type.Array(Webhook), meta: ListMeta });

const Attempt = Type.Object({
  /** 1, 2, … per delivery; an attempt is sent once. */
  attempt: Type.Integer({ minimum: 1 }),
  attempted_at: Type.String({ format: 'date-time' }),
  /** Null while the attempt is still in flight. */
  duration_ms: Nullable(Type.Integer()),
  status_code: Nullable(Type.Integer()),
  error: NullableString,
  response_excerpt: NullableString,
});

export const Delivery = Type.Object({
  id: Type.Integer(),
  event_id: Type.String(),
  event_type: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
  attempt_count: Type.Integer(),
  next_attempt_at: Nullable(Type.String({ format: 'date-time' })),
  created_at: Type.String({ format: 'date-time' }),
  attempts: Type.Array(Attempt),
});
export const DeliveryEnvelope = Type.Object({ delivery: Delivery });
export const DeliveryList = Type.Object({ deliveries: Type.Array(Delivery), meta: ListMeta });

export const AccountParam = Type.Object({ id: Id });
export const NotifySettingsInput = Type.Object(
  { mail_enabled: Type.Boolean({ description: "false: no visitor mail for this account's orders and requests" }) },
  { additionalProperties: false },
);
export const NotifySettingsEnvelope = Type.Object({
  notify_settings: Type.Object({ account_id: Type.Integer(), mail_enabled: Type.Boolean() }),
});
