// ATRIUM_CONSOLE=0 removes the console (API-only nodes); the API answers as before.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { testApp } from '../helpers/app.ts';

const off = await testApp({ env: { ATRIUM_CONSOLE: '0' } });
const on = await testApp();
after(async () => {
  await off.close();
  await on.close();
});

test('ATRIUM_CONSOLE=0 answers 404 under /console and leaves the API alone', async () => {
  assert.equal((await off.request({ method: 'GET', url: '/console/login' })).statusCode, 404);
  assert.equal((await on.request({ method: 'GET', url: '/console/login' })).statusCode, 200);
  assert.equal((await off.request({ method: 'GET', url: '/api/v4/museums' })).statusCode, 200);
});
