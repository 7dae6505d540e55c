// Webhook endpoints and deliveries as JSON; times in the instance zone. Never the secret.
import type { DeliveryView } from '../../../../domain/webhooks/deliveries.ts';
import type { EndpointView } from '../../../../domain/webhooks/internal.ts';
import { isoInZone } from '../../../../domain/time.ts';

const iso = (d: Date | null, zone: string) => (d ? isoInZone(d, zone) : null);

export function serializeWebhook(w: EndpointView, zone: string) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    description: w.description,
    enabled: w.enabled,
    disabled_reason: w.disabledReason,
    disabled_at: iso(w.disabledAt, zone),
    secret_last4: w.secretLast4,
    created_at: isoInZone(w.createdAt, zone),
    updated_at: isoInZone(w.updatedAt, zone),
  };
}

export function serializeDelivery(d: DeliveryView, zone: string) {
  return {
    id: d.id,
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status as 'pending' | 'succeeded' | 'failed',
    attempt_count: d.attemptCount,
    next_attempt_at: iso(d.nextAttemptAt, zone),
    created_at: isoInZone(d.createdAt, zone),
    attempts: d.attempts.map((a) => ({
      attempt: a.attemptNo,
      attempted_at: isoInZone(a.attemptedAt, zone),
      duration_ms: a.durationMs,
      status_code: a.statusCode,
      error: a.error,
      response_excerpt: a.responseExcerpt,
    })),
  };
}
