// Availability (always live, spec 1.3), reservations and orders (safe POSTs, spec 7.4).
import type { Core, ReadOptions } from '../core.ts';
import { endpoint } from '../endpoints.ts';
import { safeCreate } from '../safe.ts';
import type { BodyOf, EventDate, List, OkBody, Order, OrderInput, QueryOf, Reservation, ReservationInput } from '../types.ts';
import type { WriteOptions } from './crud.ts';

type A = '/api/v4';
type Q<P extends string> = QueryOf<`${A}${P}`, 'get'>;
type Data<P extends string> = OkBody<`${A}${P}`, 'get'>['data'];

const EP = {
  capacity: endpoint('GET', '/tickets/{id}/capacity'),
  capacities: endpoint('GET', '/tickets/capacities'),
  calendar: endpoint('GET', '/tickets/calendar'),
  tourDays: endpoint('GET', '/tours/{id}/start_times'),
  tourStartTimes: endpoint('GET', '/tours/{id}/start_times/{date}'),
  reserve: endpoint('POST', '/reservations'),
  updateReservation: endpoint('PUT', '/reservations/{reservation_token}', { secret: ['reservation_token'] }),
  releaseReservation: endpoint('DELETE', '/reservations/{reservation_token}', { secret: ['reservation_token'] }),
  createOrder: endpoint('POST', '/orders'),
  orders: endpoint('GET', '/orders'),
  order: endpoint('GET', '/orders/{id}', { secret: ['id'] }),
  orderByBarcode: endpoint('GET', '/orders/barcode/{code}', { secret: ['code'] }),
  updateOrder: endpoint('PUT', '/orders/{id}', { secret: ['id'] }),
  finalize: endpoint('POST', '/orders/{id}/finalize', { secret: ['id'], retry: 'idempotent' }),
  cancel: endpoint('POST', '/orders/{id}/cancellations', { secret: ['id'] }),
};

export class Availability {
  constructor(private readonly core: Core, private readonly events: { date(e: number, d: number, q?: undefined, o?: ReadOptions): Promise<EventDate> }) {}
  /** An event date with its live `seats` (always asks the server; ETag keeps it cheap). */
  eventDate(eventId: number, dateId: number, o: ReadOptions = {}): Promise<EventDate> {
    return this.events.date(eventId, dateId, undefined, { ...o, refresh: true });
  }
  /** Places left per slot of one day: `{"<slot iso>": left}` (sold-out slots omitted). */
  ticketCapacity(ticketId: number, query: Q<'/tickets/{id}/capacity'>, o: ReadOptions = {}): Promise<Data<'/tickets/{id}/capacity'>> {
    return this.core.one(EP.capacity, 'data', { ...o, params: { id: ticketId }, query });
  }
  ticketCapacities(query: Q<'/tickets/capacities'>, o: ReadOptions = {}): Promise<Data<'/tickets/capacities'>> {
    return this.core.one(EP.capacities, 'data', { ...o, query });
  }
  /** Per day whether the tickets can be booked (at most 31 days). */
  calendar(query: Q<'/tickets/calendar'>, o: ReadOptions = {}): Promise<Data<'/tickets/calendar'>> {
    return this.core.one(EP.calendar, 'data', { ...o, query });
  }
  tourDays(tourId: number, query?: Q<'/tours/{id}/start_times'>, o: ReadOptions = {}): Promise<Data<'/tours/{id}/start_times'>> {
    return this.core.one(EP.tourDays, 'data', { ...o, params: { id: tourId }, ...(query ? { query } : {}) });
  }
  tourStartTimes(tourId: number, date: string, query?: Q<'/tours/{id}/start_times/{date}'>, o: ReadOptions = {}): Promise<Data<'/tours/{id}/start_times/{date}'>> {
    return this.core.one(EP.tourStartTimes, 'data', { ...o, params: { id: tourId, date }, ...(query ? { query } : {}) });
  }
}

