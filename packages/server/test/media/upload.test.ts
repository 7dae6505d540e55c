// Picture uploads through POST /api/v4/media (docs/api-contract.md §23): attached to every kind
// of catalogue record as go~mus's `picture`, metadata stripped, variants served under /media with
// immutable caching and ETags; refusals for what is not a picture, for broken and oversized ones,
// past the account's quota and outside the caller's museum scope.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { hasGpsPointer, multipart, photoWithGps, pngBomb } from './pictures.ts';

const dir = await mkdtemp(path.join(os.tmpdir(), 'atrium-media-'));
const t = await testApp({ env: { ATRIUM_MEDIA_DIR: dir, ATRIUM_MEDIA_QUOTA: '6', ATRIUM_MEDIA_MAX_BYTES: String(2 * 1024 * 1024) } });
after(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});
const db = t.database.db;
let user = '';
const ids = { museum: 0, exhibition: 0, ticket: 0, event: 0, tour: 0, other: 0, otherTicket: 0 };
let photo: Buffer;

const upload = (token: string, fields: Record<string, string | number>, file?: { name: string; type: string; bytes: Buffer }) =>
  t.request({ method: 'POST', url: '/api/v4/media', token, ...multipart(fields, file) });
const jpeg = (bytes: Buffer, name = 'photo.jpg') => ({ name, type: 'image/jpeg', bytes });

before(async () => {
  user = await t.token({ class: 'user' });
  ids.museum = (await f.museum(db)).id;
  ids.exhibition = (await f.exhibition(db, { museumId: ids.museum })).id;
  ids.ticket = (await f.ticket(db, { museumId: ids.museum })).id;
  ids.event = (await f.event(db, { museumId: ids.museum })).id;
  ids.tour = (await f.tour(db, { museumId: ids.museum })).id;
  ids.other = (await f.museum(db)).id;
  ids.otherTicket = (await f.ticket(db, { museumId: ids.other })).id;
  photo = await photoWithGps();
});

describe('attaching', () => {
  test('picture is null on every kind of record before an upload', async () => {
    for (const [path, key] of [['museums', 'museum'], ['exhibitions', 'exhibition'], ['tickets', 'ticket'], ['events', 'event'], ['tours', 'tour']] as const) {
      const res = await t.request({ method: 'GET', url: `/api/v4/${path}/${ids[key]}`, token: user });
      assert.equal(res.statusCode, 200, path);
      const record = res.json()[key];
      assert.ok('picture' in record, path);
      assert.equal(record.picture, null, path);
    }
  });

  test('an upload becomes the go~mus picture of museums, exhibitions, tickets, events and tours (list and detail)', async () => {
    for (const [plural, key] of [['museums', 'museum'], ['exhibitions', 'exhibition'], ['tickets', 'ticket'], ['events', 'event'], ['tours', 'tour']] as const) {
      const res = await upload(user, { target_type: key, target_id: ids[key], title: `Bild ${key}`, description: 'Blick in den Saal', copyright_info: '© Museum' }, jpeg(photo));
      assert.equal(res.statusCode, 201, res.body);
      const m = res.json().media;
      assert.equal(m.content_type, 'image/jpeg');
      assert.deepEqual([m.width, m.height], [400, 300]);
      const expected = {
        title: `Bild ${key}`, description: 'Blick in den Saal', copyright_info: '© Museum',
        teaser: m.picture.teaser, preview: m.picture.preview, article: m.picture.article, detail: m.picture.detail, original: m.picture.original,
      };
      assert.match(m.picture.teaser, /^\/media\/[a-f0-9]{32}\/teaser\.jpg$/);
      const one = (await t.request({ method: 'GET', url: `/api/v4/${plural}/${ids[key]}` })).json()[key];
      assert.deepEqual(one.picture, expected, key);
      const list = (await t.request({ method: 'GET', url: `/api/v4/${plural}?per_page=100` })).json()[plural];
      assert.deepEqual(list.find((r: { id: number }) => r.id === ids[key]).picture, expected, `${key} list`);
    }
  });
});

