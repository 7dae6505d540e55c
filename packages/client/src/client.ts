// AtriumClient: the entry point. Server-side only (spec 5.7): a bearer token never belongs in
// browser code, so the constructor refuses to run in a browser context when given a token.
import { Schedules } from './resources/schedules.ts';
import { Entry } from './resources/entry.ts';
import { Webhooks } from './resources/webhookEndpoints.ts';
import { Payments, Refunds } from './resources/payments.ts';
import { GiftCards } from './resources/giftCards.ts';
import { PromoCodes, getShop, type Shop } from './resources/promoCodes.ts';
import { Vouchers } from './resources/vouchers.ts';
import { MemoryStore, type CacheStore } from './cache.ts';
import { Core } from './core.ts';
import { endpoint } from './endpoints.ts';
import { AtriumError } from './errors.ts';
import { Transport } from './http.ts';
import { consoleLogger, type Logger } from './logger.ts';
import { Availability, Orders, Reservations } from './resources/booking.ts';
import { Dates, Events, Exhibitions, Meta, Museums, Quotas, Tickets, Tours } from './resources/catalog.ts';
import { Documents } from './resources/documents.ts';
import { Media } from './resources/media.ts';
import { Gomus } from './resources/gomus.ts';
import { Customers, Requests } from './resources/people.ts';
import { UnknownFieldReporter } from './shape.ts';
import type { Whoami } from './types.ts';

export interface AtriumClientOptions {
  /** The instance's base address, e.g. `https://tickets.example.org` (a trailing `/api/v4` is accepted). */
  baseUrl: string;
  /** Bearer token; none = the public context. Keep it on your server (spec 5.7). */
  token?: string;
  /** pino-compatible logger; console by default. */
  logger?: Logger;
  /** Attempts per call for 5xx, network errors and 429 (spec 7.1: 3 to 5). Default 4, at most 5. */
  maxAttempts?: number;
  /** First backoff step in ms (doubled per attempt, with jitter). Default 300. */
  backoffBaseMs?: number;
  /** Longest backoff step in ms. Default 10 000. */
  backoffMaxMs?: number;
  /** Per-attempt timeout in ms. Default 30 000. */
  timeoutMs?: number;
  /** Longest Retry-After the client is willing to wait (429, 503) in ms. Default 60 000. */
  maxRetryAfterMs?: number;
  /** Master-data cache (spec 1.3): `false` turns it off. Default: in memory, one day. */
  cache?: false | { store?: CacheStore; maxAgeMs?: number };
  /** How long a document download keeps polling while the server answers 202. Default 60 000 ms. */
  documentDeadlineMs?: number;
  /** Calls in flight at once for `batch()`. Default 4 (spec 8.2: moderate concurrency). */
  concurrency?: number;
  /** Correlation id per call (sent as X-Request-Id and logged); default a random UUID per call. */
  correlationId?: () => string;
  fetch?: typeof fetch;
  /** Clock for cache ageing (tests). */
  now?: () => number;
}

const DAY_MS = 86_400_000;

function inBrowser(): boolean {
  const g = globalThis as { window?: unknown; document?: unknown; WorkerGlobalScope?: unknown; self?: unknown };
  return (typeof g.window !== 'undefined' && typeof g.document !== 'undefined') || typeof g.WorkerGlobalScope !== 'undefined';
}

const whoamiEp = endpoint('GET', '/whoami');

export class AtriumClient {
  readonly museums: Museums;
  readonly exhibitions: Exhibitions;
  readonly tickets: Tickets;
  readonly events: Events;
  readonly dates: Dates;
  readonly tours: Tours;
  readonly quotas: Quotas;
  readonly meta: Meta;
  readonly availability: Availability;
  readonly reservations: Reservations;
  readonly orders: Orders;
  readonly customers: Customers;
  readonly requests: Requests;
  readonly documents: Documents;
  /** Pictures of museums, exhibitions, tickets, events and tours (staff). */
  readonly media: Media;
  /** go~mus drop-in reads: event calendar, tour prices, tag collections, order-token document links. */
  readonly gomus: Gomus;
  readonly schedules: Schedules;
  readonly entry: Entry;
  readonly webhooks: Webhooks;
  readonly payments: Payments;
  readonly giftCards: GiftCards;
  readonly promoCodes: PromoCodes;
  readonly vouchers: Vouchers;
  readonly refunds: Refunds;
  private readonly core: Core;

