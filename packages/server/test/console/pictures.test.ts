// The console's picture upload: a manager posts the multipart form (CSRF token as a field), the
// media verb stores the picture, attaches it to the record and the API's go~mus `picture` shows
// it; refusals (not a picture, too large, a pixel bomb, no file) come back on the form in the
// user's language with what was typed, and nothing is stored; without the CSRF token, nothing.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { photoWithGps, pngBomb } from '../media/pictures.ts';
import { signIn, staffUser, type Browser } from './support.ts';

const dir = await mkdtemp(path.join(os.tmpdir(), 'atrium-console-pictures-'));
const t = await testApp({ env: { ATRIUM_MEDIA_DIR: dir, ATRIUM_MEDIA_MAX_BYTES: String(1024 * 1024) } });
after(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});
const db = t.database.db;
const ids = { museum: 0, ticket: 0, tour: 0 };
let manager: Browser;
let photo: Buffer;

const mediaCount = async () => (await db.execute<{ n: number }>(sql`select count(*)::int n from media`)).rows[0]!.n;
const jpeg = (bytes: Buffer, name = 'saal.jpg') => ({ name, type: 'image/jpeg', bytes });

before(async () => {
  ids.museum = (await f.museum(db)).id;
  ids.ticket = (await f.ticket(db, { museumId: ids.museum })).id;
  ids.tour = (await f.tour(db, { museumId: ids.museum })).id;
  manager = await signIn(t, (await staffUser(t, 'manager', [ids.museum])).email);
  photo = await photoWithGps();
});

describe('uploading', () => {
  test('the form is multipart, carries the CSRF token and offers every kind of record', async () => {
    const res = await manager.get(`/console/pictures?target_type=tour&target_id=${ids.tour}`);
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /enctype="multipart\/form-data"/);
    assert.match(res.body, /name="_csrf" value="[^"]+"/);
    for (const ty of ['museum', 'exhibition', 'ticket', 'event', 'tour']) assert.match(res.body, new RegExp(`<option value="${ty}"`));
    assert.match(res.body, /<option value="tour" selected>/);
    // The picker lists the records by title; the one linked to is chosen.
    assert.match(res.body, new RegExp(`<option value="tour:${ids.tour}" selected>[^<]+ \\(${ids.tour}\\)</option>`));
    assert.match(res.body, new RegExp(`<option value="ticket:${ids.ticket}">`));
    assert.match(res.body, /href="\/console\/pictures" aria-current="page"/, 'the nav entry');
  });

  test('a picture posted for a ticket is stored, attached, audited and is the API\'s picture', async () => {
    const res = await manager.post('/console/pictures', { target: `ticket:${ids.ticket}`, target_type: 'museum', target_id: '', title: 'Großer Saal', description: 'Blick vom Eingang', copyright_info: '© Museum' }, { file: jpeg(photo) });
    assert.equal(res.statusCode, 303, res.body.slice(0, 500));
    const location = String(res.headers.location);
    assert.match(location, /^\/console\/pictures\?media=\d+&notice=picturesaved$/);
    const page = await manager.get(location);
    assert.match(page.body, /The picture is saved\./);
    assert.match(page.body, new RegExp(`<option value="ticket:${ids.ticket}">[^<]+ · has a picture</option>`));
    const api = await t.request({ method: 'GET', url: `/api/v4/tickets/${ids.ticket}`, token: await t.token({ class: 'user' }) });
    const pic = api.json().ticket.picture;
    assert.equal(pic.title, 'Großer Saal');
    assert.equal(pic.description, 'Blick vom Eingang');
    assert.equal(pic.copyright_info, '© Museum');
    assert.match(pic.preview, /^\/media\/[0-9a-f]+\/preview\.jpg$/);
    assert.ok(page.body.includes(`src="${pic.preview}"`), 'the saved page shows the preview');
    const file = await t.app.inject({ method: 'GET', url: pic.teaser });
    assert.equal(file.statusCode, 200);
    assert.equal(file.headers['content-type'], 'image/jpeg');
    const audit = await db.execute<{ action: string }>(sql`select action from audit_log where entity_type = 'media'`);
    assert.deepEqual(audit.rows.map((r) => r.action), ['media.upload']);
  });

  test('without a record chosen nothing is stored, and the form says so', async () => {
    const before = await mediaCount();
    const res = await manager.post('/console/pictures', { target: '', target_id: '' }, { file: jpeg(photo) });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /Please choose the record the picture is for\./);
    assert.equal(await mediaCount(), before);
  });

  test('without the CSRF token nothing is stored', async () => {
    const before = await mediaCount();
    const res = await manager.post('/console/pictures', { target_type: 'ticket', target_id: String(ids.ticket) }, { csrf: null, file: jpeg(photo) });
    assert.equal(res.statusCode, 403);
    assert.equal(await mediaCount(), before);
  });
});

describe('refusals on the form', () => {
  const cases: Array<[string, { name: string; type: string; bytes: Buffer } | undefined, number, RegExp, RegExp]> = [
    ['an HTML file named .jpg', { name: 'x.jpg', type: 'image/jpeg', bytes: Buffer.from('<html><script>alert(1)</script></html>') }, 422, /not a JPEG, PNG or WebP picture/, /kein JPEG-, PNG- oder WebP-Bild/],
    ['a file over the size limit', jpeg(Buffer.alloc(1024 * 1024 + 10, 1)), 413, /larger than 1 MB/, /größer als 1 MB/],
    ['a decompression bomb', { name: 'bomb.png', type: 'image/png', bytes: pngBomb() }, 422, /too many pixels/, /zu viele Pixel/],
    ['no file at all', undefined, 422, /Please choose a picture file/, /Bitte eine Bilddatei auswählen/],
  ];
  for (const [what, file, status, en, de] of cases) {
    test(`${what}: ${status}, told on the form in English and German, nothing stored`, async () => {
      const before = await mediaCount();
      const form = { target_type: 'tour', target_id: String(ids.tour), title: 'Mein <Titel>' };
      const res = await manager.post('/console/pictures', form, file ? { file } : {});
      assert.equal(res.statusCode, status, res.body.slice(0, 300));
      assert.match(res.body, en);
      assert.match(res.body, /role="alert"/);
      assert.match(res.body, /value="Mein &lt;Titel&gt;"/, 'what was typed stays, escaped');
      assert.match(res.body, /<option value="tour" selected>/);
    // The picker lists the records by title; the one linked to is chosen.
    assert.match(res.body, new RegExp(`<option value="tour:${ids.tour}" selected>[^<]+ \\(${ids.tour}\\)</option>`));
    assert.match(res.body, new RegExp(`<option value="ticket:${ids.ticket}">`));
      await manager.post('/console/locale', { locale: 'de', back: '/console/pictures' });
      try {
        const again = await manager.post('/console/pictures', form, file ? { file } : {});
        assert.equal(again.statusCode, status);
        assert.match(again.body, de);
      } finally {
        await manager.post('/console/locale', { locale: 'en', back: '/console/pictures' });
      }
      assert.equal(await mediaCount(), before);
      const tour = await t.request({ method: 'GET', url: `/api/v4/tours/${ids.tour}`, token: await t.token({ class: 'user' }) });
      assert.equal(tour.json().tour.picture, null);
    });
  }
});
