// Entry control (docs/api-contract.md §14, docs/adr/0017-entry-control.md): scanner devices (entry tokens) and
// staff with orders rights scan at the door, read the day's manifest, the history and occupancy.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { tokenOnly } from '../../access.ts';
import { unwrap } from '../../unwrap.ts';
import { errorResponses, IdParam } from '../../schemas/common.ts';
import { EntryRulesBody, EntryRulesOut, ListScansQuery, ManifestOut, ManifestQuery, OccupancyOut, OccupancyQuery, ScanBody, ScanEnvelope, ScanList } from '../../schemas/entry.ts';
import { getOccupancy } from '../../../../domain/entry/getOccupancy.ts';
import { getManifest } from '../../../../domain/entry/getManifest.ts';
import { listScans } from '../../../../domain/entry/listScans.ts';
import { setEntryRules } from '../../../../domain/entry/setEntryRules.ts';
import { scanWithView } from '../../../../domain/entry/scanBarcode.ts';
import { scanJson } from '../../../../domain/entry/json.ts';
import { gomusV4EntryRoutes } from './gomusV4.ts';
import { named } from '../../../plugin-name.ts';

const scan = tokenOnly(['entry', 'user'], ['orders', 'write']);
const read = tokenOnly(['entry', 'user'], ['orders', 'read']);
const tags = ['entry'];

export const entryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(named(gomusV4EntryRoutes));

  app.post(
    '/scans',
    {
      config: { access: scan, cache: 'live' },
      preValidation: unwrap('scan'),
      schema: {
        tags,
        summary: 'Scan a barcode at entry or exit; a refusal is a normal 201 with is_valid false',
        body: ScanBody,
        response: { 200: ScanEnvelope, 201: ScanEnvelope, ...errorResponses(400, 401, 403, 415, 422) },
      },
    },
    async (req, reply) => {
      const { json, replayed } = await scanWithView(req.ctx, req.body as Parameters<typeof scanWithView>[1]);
      reply.code(replayed ? 200 : 201);
      return { scan: json };
    },
  );

  app.get(
    '/scans',
    {
      config: { access: read, cache: 'live' },
      schema: { tags, summary: 'Scans, newest verdicts (filters museum_id, date, barcode, device)', querystring: ListScansQuery, response: { 200: ScanList, ...errorResponses(401, 403, 404, 422) } },
    },
    async (req) => {
      const r = await listScans(req.ctx, req.query);
      return { scans: r.scans.map((s) => scanJson(s, req.ctx.config.zone)), meta: { total_count: r.total, page: r.page, per_page: r.perPage } };
    },
  );

  app.get(
    '/scans/manifest',
    {
      config: { access: read },
      schema: { tags, summary: 'What is valid at a museum on a date, for scanning offline (ETag, 304)', querystring: ManifestQuery, response: { 200: ManifestOut, 304: Type.Null({ description: 'Not modified (If-None-Match)' }), ...errorResponses(401, 403, 404, 422) } },
    },
    async (req, reply) => {
      const m = await getManifest(req.ctx, req.query);
      reply.header('cache-control', 'private, no-cache').header('etag', m.etag);
      if (req.headers['if-none-match'] === m.etag) return reply.code(304).send(null);
      return { manifest: m.manifest };
    },
  );

  app.get(
    '/occupancy',
    {
      config: { access: read, cache: 'live' },
      schema: { tags, summary: 'People inside a museum now, entries and exits today by hour', querystring: OccupancyQuery, response: { 200: OccupancyOut, ...errorResponses(401, 403, 404, 422) } },
    },
    async (req) => ({ occupancy: await getOccupancy(req.ctx, req.query) }),
  );

  app.put(
    '/tickets/:id/entry_rules',
    {
      config: { access: tokenOnly(['user'], ['catalog', 'write']), cache: 'live' },
      preValidation: unwrap('entry_rules'),
      schema: { tags, summary: "A ticket's entry rules: entries allowed, re-entry after exit, how early the door opens", params: IdParam, body: EntryRulesBody, response: { 200: EntryRulesOut, ...errorResponses(400, 401, 403, 404, 415, 422) } },
    },
    async (req) => ({ entry_rules: await setEntryRules(req.ctx, req.params.id, req.body) }),
  );
};