export class Reservations {
  constructor(private readonly core: Core) {}
  /**
   * Holds capacity. No lookup exists for reservations (spec 4), so after a timeout or 5xx the
   * unknown hold is left to expire and a new one is created (spec 7.4.2), within the retry bound.
   * SlotSoldOutError: re-fetch availability. CAPACITY_BUSY is retried once.
   */
  create(body: ReservationInput, o: WriteOptions = {}): Promise<Reservation> {
    return safeCreate<Reservation>(this.core.http, {
      ep: EP.reserve,
      call: { ...o, body: { reservation: body } },
      unwrap: (b) => (typeof b?.reservation?.reservation_token === 'string' ? b.reservation : undefined),
      recreate: true,
    });
  }
  /** Changes the quantity and restarts validity. ReservationExpiredError: create a new one. */
  update(reservationToken: string, body: BodyOf<`${A}/reservations/{reservation_token}`, 'put'>, o: WriteOptions = {}): Promise<Reservation> {
    return this.core.one(EP.updateReservation, 'reservation', { ...o, params: { reservation_token: reservationToken }, body });
  }
  /** Releases the hold at once. */
  async release(reservationToken: string, o: WriteOptions = {}): Promise<void> {
    await this.core.http.send(EP.releaseReservation, { ...o, params: { reservation_token: reservationToken } });
  }
}

export class Orders {
  constructor(private readonly core: Core) {}
  /**
   * Creates an order. It always carries a `foreign_id` (a UUID when none is given): after a
   * timeout or 5xx the order is looked up by it and returned if it exists; the POST is resent only
   * when it does not. CAPACITY_BUSY is retried once; SlotSoldOutError and ReservationExpiredError
   * are thrown for the application to handle.
   */
  create(input: OrderInput, o: WriteOptions = {}): Promise<Order> {
    const body = { ...input, foreign_id: input.foreign_id ?? globalThis.crypto.randomUUID() };
    return safeCreate<Order>(this.core.http, {
      ep: EP.createOrder,
      call: { ...o, body: { order: body } },
      unwrap: (b) => (typeof b?.order?.id === 'number' ? b.order : undefined),
      lookup: () => this.findByForeignId(body.foreign_id, { maxAttempts: 1 }),
      foreignId: body.foreign_id,
    });
  }
  list(query?: Q<'/orders'>, o: ReadOptions = {}): Promise<List<Order>> {
    return this.core.list(EP.orders, 'orders', { ...o, ...(query ? { query } : {}) });
  }
  all(query?: Q<'/orders'>, o: ReadOptions = {}): AsyncGenerator<Order> {
    return this.core.all(EP.orders, 'orders', { ...o, ...(query ? { query } : {}) });
  }
  /** The caller's order with this foreign_id, or undefined. */
  async findByForeignId(foreignId: string, o: { maxAttempts?: number; correlationId?: string } = {}): Promise<Order | undefined> {
    const list = await this.core.list<Order>(EP.orders, 'orders', { ...o, query: { foreign_id: foreignId } });
    return list.find((x) => x.foreign_id === foreignId);
  }
  /** By numeric id or order token. */
  get(idOrToken: number | string, o: ReadOptions = {}): Promise<Order> {
    return this.core.one(EP.order, 'order', { ...o, params: { id: idOrToken } });
  }
  getByBarcode(code: string, o: ReadOptions = {}): Promise<Order> {
    return this.core.one(EP.orderByBarcode, 'order', { ...o, params: { code } });
  }
  /** Comment, reference or customer of a pending order (OrderFinalizedError otherwise). */
  update(idOrToken: number | string, body: BodyOf<`${A}/orders/{id}`, 'put'>, o: WriteOptions = {}): Promise<Order> {
    return this.core.one(EP.updateOrder, 'order', { ...o, params: { id: idOrToken }, body: { order: body } });
  }
  /** Makes a pending order binding; safe to repeat (docs/api-contract.md §7), so resent after 5xx. */
  finalize(idOrToken: number | string, o: WriteOptions = {}): Promise<Order> {
    return this.core.one(EP.finalize, 'order', { ...o, params: { id: idOrToken } });
  }
  /**
   * Cancels items (or the whole order). After an ambiguous failure the order is read back: if the
   * items are cancelled already it is returned, otherwise the cancellation is sent again.
   */
  cancel(idOrToken: number | string, body: BodyOf<`${A}/orders/{id}/cancellations`, 'post'> = {}, o: WriteOptions = {}): Promise<Order> {
    const wanted = body?.item_ids;
    return safeCreate<Order>(this.core.http, {
      ep: EP.cancel,
      call: { ...o, params: { id: idOrToken }, body },
      unwrap: (b) => (typeof b?.order?.id === 'number' ? b.order : undefined),
      lookup: async () => {
        const order = await this.get(idOrToken, { maxAttempts: 1 });
        const items = wanted?.length ? order.items.filter((i) => wanted.includes(i.id)) : order.items;
        return items.length > 0 && items.every((i) => i.status === 'cancelled') ? order : undefined;
      },
    });
  }
}