describe('files', () => {
  test('metadata is stripped: the upload had EXIF GPS, no variant has EXIF at all', async () => {
    assert.ok(hasGpsPointer((await sharp(photo).metadata()).exif), 'control: the upload carries GPS');
    const m = (await upload(user, { target_type: 'museum', target_id: ids.museum }, jpeg(photo))).json().media;
    for (const url of [...Object.values(m.webp), m.picture.teaser, m.picture.preview, m.picture.article, m.picture.detail, m.picture.original] as string[]) {
      const res = await t.request({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      const meta = await sharp(res.rawPayload).metadata();
      assert.equal(meta.exif, undefined, url);
      assert.equal(meta.xmp, undefined, url);
      assert.equal(res.headers['content-type'], url.endsWith('.webp') ? 'image/webp' : 'image/jpeg');
    }
  });

  test('variants are served with immutable caching and an ETag; If-None-Match answers 304', async () => {
    const museum = (await t.request({ method: 'GET', url: `/api/v4/museums/${ids.museum}` })).json().museum;
    const res = await t.request({ method: 'GET', url: museum.picture.teaser });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['cache-control']), /max-age=31536000.*immutable/);
    const etag = String(res.headers.etag);
    assert.ok(etag.startsWith('"'));
    const meta = await sharp(res.rawPayload).metadata();
    assert.ok(meta.width! <= 320 && meta.height! <= 320);
    const again = await t.request({ method: 'GET', url: museum.picture.teaser, headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.rawPayload.length, 0);
    const other = await t.request({ method: 'GET', url: museum.picture.teaser, headers: { 'if-none-match': '"something-else"' } });
    assert.equal(other.statusCode, 200);
    assert.equal((await t.request({ method: 'GET', url: '/media/0123456789abcdef0123456789abcdef/teaser.jpg' })).statusCode, 404);
    assert.equal((await t.request({ method: 'GET', url: '/media/..%2f..%2fetc/passwd' })).statusCode, 404);
  });
});

describe('refusals', () => {
  let user = '';
  before(async () => { user = await t.token({ class: 'user' }); });
  test('an SVG or HTML file named .jpg is refused by its content', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>');
    const html = Buffer.from('<!doctype html><html><script>alert(1)</script></html>');
    for (const bytes of [svg, html]) {
      const res = await upload(user, { target_type: 'museum', target_id: ids.museum }, jpeg(bytes, 'cat.jpg'));
      assert.equal(res.statusCode, 422, res.body);
      assert.match(res.json().errors[0], /not a JPEG, PNG or WebP picture/);
    }
  });

  test('a truncated JPEG and a decompression bomb are refused before anything is stored', async () => {
    const before = (await t.request({ method: 'GET', url: `/api/v4/tickets/${ids.ticket}` })).json().ticket.picture;
    const cut = await upload(user, { target_type: 'ticket', target_id: ids.ticket }, jpeg(photo.subarray(0, Math.floor(photo.length / 2))));
    assert.equal(cut.statusCode, 422, cut.body);
    assert.match(cut.json().errors[0], /truncated or corrupt/);
    const bomb = await upload(user, { target_type: 'ticket', target_id: ids.ticket }, { name: 'bomb.png', type: 'image/png', bytes: pngBomb() });
    assert.equal(bomb.statusCode, 422, bomb.body);
    assert.match(bomb.json().errors[0], /more than \d+ pixels/);
    assert.deepEqual((await t.request({ method: 'GET', url: `/api/v4/tickets/${ids.ticket}` })).json().ticket.picture, before);
  });

  test('a file over the size limit is a 413', async () => {
    const big = Buffer.concat([photo, Buffer.alloc(2 * 1024 * 1024)]);
    const res = await upload(user, { target_type: 'museum', target_id: ids.museum }, jpeg(big));
    assert.equal(res.statusCode, 413, res.body);
    assert.equal(res.json().code, 'PAYLOAD_TOO_LARGE');
  });

  test('bad fields and a missing file are 422s naming them', async () => {
    const res = await upload(user, { target_type: 'order', target_id: 1 }, jpeg(photo));
    assert.equal(res.statusCode, 422);
    const none = await upload(user, { target_type: 'museum', target_id: ids.museum });
    assert.equal(none.statusCode, 422);
    assert.match(none.body, /file/);
  });

  test('tokens without catalog:write and anonymous callers cannot upload', async () => {
    const reseller = await t.token({ class: 'reseller' });
    assert.equal((await upload(reseller, { target_type: 'museum', target_id: ids.museum }, jpeg(photo))).statusCode, 403);
    const anon = await t.request({ method: 'POST', url: '/api/v4/media', ...multipart({ target_type: 'museum', target_id: ids.museum }, jpeg(photo)) });
    assert.equal(anon.statusCode, 401);
  });
});

