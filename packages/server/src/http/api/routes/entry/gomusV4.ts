// The go~mus v4 entry calls (docs/gomus-compatibility.md, docs/api-contract.md §14): one stored scan,
// its people changed at the door, and the scanner's config. go~mus scanners send the change as a
// form body (`scan[people_count]=3`), so this plugin alone also parses form bodies: it is its own
// encapsulated context, and every other API route keeps answering them with 415.
import fastifyFormbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { tokenOnly } from '../../access.ts';
import { unwrap } from '../../unwrap.ts';
import { errorResponses, IdParam } from '../../schemas/common.ts';
import { EntryConfigOut, EntryConfigQuery, ScanEnvelope, ScanPeopleBody } from '../../schemas/entry.ts';
import { getEntryConfig } from '../../../../domain/entry/getEntryConfig.ts';
import { getScan } from '../../../../domain/entry/getScan.ts';
import { setScanPeople } from '../../../../domain/entry/setScanPeople.ts';
import { scanJson } from '../../../../domain/entry/json.ts';

const write = tokenOnly(['entry', 'user'], ['orders', 'write']);
const read = tokenOnly(['entry', 'user'], ['orders', 'read']);
const tags = ['entry'];

/** `{"scan[people_count]": "3"}` (a form body, or JSON sent with bracket keys) → `{"scan": {"people_count": "3"}}`. */
async function unbracket(req: FastifyRequest) {
  const body = req.body as Record<string, unknown> | null;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const m = /^([a-z_]+)\[([a-z_]+)\]$/.exec(key);
    if (!m) {
      out[key] = value;
      continue;
    }
    const inner = out[m[1]!];
    const obj = inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : (out[m[1]!] = {} as Record<string, unknown>);
    obj[m[2]!] = value;
  }
  req.body = out;
}

export const gomusV4EntryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(fastifyFormbody, { bodyLimit: 4096 });

  app.get(
    '/entry/scans/:id',
    { config: { access: read, cache: 'live' }, schema: { tags, summary: 'go~mus: one stored scan, as POST /scans answered it', params: IdParam, response: { 200: ScanEnvelope, ...errorResponses(401, 403, 404, 422) } } },
    async (req) => ({ scan: scanJson(await getScan(req.ctx, req.params.id), req.ctx.config.zone) }),
  );

  app.put(
    '/entry/scans/:id',
    {
      config: { access: write, cache: 'live' },
      preValidation: [unbracket, unwrap('scan')],
      schema: {
        tags,
        summary: 'go~mus: how many people a valid entry scan admitted (a group at the door); JSON or form body scan[people_count]=3',
        params: IdParam,
        body: ScanPeopleBody,
        response: { 200: ScanEnvelope, ...errorResponses(400, 401, 403, 404, 415, 422) },
      },
    },
    async (req) => ({ scan: scanJson(await setScanPeople(req.ctx, req.params.id, req.body), req.ctx.config.zone) }),
  );

  app.get(
    '/entry/config',
    { config: { access: read, cache: 'live' }, schema: { tags, summary: "go~mus: the scanner's config (entry_zone is ignored: Atrium has no entry zones)", querystring: EntryConfigQuery, response: { 200: EntryConfigOut, ...errorResponses(401, 403, 422) } } },
    async (req) => ({ config: await getEntryConfig(req.ctx) }),
  );
};
