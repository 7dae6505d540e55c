// Webhook registration refuses what could not or must not be delivered (docs/webhooks.md,
// "Endpoints"), with the SSRF guard on (no ATRIUM_WEBHOOKS_ALLOW_PRIVATE): each case is a 422
// naming the problem, and nothing is written. Literal addresses only: no DNS needed.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { testApp } from '../helpers/app.ts';
import { isBlockedAddress } from '../../src/domain/webhooks/targets.ts';

const t = await testApp();
after(() => t.close());
const reseller = await t.token({ class: 'reseller' });
const post = (payload: object) => t.request({ method: 'POST', url: '/api/v4/webhooks', token: reseller, payload });

describe('webhook registration: bad input', () => {
  const cases: Array<[string, object, RegExp]> = [
    ['http, not https', { url: 'http://93.184.216.34/hook', events: ['order.created'] }, /must use https/],
    ['loopback', { url: 'https://127.0.0.1/hook', events: ['order.created'] }, /loopback, private or link-local/],
    ['private 10/8', { url: 'https://10.1.2.3/hook', events: ['order.created'] }, /loopback, private or link-local/],
    ['private 192.168/16', { url: 'https://192.168.0.10:8443/x', events: ['order.created'] }, /loopback, private or link-local/],
    ['link-local metadata', { url: 'https://169.254.169.254/latest', events: ['order.created'] }, /loopback, private or link-local/],
    ['IPv6 loopback', { url: 'https://[::1]/hook', events: ['order.created'] }, /loopback, private or link-local/],
    ['IPv4-mapped IPv6', { url: 'https://[::ffff:127.0.0.1]/hook', events: ['order.created'] }, /loopback, private or link-local/],
    ['localhost', { url: 'https://localhost/hook', events: ['order.created'] }, /loopback, private or link-local/],
    ['over-long', { url: `https://93.184.216.34/${'x'.repeat(2100)}`, events: ['order.created'] }, /too long/],
    ['not a URL', { url: 'not a url', events: ['order.created'] }, /not a valid URL/],
    ['credentials', { url: 'https://user:pw@93.184.216.34/', events: ['order.created'] }, /credentials/],
    ['unknown event', { url: 'https://93.184.216.34/hook', events: ['order.created', 'order.exploded'] }, /unknown event "order.exploded"/],
    ['no events', { url: 'https://93.184.216.34/hook', events: [] }, /Events can't be blank/],
    ['no url', { events: ['order.created'] }, /Url can't be blank/],
  ];
  for (const [name, body, message] of cases) {
    test(`${name} → 422`, async () => {
      const res = await post({ webhook: body });
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
      assert.match(res.json().errors.join('\n'), message);
    });
  }

  test('nothing was written', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v4/webhooks', token: reseller });
    assert.equal(res.json().meta.total_count, 0);
  });

  test('a public address passes the address check (control: the guard is not refusing everything)', () => {
    assert.equal(isBlockedAddress('93.184.216.34'), false);
    assert.equal(isBlockedAddress('2606:2800:220:1:248:1893:25c8:1946'), false);
    for (const a of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.1.1', '100.64.0.1', '::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', '0.0.0.0']) {
      assert.equal(isBlockedAddress(a), true, a);
    }
  });
});
