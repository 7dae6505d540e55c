// verifyWebhook against signatures made by the independent `standardwebhooks` package (the one
// the server signs with): accepts the genuine message, refuses tampering, a wrong secret, a stale
// timestamp and missing headers.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from '../src/index.ts';

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const body = JSON.stringify({ id: 'evt_0123456789abcdef0123456789abcdef', type: 'order.created', created_at: '2026-11-23T23:00:00+01:00', data: { order: { id: 7 } } });
function signed(at = new Date(), s = secret) {
  return { 'webhook-id': 'evt_0123456789abcdef0123456789abcdef', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(s).sign('evt_0123456789abcdef0123456789abcdef', at, body) };
}

describe('verifyWebhook', () => {
  test('accepts a genuine message (record or Headers, string or bytes) and returns the typed event', async () => {
    const ev = await verifyWebhook(secret, signed(), body);
    assert.equal(ev.type, 'order.created');
    if (ev.type === 'order.created') assert.equal(ev.data.order.id, 7);
    const h = new Headers(signed());
    assert.equal((await verifyWebhook(secret, h, new TextEncoder().encode(body))).id, 'evt_0123456789abcdef0123456789abcdef');
    // Rotation: several signatures, one of them valid.
    const two = signed();
    two['webhook-signature'] = `v1,${Buffer.alloc(32).toString('base64')} ${two['webhook-signature']}`;
    await verifyWebhook(secret, two, body);
  });

  test('refuses a changed body, a wrong secret, a stale timestamp and missing headers', async () => {
    await assert.rejects(verifyWebhook(secret, signed(), body.replace('"id":7', '"id":8')), WebhookVerificationError);
    await assert.rejects(verifyWebhook(`whsec_${randomBytes(24).toString('base64')}`, signed(), body), /no matching signature/);
    await assert.rejects(verifyWebhook(secret, signed(new Date(Date.now() - 10 * 60_000)), body), /timestamp/);
    const { 'webhook-signature': _s, ...noSig } = signed();
    await assert.rejects(verifyWebhook(secret, noSig, body), /missing webhook-signature/);
  });
});
