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
/** PUT /entry/scans/{id}: bare or wrapped in `scan`, as go~mus clients send it. */
export type ScanPeopleInput = { people_count: number } | { scan: { people_count: number } };
/** GET /entry/config: the scanner account and what its door needs. */
export interface EntryConfig {
  id: number;
  name: string;
  settings: {
    museums: Array<{ id: number; name: string; time_zone: string }>;
    locale: string;
    early_minutes: number;
    max_clock_skew_seconds: number;
  };
}

const EP = {
  // A scan with a device_scan_id replays the first answer, so resending it is safe.
  scan: endpoint('POST', '/scans', { retry: 'idempotent' }),
  scans: endpoint('GET', '/scans'),
  manifest: endpoint('GET', '/scans/manifest'),
  occupancy: endpoint('GET', '/occupancy'),
  entryRules: endpoint('PUT', '/tickets/{id}/entry_rules'),
  // The go~mus v4 entry calls (docs/gomus-compatibility.md).
  storedScan: endpoint('GET', '/entry/scans/{id}'),
  // Sets a count, so resending the same body is harmless.
  scanPeople: endpoint('PUT', '/entry/scans/{id}', { retry: 'idempotent' }),
  config: endpoint('GET', '/entry/config'),
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
  /** One stored scan, as POST /scans answered it (404 outside the token's museums). */
  async storedScan(id: number, o: ReadOptions = {}): Promise<Scan> {
    return ((await this.core.http.send(EP.storedScan, { ...o, params: { id } })).body as { scan: Scan }).scan;
  }
  /** How many people a valid entry scan admitted (a group at the door); 1 up to what the barcode covers. */
  async setScanPeople(id: number, body: ScanPeopleInput, o: WriteOptions = {}): Promise<Scan> {
    return ((await this.core.http.send(EP.scanPeople, { ...o, params: { id }, body })).body as { scan: Scan }).scan;
  }
  /** The scanner's config; `entry_zone` is accepted for go~mus clients and ignored. */
  async config(query: { entry_zone?: string } = {}, o: ReadOptions = {}): Promise<EntryConfig> {
    return ((await this.core.http.send(EP.config, { ...o, query })).body as { config: EntryConfig }).config;
  }
  async setEntryRules(ticketId: number, body: BodyOf<`${A}/tickets/{id}/entry_rules`, 'put'>, o: WriteOptions = {}): Promise<unknown> {
    return (await this.core.http.send(EP.entryRules, { ...o, params: { id: ticketId }, body })).body;
  }
}
