// A reseller integration: sync the catalogue daily (spec 1.3), then book a slot with a
// reservation and an order (spec 7.4). Run it from cron once a day, or by hand:
//   ATRIUM_URL=http://127.0.0.1:8080 ATRIUM_TOKEN=atr_… npx tsx packages/client/examples/reseller.ts 2025-06-01
// The file cache store below keeps the catalogue between runs, so a daily run revalidates with
// ETags (a 304 per unchanged list) instead of downloading everything again.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import {
  AtriumClient, ReservationExpiredError, SlotSoldOutError, type CacheEntry, type CacheStore, type Order, type Ticket,
} from '@atrium/client';

/** A minimal persistent CacheStore: one JSON file. Any store with get/set/delete/clear works (Redis …). */
export class JsonFileStore implements CacheStore {
  private data: Record<string, CacheEntry>;
  constructor(private readonly file: string) {
    this.data = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  }
  get(key: string) { return this.data[key]; }
  set(key: string, entry: CacheEntry) { this.data[key] = entry; this.save(); }
  delete(key: string) { delete this.data[key]; this.save(); }
  clear() { this.data = {}; this.save(); }
  private save() { fs.writeFileSync(this.file, JSON.stringify(this.data)); }
}

/** The catalogue as the shop shows it: every museum and bookable ticket (every page). */
export async function syncCatalogue(atrium: AtriumClient) {
  const museums = [];
  for await (const m of atrium.museums.all()) museums.push(m);
  const tickets: Ticket[] = [];
  for await (const t of atrium.tickets.all({ by_bookable: true })) tickets.push(t);
  return { museums, tickets };
}

/** Books `quantity` places of the first free slot of `date`: hold first, then the order. */
export async function bookFirstFreeSlot(atrium: AtriumClient, ticket: Ticket, date: string, quantity: number): Promise<Order> {
  for (let tries = 0; tries < 3; tries++) {
    const slots = (await atrium.availability.ticketCapacity(ticket.id, { date })) as Record<string, number>; // always live
    const slot = Object.entries(slots).find(([, left]) => left >= quantity)?.[0];
    if (!slot) throw new Error(`no slot with ${quantity} places left on ${date}`);
    const hold = await atrium.reservations.create({ ticket_id: ticket.id, quantity, start_at: slot });
    try {
      // foreign_id: our own key, so a retried order can never be booked twice.
      return await atrium.orders.create({
        foreign_id: `shop-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`,
        items: [{ type: 'Ticket', attributes: { id: ticket.id, quantity, time: slot, reservations: [hold.reservation_token] } }],
        finalize: true,
      });
    } catch (e) {
      // Sold out: look at availability again. Hold expired: make a new one. Anything else: report.
      if (e instanceof SlotSoldOutError || e instanceof ReservationExpiredError) continue;
      throw e;
    }
  }
  throw new Error('could not book after 3 tries');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const atrium = new AtriumClient({
    baseUrl: process.env.ATRIUM_URL ?? 'http://127.0.0.1:8080',
    token: process.env.ATRIUM_TOKEN,
    cache: { store: new JsonFileStore(process.env.ATRIUM_CACHE_FILE ?? '.atrium-catalogue.json') },
  });
  const { museums, tickets } = await syncCatalogue(atrium);
  console.log(`catalogue: ${museums.length} museums, ${tickets.length} bookable tickets`);
  const ticket = tickets.find((t) => t.ticket_type === 'time_slot');
  const date = process.argv[2] ?? new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  if (ticket) {
    const order = await bookFirstFreeSlot(atrium, ticket, date, 2);
    console.log(`order ${order.id} (${order.status}), ${order.total_price_cents} cents`);
  }
}
