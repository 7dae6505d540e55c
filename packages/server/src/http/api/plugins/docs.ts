// The OpenAPI 3.1 document is generated from the route schemas (@fastify/swagger) and served at
// /api-docs/openapi.json, with an interactive reference (Swagger UI, shipped in the npm package)
// at /api-docs. `npm run openapi` writes the same document to openapi/openapi.json.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ErrorBody, errorResponses } from '../schemas/common.ts';
import { shapeDocument } from '../openapi-shape.ts';

export const API_VERSION = '4.4';

/** The guides shown at the top of /api-docs, in reading order (docs/guides/*.md in the repository). */
const GUIDES = ['getting-started', 'booking-flow', 'errors-and-retries', 'webhooks', 'entry-control'];
const guidesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../../docs/guides');

function guides(): string {
  return GUIDES.map((g) => path.join(guidesDir, `${g}.md`))
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f, 'utf8').trim())
    .join('\n\n');
}
export const SYSTEM_VERSION = '0.1.0';

export async function docs(app: FastifyInstance) {
  app.addSchema(ErrorBody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Atrium museum ticketing API',
        version: `${API_VERSION} (Atrium ${SYSTEM_VERSION})`,
        description:
          'JSON API for tickets, events, tours, availability, reservations, orders and customers. ' +
          'Answers are context-aware: the bearer token (public, user or reseller) decides what is shown. ' +
          'Error bodies are `{error, errors?, code, request_id}`; see docs/errors.md for every code.\n\n' +
          guides(),
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'atr_<instance>_<secret>; see GET /api/v4/whoami' },
        },
      },
    },
    transformObject: (doc) => ('openapiObject' in doc ? shapeDocument(doc.openapiObject as Record<string, any>) : doc.swaggerObject),
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  // Document which token classes may call each route.
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access || !route.schema) return;
    const classes = [...(access.anonymous ? ['anonymous'] : []), ...access.classes];
    const schema = route.schema as Record<string, unknown>;
    schema['x-token-classes'] = classes;
    if (route.config?.cache) schema['x-cache'] = route.config.cache;
    if (access.right) schema['x-user-right'] = `${access.right[0]}:${access.right[1]}`;
    schema.security = access.anonymous ? [{}, { bearer: [] }] : [{ bearer: [] }];
    // Any route with path parameters can be refused by the router before it runs: a segment that
    // is not valid percent-encoded UTF-8, or a parameter over the length limit, is a 400.
    const response = schema.response as Record<string, unknown> | undefined;
    if (schema.params && response && !response[400]) Object.assign(response, errorResponses(400));
  });
  await app.register(swaggerUi, { routePrefix: '/api-docs', staticCSP: true });
  app.get('/api-docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
