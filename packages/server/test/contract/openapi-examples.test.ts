// The OpenAPI document's examples (src/http/api/openapi-examples.ts) are part of the contract: every
// JSON request body, every JSON 2xx answer and every error answer has one, and each validates
// against its own schema, so an example cannot drift from the code. When this fails because a
// route is new or changed, refresh the examples from real traffic (see openapi-examples.ts):
//   ATRIUM_TRAFFIC_DIR=/tmp/t npm test && node --import tsx scripts/openapi-examples.ts /tmp/t
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { renderOpenApi } from '../../scripts/openapi.ts';
import { tidy } from '../../scripts/openapi-examples.ts';
import { testApp } from '../helpers/app.ts';

type Obj = Record<string, any>;
const t = await testApp();
after(() => t.close());
await t.app.ready();
const doc = JSON.parse(renderOpenApi(t.app.swagger())) as Obj;

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(doc, 'openapi.json');
const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every JSON media type object of the document: where it is, whether it is a request, its status. */
function mediaObjects(): Array<{ where: string; pointer: string; media: Obj; status: string | null; id: string }> {
  const out: Array<{ where: string; pointer: string; media: Obj; status: string | null; id: string }> = [];
  for (const [p, item] of Object.entries<Obj>(doc.paths)) {
    for (const [method, op] of Object.entries<Obj>(item)) {
      if (!op?.responses) continue;
      const base = `/paths/${escape(p)}/${method}`;
      const req = op.requestBody?.content?.['application/json'];
      if (req) out.push({ where: `${method.toUpperCase()} ${p} request`, pointer: `${base}/requestBody/content/application~1json`, media: req, status: null, id: op.operationId });
      for (const [status, res] of Object.entries<Obj>(op.responses)) {
        const json = res.content?.['application/json'];
        if (json) out.push({ where: `${method.toUpperCase()} ${p} → ${status}`, pointer: `${base}/responses/${status}/content/application~1json`, media: json, status, id: op.operationId });
      }
    }
  }
  return out;
}

describe('OpenAPI examples', () => {
  const all = mediaObjects();

  test('every JSON request body and every JSON answer has an example', () => {
    const missing = all.filter((m) => m.media.example === undefined && m.media.examples === undefined).map((m) => `${m.where} (${m.id})`);
    assert.ok(all.length > 300, `only ${all.length} JSON media types found`);
    assert.deepEqual(missing, [], `${missing.length} without an example; refresh them (see the top of this file)`);
  });

  test('every example validates against its own schema', () => {
    const wrong: string[] = [];
    for (const m of all) {
      if (m.media.example === undefined) continue;
      const validate = ajv.compile({ $ref: `openapi.json#${m.pointer}/schema` });
      if (!validate(m.media.example)) wrong.push(`${m.where}: ${validate.errors?.[0]?.instancePath || '/'} ${validate.errors?.[0]?.message}`);
    }
    assert.deepEqual(wrong, []);
  });

  test('the check can fail: an answer with a wrong type is refused', () => {
    const m = all.find((x) => x.id === 'getWhoami' && x.status === '200')!;
    assert.ok(m, 'GET /whoami has a 200 example');
    const validate = ajv.compile({ $ref: `openapi.json#${m.pointer}/schema` });
    assert.equal(validate(m.media.example), true);
    assert.equal(validate({ ...m.media.example, museums: 'all' }), false);
  });

  test('recorded examples never carry a secret: tokens keep their form, not their value', () => {
    const secret = `atr_demo_${'s'.repeat(43)}`;
    assert.deepEqual(tidy({ token: secret, secret: 'whsec_live', items: [1, 2, 3, 4, 5] }), {
      token: 'atr_demo_EXAMPLEexampleEXAMPLEexample0',
      secret: 'EXAMPLEexampleEXAMPLEexample0',
      items: [1, 2, 3],
    });
    // No bearer-token-shaped string (request-log.ts's BEARER_SHAPE) anywhere in the document.
    assert.doesNotMatch(JSON.stringify(doc), /atr_[a-z0-9]{1,16}_[A-Za-z0-9_-]{43}/);
  });
});
