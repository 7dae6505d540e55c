// An upload's stored and served name carries an extension of its content type (which the bytes
// were checked against): "invoice.exe" sent as a PDF is served as "invoice.pdf", never under a
// name that makes a computer open it with another program.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { withTypeExtension } from '../../src/domain/documents/extension.ts';
import { testApp } from '../helpers/app.ts';
import { catalogue, finalizedOrder, pngBytes } from '../jobs/support.ts';

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
const upload = (filename: string, contentType: string, bytes: Buffer) =>
  t.request({ method: 'POST', url: '/api/v4/documents', token: owner, payload: { order_id: orderId, filename, content_type: contentType, content_base64: bytes.toString('base64') } });

test('the stored and served name ends in an extension of the checked content type', async () => {
  const cases: Array<[string, string, Buffer, string]> = [
    ['invoice.exe', 'application/pdf', pdf, 'invoice.pdf'],
    ['photo.html', 'image/png', pngBytes(), 'photo.png'],
    ['report.pdf.exe', 'application/pdf', pdf, 'report.pdf'],
    ['scan', 'image/jpeg', jpeg, 'scan.jpg'],
    ['notes.svg', 'text/plain', Buffer.from('plain words\n'), 'notes.txt'],
    // Already right: kept as given (any of the type's usual extensions, in any case).
    ['Scan.JPEG', 'image/jpeg', jpeg, 'Scan.JPEG'],
    ['plan.png', 'image/png', pngBytes(), 'plan.png'],
  ];
  for (const [given, type, bytes, expected] of cases) {
    const res = await upload(given, type, bytes);
    assert.equal(res.statusCode, 202, res.body);
    const doc = res.json().document;
    assert.equal(doc.filename, expected, given);
    // Served under that name once the scan passed it. (text/plain is an operator's choice of
    // ATRIUM_UPLOAD_TYPES; the contract's download types are the defaults', so only its stored
    // name is checked here.)
    if (type === 'text/plain') continue;
    await db.execute(sql`update documents set status = 'available' where id = ${doc.id}`);
    const dl = await t.request({ method: 'GET', url: `/api/v4/documents/${doc.id}/download`, token: owner });
    assert.equal(dl.statusCode, 200, dl.body);
    assert.match(String(dl.headers['content-disposition']), new RegExp(`filename="${expected.replace('.', '\\.')}"`), given);
  }
});

test('names: a long name keeps its length cap; a dot inside a name is not an extension; unknown types keep theirs', () => {
  assert.equal(withTypeExtension('x'.repeat(150), 'application/pdf'), 'x'.repeat(146) + '.pdf');
  assert.equal(withTypeExtension('minutes v1.2 final', 'application/pdf'), 'minutes v1.2 final.pdf');
  assert.equal(withTypeExtension('data.bin', 'application/x-custom'), 'data.bin');
});
