// Serialized catalogue answers, per process. A route opts in with `config.memo: true` (catalogue
// list/get routes; never availability, event dates with their booked seats, or anything booking
// related). A hit skips validation, the domain verb, the database and serialization; auth, rate
// limiting, ETag/304 (caching.ts, onSend) and logging still run as for any request.
//
// Key: method + path + normalized query + caller context + catalogue version + the instance's
// local date (tickets default `valid_at` to today, opening hours to today). Caller context is
// what the answer depends on: anonymous; a public token's museum scope; a reseller's account
// (reseller-specific visibility and prices); a user's scope and rights.
//
// Correctness across nodes: every master-data change NOTIFYs at commit and each process clears
// (listener.ts); while the listener is down the cache is bypassed. A catalogue write through this
// node also clears it at once (index.ts), so a client reads its own write before the NOTIFY.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Lru } from './lru.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Cache the serialized 200 answer in process (master data only). */
    memo?: boolean;
    /** A successful call changes master data: clear this node's answer cache at once. */
    invalidatesCatalog?: boolean;
  }
  interface FastifyRequest {
    memoKey?: string;
    memoGen?: number;
  }
  interface FastifyInstance {
    /** The answer cache while answers are kept (mode `all`): for pages built from catalogue reads (the shop). */
    catalogAnswers?: ResponseCache;
  }
}

/**
 * Sends JSON text already made (a kept answer, or one assembled from row fragments) as it is: with
 * the JSON content type set, Fastify neither serializes it again nor calls it text/plain. Returns
 * the text, for a handler to return (returning `reply` from an async handler would make Fastify
 * wait for the response's end, see `register`).
 */
export function jsonText(reply: FastifyReply, text: string): string {
  reply.type(JSON_TYPE);
  return text;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * What an answer depends on besides its URL. The rules are the domain's (who sees which rows, what
 * "today" is in a zone); app.ts hands them in, since this layer imports no domain code.
 */
export interface AnswerScope {
  /** The caller's context: anonymous, a public token's scope, a reseller, a user's scope and rights. */
  caller(req: FastifyRequest): string;
  /** The local date of `now` in `zone`, and the instants (ms) from its start to the next day's. */
  day(now: Date, zone: string): { date: string; from: number; to: number };
}

/** Even without notifications an entry lives at most this long (defence in depth). */
const TTL_MS = 10 * 60_000;

/**
 * Answers are kept as their UTF-8 bytes, encoded once when stored. Kept as strings (an answer
 * assembled from row fragments is a rope of many pieces), every hit flattened and encoded ~13 KB
 * again on its way to the socket (`v8::String::WriteUtf8` in `perf` profiles of the warm list).
 */
export class ResponseCache {
  readonly lru = new Lru<Buffer>(2_000, 64 * 1024 * 1024);
  /** Catalogue data behind answers built elsewhere (`value`), kept and cleared with the answers. */
  readonly values = new Lru<unknown>(2_000, 32 * 1024 * 1024);
  hits = 0;
  misses = 0;
  private day = { from: 0, to: -1, date: '' };
  private scope: AnswerScope | undefined;

  constructor(
    private isLive: () => boolean,
    private version: () => number,
    private zone: string,
  ) {}

  /** Whether values are kept now (a kept value is the same object on every read until a change). */
  get live(): boolean {
    return this.isLive();
  }

  clear(): void {
    this.lru.clear();
    this.values.clear();
  }

  /**
   * A catalogue read for an answer another transport renders (the shop's pages), kept under the
   * same rules as the JSON answers: `key` names the read and what it depends on besides the
   * catalogue version and the local date, which are added here; bypassed while the listener is
   * down; cleared on every catalogue change. Never for live availability. A failed read (an
   * unknown id) is not kept.
   */
  async value<T>(key: string, now: Date, load: () => Promise<T>, bytes: (value: T) => number): Promise<T> {
    if (!this.isLive()) return load();
    const full = `${key}|v${this.version()}|${this.today(now)}`;
    const t = Date.now();
    const hit = this.values.get(full, t);
    if (hit !== undefined) {
      this.hits++;
      return hit as T;
    }
    this.misses++;
    const gen = this.values.gen;
    const value = await load();
    if (this.isLive()) this.values.set(full, value, full.length + bytes(value), t + TTL_MS, gen);
    return value;
  }

  /** The instance-local date, recomputed only when `now` leaves the cached day. */
  today(now: Date): string {
    const t = now.getTime();
    if (t < this.day.from || t >= this.day.to) {
      this.day = this.scope!.day(now, this.zone);
    }
    return this.day.date;
  }

  key(req: FastifyRequest): string {
    const url = req.raw.url ?? req.url;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    let query = q < 0 ? '' : url.slice(q + 1);
    if (query.includes('&')) {
      const sp = new URLSearchParams(query);
      sp.sort(); // stable: the order of repeated keys (locale[]=de&locale[]=en) is kept
      query = sp.toString();
    }
    return `${path}?${query}|${this.scope!.caller(req)}|v${this.version()}|${this.today(req.ctx.clock.now())}`;
  }

  register(app: FastifyInstance, scope: AnswerScope): void {
    this.scope = scope;
    app.decorate('catalogAnswers', this as ResponseCache);
    // A callback hook, not an async one: an async hook that answers must return `reply`, and
    // resolving a promise with `reply` (a thenable) makes Fastify wait for the response's end with
    // stream listeners on every hit, a measurable cost on the warm catalogue list. Answering without calling done() ends the chain the same way.
    app.addHook('preValidation', (req, reply, done) => {
      if (req.method !== 'GET' || !req.routeOptions.config.memo || !this.isLive()) return done();
      const key = this.key(req);
      const hit = this.lru.get(key, Date.now());
      if (hit !== undefined) {
        this.hits++;
        reply.header('x-atrium-cache', 'hit').type(JSON_TYPE).send(hit);
        return;
      }
      this.misses++;
      req.memoKey = key;
      req.memoGen = this.lru.gen;
      done();
    });
    // Callback hooks here and in the other plugins on every request's path: an async hook costs a
    // promise and a turn of the microtask queue even when it has nothing to do.
    app.addHook('onSend', (req, reply, payload, done) => {
      if (req.memoKey === undefined) return done(null, payload);
      reply.header('x-atrium-cache', 'miss');
      if (reply.statusCode !== 200 || typeof payload !== 'string' || !this.isLive()) return done(null, payload);
      // The miss sends the very bytes it keeps: encoded once either way.
      const body = Buffer.from(payload);
      this.lru.set(req.memoKey, body, body.length, Date.now() + TTL_MS, req.memoGen!);
      done(null, body);
    });
  }
}
