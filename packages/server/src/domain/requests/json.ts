// Request records as JSON: item start times in the museum's zone, bookkeeping times in the
// instance zone. Shared by the routes and the events' payloads (events/render.ts).
import type { RequestView } from './internal.ts';
import { isoInZone } from '../time.ts';

export function serializeRequest(r: RequestView, zone: string) {
  return {
    id: r.id,
    foreign_id: r.foreignId,
    status: r.status as 'pending' | 'accepted' | 'declined' | 'withdrawn',
    date: r.date,
    participants: r.participants,
    companions: r.companions,
    notes: r.notes,
    items: r.items.map((i) => ({ tour_id: i.tourId, start_time: isoInZone(i.startAt, i.zone), language_id: i.languageId })),
    customer_id: r.customerId,
    contact: r.contact,
    order_id: r.orderId,
    decline_reason: r.declineReason,
    created_at: isoInZone(r.createdAt, zone),
    updated_at: isoInZone(r.updatedAt, zone),
  };
}