describe('scope and quota', () => {
  test("a museum-scoped user cannot attach to another museum's records", async () => {
    const scoped = await t.token({ class: 'user', museumIds: [ids.museum] });
    const foreign = await upload(scoped, { target_type: 'ticket', target_id: ids.otherTicket }, jpeg(photo));
    assert.equal(foreign.statusCode, 404, foreign.body);
    const foreignMuseum = await upload(scoped, { target_type: 'museum', target_id: ids.other }, jpeg(photo));
    assert.equal(foreignMuseum.statusCode, 404);
    assert.equal((await t.request({ method: 'GET', url: `/api/v4/tickets/${ids.otherTicket}` })).json().ticket.picture, null);
    // Control: the same token attaches to its own museum's ticket.
    assert.equal((await upload(scoped, { target_type: 'ticket', target_id: ids.ticket }, jpeg(photo))).statusCode, 201);
  });

  test('uploads past the account quota are refused with 507; another account still uploads', async () => {
    const own = await t.token({ class: 'user' });
    for (let i = 0; i < 6; i++) assert.equal((await upload(own, { target_type: 'tour', target_id: ids.tour }, jpeg(photo))).statusCode, 201, `upload ${i + 1}`);
    const past = await upload(own, { target_type: 'tour', target_id: ids.tour }, jpeg(photo));
    assert.equal(past.statusCode, 507, past.body);
    assert.equal(past.json().code, 'STORAGE_QUOTA_EXCEEDED');
    const fresh = await t.token({ class: 'user' });
    assert.equal((await upload(fresh, { target_type: 'tour', target_id: ids.tour }, jpeg(photo))).statusCode, 201);
  });
});

describe('reading and deleting', () => {
  let user = '';
  before(async () => { user = await t.token({ class: 'user' }); });
  test('GET /media/:id answers the upload; DELETE falls back to the previous picture, then to null', async () => {
    const a = (await upload(user, { target_type: 'exhibition', target_id: ids.exhibition, title: 'A' }, jpeg(photo))).json().media;
    const png = await sharp({ create: { width: 50, height: 40, channels: 4, background: { r: 10, g: 120, b: 200, alpha: 0.5 } } }).png().toBuffer();
    const b = (await upload(user, { target_type: 'exhibition', target_id: ids.exhibition, title: 'B' }, { name: 'b.png', type: 'image/png', bytes: png })).json().media;
    assert.equal(b.content_type, 'image/png');
    const got = await t.request({ method: 'GET', url: `/api/v4/media/${b.id}`, token: user });
    assert.equal(got.statusCode, 200);
    assert.equal(got.json().media.title, 'B');
    const shown = async () => (await t.request({ method: 'GET', url: `/api/v4/exhibitions/${ids.exhibition}` })).json().exhibition.picture;
    assert.equal((await shown()).title, 'B');
    assert.equal((await t.request({ method: 'DELETE', url: `/api/v4/media/${b.id}`, token: user })).statusCode, 204);
    assert.equal((await shown()).title, 'A');
    // Every earlier upload of this exhibition is deleted too: then it has no picture.
    for (let id = a.id; id > 0; id--) await t.request({ method: 'DELETE', url: `/api/v4/media/${id}`, token: user });
    assert.equal(await shown(), null);
    assert.equal((await t.request({ method: 'GET', url: `/api/v4/media/${b.id}`, token: user })).statusCode, 404);
  });
});

describe('storage', () => {
  test('a media directory that cannot be written gives one clear 503, and nothing is attached', async () => {
    const file = path.join(dir, 'not-a-directory');
    await writeFile(file, 'x');
    const broken = await testApp({ env: { ATRIUM_MEDIA_DIR: file } });
    try {
      const token = await broken.token({ class: 'user' });
      const m = (await f.museum(broken.database.db)).id;
      const res = await broken.request({ method: 'POST', url: '/api/v4/media', token, ...multipart({ target_type: 'museum', target_id: m }, jpeg(photo)) });
      assert.equal(res.statusCode, 503, res.body);
      assert.match(res.json().error, /^the media directory .+ is not writable \(\w+\), so pictures cannot be stored until ATRIUM_MEDIA_DIR names a writable directory$/);
      assert.equal((await broken.request({ method: 'GET', url: `/api/v4/museums/${m}` })).json().museum.picture, null);
    } finally {
      await broken.close();
    }
  });
});
