// The webhook address guard, table-driven: every spelling of a loopback, private, link-local or
// reserved address is refused, IPv6 forms that carry an IPv4 address included (mapped, hex,
// compatible, translated, 6to4, NAT64); public addresses pass.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkTarget, isBlockedAddress, urlProblem } from '../../src/domain/webhooks/targets.ts';

const refused: Array<[string, string]> = [
  ['127.0.0.1', 'IPv4 loopback'],
  ['10.1.2.3', 'IPv4 private'],
  ['169.254.169.254', 'IPv4 link-local (metadata)'],
  ['::1', 'IPv6 loopback'],
  ['0:0:0:0:0:0:0:1', 'IPv6 loopback, long form'],
  ['::', 'unspecified'],
  ['::ffff:127.0.0.1', 'IPv4-mapped, dotted'],
  ['::ffff:7f00:1', 'IPv4-mapped, hex'],
  ['0:0:0:0:0:ffff:7f00:0001', 'IPv4-mapped, long hex'],
  ['::FFFF:A9FE:A9FE', 'IPv4-mapped metadata address, upper case'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['::7f00:1', 'IPv4-compatible loopback, hex'],
  ['::127.0.0.1', 'IPv4-compatible loopback, dotted'],
  ['::a00:1', 'IPv4-compatible private'],
  ['::8.8.8.8', 'IPv4-compatible (deprecated form)'],
  ['::ffff:0:7f00:1', 'IPv4-translated loopback'],
  ['2002:7f00:1::1', '6to4 of loopback'],
  ['2002:c0a8:0101::', '6to4 of a private address'],
  ['64:ff9b::7f00:1', 'NAT64 of loopback'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ['fe80::1', 'IPv6 link-local'],
  ['fe80::1%eth0', 'IPv6 link-local with zone'],
  ['fd12:3456::1', 'IPv6 unique local'],
  ['fec0::1', 'IPv6 site-local'],
  ['ff02::1', 'IPv6 multicast'],
  ['2001:db8::1', 'IPv6 documentation'],
  ['not-an-address', 'not an address'],
];

const allowed: Array<[string, string]> = [
  ['93.184.216.34', 'public IPv4'],
  ['::ffff:93.184.216.34', 'IPv4-mapped public'],
  ['::ffff:5db8:d822', 'IPv4-mapped public, hex'],
  ['2606:2800:220:1:248:1893:25c8:1946', 'public IPv6'],
  ['2002:5db8:d822::1', '6to4 of a public address'],
];

for (const [address, what] of refused) {
  test(`refused: ${what} (${address})`, () => assert.equal(isBlockedAddress(address), true));
}
for (const [address, what] of allowed) {
  test(`allowed: ${what} (${address})`, () => assert.equal(isBlockedAddress(address), false));
}

const refusedUrls = ['https://[::7f00:1]/hook', 'https://[::ffff:127.0.0.1]/hook', 'https://[::ffff:7f00:1]:8443/', 'https://[::127.0.0.1]/', 'https://0x7f000001/', 'https://2130706433/', 'https://[fe80::1]/'];
for (const url of refusedUrls) {
  test(`refused URL: ${url}`, async () => {
    assert.match(urlProblem(url, false) ?? '', /loopback, private or link-local/);
    await assert.rejects(checkTarget(url, false), /loopback, private or link-local/);
  });
}

test('allowed URL with a public IPv6 literal', () => {
  assert.equal(urlProblem('https://[2606:2800:220:1:248:1893:25c8:1946]/hook', false), null);
});
