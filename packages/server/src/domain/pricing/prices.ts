// The one price calculation of an admission (orders, reservations, and the single-purpose
// voucher that stands for one admission): the caller's price of the product (resellers may have
// their own) with the ticket's own discount.
import { priceFor } from '../catalog/visibility.ts';
import type { Principal } from '../principal.ts';

/** What `quantity` admissions of a ticket cost this caller (the ticket's own discount applied). */
export function ticketPrice(p: Principal, t: Parameters<typeof priceFor>[1] & { discount: number }, quantity: number): number {
  return Math.round((priceFor(p, t) * quantity * (100 - t.discount)) / 100);
}

export function eventPrice(p: Principal, e: Parameters<typeof priceFor>[1], quantity: number): number {
  return priceFor(p, e) * quantity;
}
