// Customers (spec 2.2, 2.3) and requests (group booking inquiries, docs/api-contract.md §9).
import type { Core, ReadOptions } from '../core.ts';
import { endpoint } from '../endpoints.ts';
import { safeCreate } from '../safe.ts';
import type { BodyOf, Customer, CustomerInput, List, QueryOf, RequestInput, RequestRecord } from '../types.ts';
import type { WriteOptions } from './crud.ts';

type A = '/api/v4';

const EP = {
  create: endpoint('POST', '/customers'),
  upsert: endpoint('PUT', '/customers'),
  updateById: endpoint('PUT', '/customers/{id}'),
  get: endpoint('GET', '/customers/{id}'),
  list: endpoint('GET', '/customers'),
  createRequest: endpoint('POST', '/requests'),
  requests: endpoint('GET', '/requests'),
  request: endpoint('GET', '/requests/{id}'),
  accept: endpoint('POST', '/requests/{id}/accept'),
  decline: endpoint('POST', '/requests/{id}/decline'),
  withdraw: endpoint('POST', '/requests/{id}/withdraw'),
  export: endpoint('GET', '/customers/{id}/export'),
  erase: endpoint('POST', '/customers/{id}/erase'),
};

export class Customers {
  constructor(private readonly core: Core) {}
  /** GDPR: everything stored about the person, as JSON (docs/operations.md, GDPR export and erase). */
  async exportData(id: number | string, o: ReadOptions = {}): Promise<unknown> {
    return (await this.core.http.send(EP.export, { ...o, params: { id } })).body;
  }
  /** GDPR: anonymises the person everywhere; what tax law keeps (invoices) is named in the answer. */
  async erase(id: number | string, o: WriteOptions = {}): Promise<unknown> {
    return (await this.core.http.send(EP.erase, { ...o, params: { id } })).body;
  }
  /**
   * Creates a customer. With a `foreign_id` it is a safe POST (looked up after a timeout or 5xx,
   * resent only when absent); without one an ambiguous failure is an OutcomeUnknownError, since
   * nothing could tell a repeat from a second customer.
   */
  create(body: CustomerInput, o: WriteOptions = {}): Promise<Customer> {
    const fid = body.foreign_id;
    return safeCreate<Customer>(this.core.http, {
      ep: EP.create,
      call: { ...o, body: { customer: body } },
      unwrap: (b) => (typeof b?.customer?.id === 'number' ? b.customer : undefined),
      ...(fid ? { lookup: () => this.findByForeignId(fid, { maxAttempts: 1 }), foreignId: fid } : {}),
    });
  }
  /** Updates the customer named by `foreign_id` in the body (spec 2.3.2); a PUT, safe to repeat. */
  update(body: BodyOf<`${A}/customers`, 'put'> & { foreign_id: string }, o: WriteOptions = {}): Promise<Customer> {
    return this.core.one(EP.upsert, 'customer', { ...o, body: { customer: body } });
  }
  /** Updates by numeric id or foreign_id in the path. */
  updateById(idOrForeignId: number | string, body: BodyOf<`${A}/customers/{id}`, 'put'>, o: WriteOptions = {}): Promise<Customer> {
    return this.core.one(EP.updateById, 'customer', { ...o, params: { id: idOrForeignId }, body: { customer: body } });
  }
  get(idOrForeignId: number | string, o: ReadOptions = {}): Promise<Customer> {
    return this.core.one(EP.get, 'customer', { ...o, params: { id: idOrForeignId } });
  }
  list(query?: QueryOf<`${A}/customers`, 'get'>, o: ReadOptions = {}): Promise<List<Customer>> {
    return this.core.list(EP.list, 'customers', { ...o, ...(query ? { query } : {}) });
  }
  all(query?: QueryOf<`${A}/customers`, 'get'>, o: ReadOptions = {}): AsyncGenerator<Customer> {
    return this.core.all(EP.list, 'customers', { ...o, ...(query ? { query } : {}) });
  }
  async findByForeignId(foreignId: string, o: ReadOptions = {}): Promise<Customer | undefined> {
    const list = await this.core.list<Customer>(EP.list, 'customers', { ...o, query: { foreign_id: foreignId } });
    return list.find((c) => c.foreign_id === foreignId);
  }
}

export class Requests {
  constructor(private readonly core: Core) {}
  /** Creates a request; like orders it always carries a foreign_id and is looked up after a timeout or 5xx. */
  create(input: RequestInput, o: WriteOptions = {}): Promise<RequestRecord> {
    const body = { ...input, foreign_id: (input as { foreign_id?: string }).foreign_id ?? globalThis.crypto.randomUUID() };
    return safeCreate<RequestRecord>(this.core.http, {
      ep: EP.createRequest,
      call: { ...o, body: { request: body } },
      unwrap: (b) => (typeof b?.request?.id === 'number' ? b.request : undefined),
      lookup: () => this.findByForeignId(body.foreign_id, { maxAttempts: 1 }),
      foreignId: body.foreign_id,
    });
  }
  list(query?: { foreign_id?: string; status?: string; updated_since?: string; page?: number; per_page?: number }, o: ReadOptions = {}): Promise<List<RequestRecord>> {
    return this.core.list(EP.requests, 'requests', { ...o, ...(query ? { query } : {}) });
  }
  all(query?: { foreign_id?: string; status?: string; updated_since?: string; per_page?: number }, o: ReadOptions = {}): AsyncGenerator<RequestRecord> {
    return this.core.all(EP.requests, 'requests', { ...o, ...(query ? { query } : {}) });
  }
  async findByForeignId(foreignId: string, o: ReadOptions = {}): Promise<RequestRecord | undefined> {
    const list = await this.list({ foreign_id: foreignId }, o);
    return list.find((r) => (r as { foreign_id?: unknown }).foreign_id === foreignId);
  }
  get(id: number, o: ReadOptions = {}): Promise<RequestRecord> {
    return this.core.one(EP.request, 'request', { ...o, params: { id } });
  }
  /** Staff: accept (creates the booking order). After an ambiguous failure the request is read back first. */
  accept(id: number, o: WriteOptions = {}): Promise<RequestRecord> {
    return safeCreate(this.core.http, { ep: EP.accept, call: { ...o, params: { id } }, unwrap: (b) => b?.request, lookup: () => this.inStatus(id, 'accepted') });
  }
  /** Staff: decline with a reason. After an ambiguous failure the request is read back first. */
  decline(id: number, reason?: string, o: WriteOptions = {}): Promise<RequestRecord> {
    const body = reason ? { reason } : {};
    return safeCreate(this.core.http, { ep: EP.decline, call: { ...o, params: { id }, body }, unwrap: (b) => b?.request, lookup: () => this.inStatus(id, 'declined') });
  }
  /** Withdraws your own pending request. After an ambiguous failure the request is read back first. */
  withdraw(id: number, o: WriteOptions = {}): Promise<RequestRecord> {
    return safeCreate(this.core.http, { ep: EP.withdraw, call: { ...o, params: { id } }, unwrap: (b) => b?.request, lookup: () => this.inStatus(id, 'withdrawn') });
  }
  private async inStatus(id: number, status: string): Promise<RequestRecord | undefined> {
    const r = await this.get(id, { maxAttempts: 1 });
    return (r as { status?: unknown }).status === status ? r : undefined;
  }
}
