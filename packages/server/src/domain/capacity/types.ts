// The public vocabulary of the capacity module: what a booking claims and who holds it.

/** What one order item or reservation consumes. */
export type Claim =
  | { kind: 'ticket'; ticketId: number; startAt: Date; quantity: number } // time-slot: slot start; day ticket: any time that day
  | { kind: 'event_date'; eventDateId: number; quantity: number }
  | { kind: 'tour'; tourId: number; startAt: Date; languageId: number; participants: number };

export type Holder = { reservationId: number } | { orderItemId: number };

export type Resource = 'quota' | 'event_date' | 'tour';

/** One pool of capacity a claim draws on, with its total for that slot. */
export interface SlotDemand {
  resource: Resource;
  resourceId: number;
  slotStart: Date;
  /** Tours only: the run occupies [slotStart, slotEnd). */
  slotEnd: Date | null;
  /** What the claim takes from the pool (tours: 1 run). */
  quantity: number;
  /** Total capacity of the pool for this slot (tours: max concurrent runs). */
  capacity: number;
  /** Advisory lock key of the pool. */
  lockKey: bigint;
}

/** A claim checked against the catalogue: where it draws and what it covers. */
export interface ResolvedClaim {
  museumId: number;
  startAt: Date;
  endAt: Date;
  demands: SlotDemand[];
}
