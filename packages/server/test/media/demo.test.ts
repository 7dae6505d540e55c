// The demo catalogue's pictures: drawn at seed time from shapes made in code, one per record,
// attached as go~mus pictures and served like uploads.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import sharp from 'sharp';
import { systemCtx } from '../../src/domain/context.ts';
import { seedDemoPictures } from '../../src/domain/demo/demoPictures.ts';
import { seedDemo } from '../../src/domain/demo/seedDemo.ts';
import { testApp } from '../helpers/app.ts';

const dir = await mkdtemp(path.join(os.tmpdir(), 'atrium-demo-media-'));
const t = await testApp({ env: { ATRIUM_MEDIA_DIR: dir } });
after(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

test('every demo museum, exhibition, ticket, event and tour gets a drawn picture; a second run adds none', async () => {
  const ctx = systemCtx({ db: t.database.db, clock: t.clock, config: t.config });
  await seedDemo(ctx);
  const drawn = await seedDemoPictures(ctx);
  assert.ok(drawn >= 10, `drew ${drawn}`);
  for (const plural of ['museums', 'exhibitions', 'tickets', 'events', 'tours']) {
    const list = (await t.request({ method: 'GET', url: `/api/v4/${plural}?per_page=100` })).json()[plural] as Array<{ picture: { detail: string; copyright_info: string } | null }>;
    assert.ok(list.length > 0, plural);
    for (const r of list) {
      assert.ok(r.picture, `${plural}: every record has a picture`);
      assert.match(r.picture.copyright_info, /Atrium demo picture/);
    }
    const file = await t.request({ method: 'GET', url: list[0]!.picture!.detail });
    assert.equal(file.statusCode, 200);
    const meta = await sharp(file.rawPayload).metadata();
    assert.equal(meta.format, 'jpeg');
    assert.ok(meta.width! > 100);
  }
  assert.equal(await seedDemoPictures(ctx), 0);
});
