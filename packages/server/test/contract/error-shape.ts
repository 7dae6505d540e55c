// The error body contract (spec 7.2 plus `code` and `request_id`), as one assertion that any test
// can use: `assertError(res, 422, 'SLOT_SOLD_OUT')` returns the parsed body for further checks.
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';

/** Asserts the status and exactly the spec's error shape, with the request id of the header. */
export function assertError(res: LightMyRequestResponse, status: number, code: string): Record<string, unknown> {
  assert.equal(res.statusCode, status, `status of ${res.body}`);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json() as Record<string, unknown>;
  const keys = Object.keys(body).filter((k) => k !== 'errors');
  assert.deepEqual(keys, ['error', 'code', 'request_id'], `keys of ${res.body}`);
  assert.equal(typeof body.error, 'string');
  if ('errors' in body) assert.ok(Array.isArray(body.errors) && body.errors.every((e) => typeof e === 'string'));
  assert.equal(body.code, code);
  assert.ok(res.headers['x-request-id'], 'X-Request-Id header');
  assert.equal(body.request_id, res.headers['x-request-id']);
  assert.doesNotMatch(res.body, /\bat .+:\d+:\d+|node_modules|\.ts:\d+|stack/i, 'no stack trace');
  return body;
}
