// go~mus instance and lookup reads (docs/gomus-compatibility.md): `/version` with `release` and
// `time`, and the lookup lists `/countries`, `/states`, `/dispatch_modes` in go~mus's shapes.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { testApp } from '../helpers/app.ts';

const t = await testApp();
after(() => t.close());
const get = (url: string, token?: string) => t.request({ method: 'GET', url: `/api/v4${url}`, ...(token ? { token } : {}) });

describe('GET /version', () => {
  test('answers release and time next to the other go~mus keys', async () => {
    const before = Date.now();
    const res = await get('/version');
    assert.equal(res.statusCode, 200);
    const v = res.json().version;
    assert.deepEqual(Object.keys(v).sort(), ['api', 'currency', 'per_page', 'release', 'system', 'time', 'zone']);
    assert.equal(v.release, v.system);
    assert.match(v.time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
    assert.ok(Date.parse(v.time) <= before, 'the start time, not the time of the request');
    assert.equal((await get('/version')).json().version.time, v.time);
  });
});

describe('go~mus lookup lists', () => {
  test('/countries: every ISO code once, named in the locale, paged with meta', async () => {
    const token = await t.token({ class: 'user' });
    const all: { id: number; name: string; code: string }[] = [];
    for (let page = 1; ; page++) {
      const res = await get(`/countries?per_page=100&page=${page}&locale=de`, token);
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.deepEqual(body.meta, { total_count: 249, page, per_page: 100 });
      all.push(...body.countries);
      if (body.countries.length < 100) break;
    }
    assert.equal(all.length, 249);
    assert.equal(new Set(all.map((c) => c.code)).size, 249);
    assert.deepEqual(all.map((c) => c.id), all.map((_, i) => i + 1));
    const de = all.find((c) => c.code === 'DE');
    assert.deepEqual(de, { id: de!.id, name: 'Deutschland', code: 'DE' });
    const en = (await get(`/countries?per_page=100&page=1&locale=en`, token)).json().countries;
    assert.equal(en.find((c: { code: string }) => c.code === 'DE').name, 'Germany');
    assert.equal(en.find((c: { code: string }) => c.code === 'DE').id, de!.id, 'ids do not depend on the locale');
  });

  test('/countries without a token is capped at 25 per page; an unknown locale is a 422', async () => {
    const res = await get('/countries?per_page=1000');
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().countries.length, 25);
    assert.deepEqual(res.json().meta, { total_count: 249, page: 1, per_page: 25 });
    const bad = await get('/countries?locale=xx');
    assert.equal(bad.statusCode, 422);
    assert.match(bad.json().error, /locale/);
  });

  test('/states is the empty list with meta, /dispatch_modes e-mail only with go~mus id 1', async () => {
    const states = await get('/states');
    assert.equal(states.statusCode, 200);
    assert.deepEqual(states.json(), { states: [], meta: { total_count: 0, page: 1, per_page: 25 } });
    const modes = await get('/dispatch_modes?locale=de');
    assert.equal(modes.statusCode, 200);
    assert.deepEqual(modes.json(), { dispatch_modes: [{ id: 1, name: 'E-Mail' }], meta: { total_count: 1, page: 1, per_page: 25 } });
  });
});
