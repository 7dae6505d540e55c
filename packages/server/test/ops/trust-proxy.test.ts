// ATRIUM_TRUST_PROXY: the client's address is the right-most X-Forwarded-For entry a trusted hop
// did not add. A client that writes its own X-Forwarded-For (the left-most entries) changes
// neither req.ip nor its anonymous rate-limit budget.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import Fastify from 'fastify';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { fastifyTrustProxy } from '../../src/http/api/plugins/trust-proxy.ts';
import { testApp } from '../helpers/app.ts';

/** req.ip and req.protocol as a server configured with this ATRIUM_TRUST_PROXY sees them. */
async function seen(setting: string, remoteAddress: string, xff?: string) {
  const app = Fastify({ trustProxy: fastifyTrustProxy(loadConfig({ ATRIUM_TRUST_PROXY: setting }).trustProxy) });
  app.get('/', async (req) => ({ ip: req.ip, protocol: req.protocol }));
  try {
    const res = await app.inject({ method: 'GET', url: '/', remoteAddress, headers: { ...(xff ? { 'x-forwarded-for': xff } : {}), 'x-forwarded-proto': 'https' } });
    return res.json() as { ip: string; protocol: string };
  } finally {
    await app.close();
  }
}

describe('which address is the client', () => {
  test('one hop (1, and true): the right-most entry, whatever the client put before it', async () => {
    for (const setting of ['1', 'true']) {
      assert.deepEqual(await seen(setting, '10.0.0.5', '203.0.113.7'), { ip: '203.0.113.7', protocol: 'https' });
      assert.equal((await seen(setting, '10.0.0.5', '1.2.3.4, 203.0.113.7')).ip, '203.0.113.7', setting);
      assert.equal((await seen(setting, '10.0.0.5', '9.9.9.9,1.2.3.4, 203.0.113.7')).ip, '203.0.113.7', setting);
    }
  });

  test('two hops: the second entry from the right', async () => {
    assert.equal((await seen('2', '10.0.0.5', '1.2.3.4, 203.0.113.7, 10.0.0.9')).ip, '203.0.113.7');
  });

  test('proxy addresses: entries from listed proxies are skipped, the first other one is the client', async () => {
    assert.equal((await seen('10.0.0.5,10.1.0.0/16', '10.0.0.5', '1.2.3.4, 203.0.113.7, 10.1.2.3')).ip, '203.0.113.7');
    // A peer that is not a listed proxy is the client itself; its headers count for nothing.
    assert.deepEqual(await seen('10.0.0.5', '198.51.100.1', '1.2.3.4'), { ip: '198.51.100.1', protocol: 'http' });
  });

  test('off: the peer, headers ignored', async () => {
    assert.deepEqual(await seen('false', '198.51.100.1', '1.2.3.4'), { ip: '198.51.100.1', protocol: 'http' });
  });

  test('bad values stop the start with a message naming the variable', () => {
    for (const bad of ['0.5', '11', '10.0.0.0/33', 'proxy.example', '10.0.0.1/8/1']) {
      assert.throws(() => loadConfig({ ATRIUM_TRUST_PROXY: bad }), (e: unknown) => e instanceof ConfigError && /ATRIUM_TRUST_PROXY/.test(e.message), bad);
    }
  });
});

const t = await testApp({ env: { ATRIUM_TRUST_PROXY: '1', ATRIUM_ANON_RATE_LIMIT: '2' } });
after(() => t.close());

describe('the anonymous rate limit behind one proxy', () => {
  const via = (xff: string) => t.app.inject({ method: 'GET', url: '/api/v4/whoami', remoteAddress: '10.0.0.5', headers: { 'x-forwarded-for': xff } });

  test('a spoofed left-most X-Forwarded-For does not buy a fresh budget', async () => {
    assert.equal((await via('203.0.113.7')).statusCode, 200);
    assert.equal((await via('1.1.1.1, 203.0.113.7')).statusCode, 200);
    const third = await via('2.2.2.2, 203.0.113.7');
    assert.equal(third.statusCode, 429, 'the same client behind the proxy, whatever it wrote');
    assert.equal((await via('3.3.3.3, 4.4.4.4, 203.0.113.7')).statusCode, 429);
    // Control: another client behind the same proxy has its own budget.
    assert.equal((await via('203.0.113.8')).statusCode, 200);
  });
});
