// Entry control (docs/api-contract.md §14): scans at the door, the offline manifest, history and
// occupancy, and a ticket's entry rules. Scanner devices use `entry` tokens.
import type { Core, ReadOptions } from '../core.ts';
import { endpoint } from '../endpoints.ts';
import type { BodyOf, List, OkBody, QueryOf } from '../types.ts';
import type { WriteOptions } from './crud.ts';

type A = '/api/v4';
export type Scan = OkBody<`${A}/scans`, 'post'>['scan'];
export type ScanInput = BodyOf<`${A}/scans`, 'post'>;
export type Manifest = OkBody<`${A}/scans/manifest`, 'get'>;
export type Occupancy = OkBody<`${A}/occupancy`, 'get'>['occupancy'];

const EP = {
  // A scan with a device_scan_id replays the first answer, so resending it is safe.
  scan: endpoint('POST', '/scans', { retry: 'idempotent' }),
  scans: endpoint('GET', '/scans'),
  manifest: endpoint('GET', '/scans/manifest'),
  occupancy: endpoint('GET', '/occupancy'),
  entryRules: endpoint('PUT', '/tickets/{id}/entry_rules'),
};

export class Entry {
  constructor(private readonly core: Core) {}
  /** Records a scan; a refusal is an answer (`is_valid: false`), not an error. Give `device_scan_id` so a resend replays. */
  async scan(body: ScanInput, o: WriteOptions = {}): Promise<Scan> {
    const sent = body as { scan?: { device_scan_id?: string } };
    const ep = sent.scan?.device_scan_id ? EP.scan : { ...EP.scan, retry: 'once' as const };
    return ((await this.core.http.send(ep, { ...o, body })).body as { scan: Scan }).scan;
  }
  scans(query?: QueryOf<`${A}/scans`, 'get'>, o: ReadOptions = {}): Promise<List<Scan>> {
    return this.core.list<Scan>(EP.scans, 'scans', { ...o, ...(query ? { query } : {}) });
  }
  /** What is valid on a day, for scanning offline (ETag-revalidated by the server). */
  async manifest(query: QueryOf<`${A}/scans/manifest`, 'get'>, o: ReadOptions = {}): Promise<Manifest> {
    return (await this.core.http.send(EP.manifest, { ...o, query })).body as Manifest;
  }
  async occupancy(query: QueryOf<`${A}/occupancy`, 'get'>, o: ReadOptions = {}): Promise<Occupancy> {
    return ((await this.core.http.send(EP.occupancy, { ...o, query })).body as { occupancy: Occupancy }).occupancy;
  }
  async setEntryRules(ticketId: number, body: BodyOf<`${A}/tickets/{id}/entry_rules`, 'put'>, o: WriteOptions = {}): Promise<unknown> {
    return (await this.core.http.send(EP.entryRules, { ...o, params: { id: ticketId }, body })).body;
  }
}