  constructor(opts: AtriumClientOptions) {
    if (opts.token && inBrowser()) {
      throw new AtriumError(
        'AtriumClient refuses to run in a browser with a bearer token: tokens are kept on your server, never in browser ' +
          'code or app bundles (spec 5.7). Call the API from your backend and pass only the results to the browser.',
      );
    }
    if (!opts.baseUrl) throw new TypeError('AtriumClient: baseUrl is required');
    const maxAttempts = opts.maxAttempts ?? 4;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 5) {
      throw new RangeError('AtriumClient: maxAttempts must be an integer from 1 to 5 (spec 7.1 asks for 3 to 5)');
    }
    const logger = opts.logger ?? consoleLogger;
    const http = new Transport({
      baseUrl: opts.baseUrl.replace(/\/+$/, '').replace(/\/api\/v4$/, ''),
      token: opts.token,
      logger,
      maxAttempts,
      backoffBaseMs: opts.backoffBaseMs ?? 300,
      backoffMaxMs: opts.backoffMaxMs ?? 10_000,
      timeoutMs: opts.timeoutMs ?? 30_000,
      maxRetryAfterMs: opts.maxRetryAfterMs ?? 60_000,
      correlationId: opts.correlationId,
      fetch: opts.fetch ?? globalThis.fetch,
      userAgent: '@atrium/client/0.1.0',
      reporter: new UnknownFieldReporter(logger),
    });
    const cache = opts.cache === false ? null : { store: opts.cache?.store ?? new MemoryStore(), maxAgeMs: opts.cache?.maxAgeMs ?? DAY_MS };
    this.core = new Core(http, cache, opts.token, opts.concurrency ?? 4, opts.now ?? Date.now);
    this.museums = new Museums(this.core);
    this.exhibitions = new Exhibitions(this.core);
    this.tickets = new Tickets(this.core);
    this.events = new Events(this.core);
    this.dates = new Dates(this.core);
    this.tours = new Tours(this.core);
    this.quotas = new Quotas(this.core);
    this.meta = new Meta(this.core);
    this.availability = new Availability(this.core, this.events);
    this.reservations = new Reservations(this.core);
    this.orders = new Orders(this.core);
    this.customers = new Customers(this.core);
    this.requests = new Requests(this.core);
    this.documents = new Documents(this.core, opts.documentDeadlineMs ?? 60_000);
    this.media = new Media(this.core);
    this.gomus = new Gomus(this.core);
    this.schedules = new Schedules(this.core);
    this.entry = new Entry(this.core);
    this.webhooks = new Webhooks(this.core);
    this.payments = new Payments(this.core);
    this.giftCards = new GiftCards(this.core);
    this.promoCodes = new PromoCodes(this.core);
    this.vouchers = new Vouchers(this.core);
    this.refunds = new Refunds(this.core);
  }

  /** The visitor shop's public settings: title, links, languages, offers (GET /shop). */
  shop(query: { locale?: string } = {}): Promise<Shop> {
    return getShop(this.core, query);
  }

  /** Tests the token (spec 5.5): its class (`access`) and museum scope. Never cached. */
  async whoami(): Promise<Whoami> {
    return (await this.core.http.send(whoamiEp)).body as Whoami;
  }

  /** Forgets every cached master-data answer, so the next reads go to the server (spec 1.3). */
  async clearCache(): Promise<void> {
    await this.core.cache?.store.clear();
  }

  /** Runs `fn` over `items` with bounded concurrency (default `concurrency` option). */
  batch<I, O>(items: readonly I[], fn: (item: I, index: number) => Promise<O>, limit?: number): Promise<O[]> {
    return this.core.batch(items, fn, limit);
  }

  /** The last 4 characters of the token, as logs show it. */
  get tokenHint(): string | null {
    return this.core.http.tokenLast4;
  }
}
