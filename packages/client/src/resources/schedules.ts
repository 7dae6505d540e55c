// Schedules (docs/api-contract.md §13): closures, a museum's opening hours, capacity overrides.
// Staff tokens with the catalog right; everything here is live (never cached).
import type { Core, ReadOptions } from '../core.ts';
import { endpoint } from '../endpoints.ts';
import type { BodyOf, List, OkBody, QueryOf } from '../types.ts';
import type { WriteOptions } from './crud.ts';

type A = '/api/v4';
export type Closure = OkBody<`${A}/closures/{id}`, 'get'>['closure'];
export type ClosureCreated = OkBody<`${A}/closures`, 'post'>;
export type MuseumSchedule = OkBody<`${A}/museums/{id}/schedule`, 'get'>;
export type CapacitiesResult = OkBody<`${A}/quotas/{id}/capacities`, 'put'>;

const EP = {
  list: endpoint('GET', '/closures'),
  create: endpoint('POST', '/closures'),
  get: endpoint('GET', '/closures/{id}'),
  remove: endpoint('DELETE', '/closures/{id}'),
  schedule: endpoint('GET', '/museums/{id}/schedule'),
  setSchedule: endpoint('PUT', '/museums/{id}/schedule'),
  capacities: endpoint('PUT', '/quotas/{id}/capacities'),
};

export class Schedules {
  constructor(private readonly core: Core) {}
  closures(query?: QueryOf<`${A}/closures`, 'get'>, o: ReadOptions = {}): Promise<List<Closure>> {
    return this.core.list<Closure>(EP.list, 'closures', { ...o, ...(query ? { query } : {}) });
  }
  closure(id: number, o: ReadOptions = {}): Promise<Closure> {
    return this.core.one<Closure>(EP.get, 'closure', { ...o, params: { id } });
  }
  /** Closes a period; the answer reports the live orders it affects (and cancels them with `cancel_orders`). Never resent. */
  async close(body: BodyOf<`${A}/closures`, 'post'>, o: WriteOptions = {}): Promise<ClosureCreated> {
    return (await this.core.http.send(EP.create, { ...o, body })).body as ClosureCreated;
  }
  async reopen(id: number, o: WriteOptions = {}): Promise<void> {
    await this.core.http.send(EP.remove, { ...o, params: { id } });
  }
  async museumSchedule(museumId: number, o: ReadOptions = {}): Promise<MuseumSchedule> {
    return (await this.core.http.send(EP.schedule, { ...o, params: { id: museumId } })).body as MuseumSchedule;
  }
  async setMuseumSchedule(museumId: number, body: BodyOf<`${A}/museums/{id}/schedule`, 'put'>, o: WriteOptions = {}): Promise<MuseumSchedule> {
    return (await this.core.http.send(EP.setSchedule, { ...o, params: { id: museumId }, body })).body as MuseumSchedule;
  }
  /** Per-date or per-slot capacity of a quota; lowering below what is sold answers `oversold_by`. */
  async setCapacities(quotaId: number, body: BodyOf<`${A}/quotas/{id}/capacities`, 'put'>, o: WriteOptions = {}): Promise<CapacitiesResult> {
    return (await this.core.http.send(EP.capacities, { ...o, params: { id: quotaId }, body })).body as CapacitiesResult;
  }
}
