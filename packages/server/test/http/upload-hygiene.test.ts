// Upload hygiene: bidi control characters never survive in a filename,
// and the bytes must be of the declared content type (magic numbers): a mismatch is a 422 and
// nothing is stored.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import { catalogue, finalizedOrder, pngBytes } from '../jobs/support.ts';
import { contentMismatch, sniffType } from '../../src/domain/documents/sniff.ts';

const t = await testApp({ env: { ATRIUM_UPLOAD_TYPES: 'application/pdf,image/png,image/jpeg,text/plain' } });
after(() => t.close());
const db = t.database.db;
let owner: string, orderId: number;

before(async () => {
  const c = await catalogue(db);
  owner = await t.token({ class: 'reseller' });
  orderId = (await finalizedOrder(t, owner, c)).id;
});

const pdf = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF');
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF body')]);
const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(60, 0x90)]);
const upload = (filename: string, contentType: string, bytes: Buffer) =>
  t.request({ method: 'POST', url: '/api/v4/documents', token: owner, payload: { order_id: orderId, filename, content_type: contentType, content_base64: bytes.toString('base64') } });
const stored = async () => (await db.execute<{ n: number }>(sql`select count(*)::int n from documents where kind = 'attachment'`)).rows[0]!.n;

describe('filenames', () => {
  test('bidi controls are stripped (the right-to-left override trick is gone)', async () => {
    const cases: Array<[string, string]> = [
      ['invoice\u202Efdp.exe', 'invoicefdp.pdf'], // and the extension follows the content (upload-names.test.ts)
      ['\u200Ereport\u200F.pdf', 'report.pdf'],
      ['a\u2066b\u2067c\u2068d\u2069.pdf', 'abcd.pdf'],
      ['x\u202Ay\u202Bz\u202C\u202D\u061C.pdf', 'xyz.pdf'],
      ['\u202E', 'upload.pdf'],
    ];
    for (const [given, expected] of cases) {
      const res = await upload(given, 'application/pdf', pdf);
      assert.equal(res.statusCode, 202, res.body);
      assert.equal(res.json().document.filename, expected, JSON.stringify(given));
    }
  });
});

describe('declared type against the bytes', () => {
  test('a mismatch is a 422 naming both types; nothing is stored', async () => {
    const before = await stored();
    const cases: Array<[string, Buffer, RegExp]> = [
      ['image/png', pdf, /content is not image\/png \(the bytes are application\/pdf\)/],
      ['application/pdf', pngBytes(), /content is not application\/pdf \(the bytes are image\/png\)/],
      ['image/jpeg', exe, /content is not image\/jpeg \(the bytes are application\/x-msdownload\)/],
      ['image/png', Buffer.from('just some text'), /content is not image\/png \(its signature is missing\)/],
      ['text/plain', exe, /content is not text\/plain/],
      ['text/plain', Buffer.from([0x41, 0x00, 0x42]), /not UTF-8 text/],
      ['text/plain', Buffer.from('<html><script>alert(1)</script>'), /the bytes are text\/html/],
    ];
    for (const [type, bytes, message] of cases) {
      const res = await upload('file', type, bytes);
      assert.equal(res.statusCode, 422, `${type}: ${res.body}`);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
      assert.match(res.json().errors.join(' '), message);
    }
    assert.equal(await stored(), before);
  });

  test('matching bytes are accepted for every allowed type', async () => {
    for (const [type, bytes] of [['application/pdf', pdf], ['image/png', pngBytes()], ['image/jpeg', jpeg], ['text/plain', Buffer.from('Grüße, plain text\n')]] as const) {
      const res = await upload('ok', type, bytes);
      assert.equal(res.statusCode, 202, `${type}: ${res.body}`);
    }
  });

  test('sniffer units: office containers and unknown types', () => {
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]);
    assert.equal(sniffType(zip), 'application/zip');
    assert.equal(contentMismatch('application/vnd.openxmlformats-officedocument.wordprocessingml.document', zip), null);
    assert.match(contentMismatch('application/vnd.oasis.opendocument.text', pdf)!, /the bytes are application\/pdf/);
    // A type without a known signature passes unless the bytes clearly are something else.
    assert.equal(contentMismatch('application/x-custom', Buffer.from('opaque')), null);
    assert.match(contentMismatch('application/x-custom', exe)!, /x-msdownload/);
  });
});
