// Builds the real application on a fresh database for one test file, plus token factories.
// Usage at the top level of a test file:
//   const t = await testApp();
//   after(() => t.close());
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import type { Ctx } from '../../src/domain/context.ts';
import { createToken, type CreateTokenInput } from '../../src/domain/accounts/createToken.ts';
import { freshDatabase, type TestDatabase } from './db.ts';
import { recordTraffic } from './traffic.ts';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  /** Closes the app and drops its database: `after(() => t.close())` at the top of the file. */
  close(): Promise<void>;
  config: Config;
  clock: ManualClock;
  /** Creates an account with one token and returns the clear token. */
  token(input: Partial<CreateTokenInput> & { class: CreateTokenInput['class'] }): Promise<string>;
  request(opts: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
}

/**
 * How test apps compile their route schemas: on first use, as `atrium serve` does
 * (src/http/api/lazy-schemas.ts), since a test file uses a few routes; and without the background
 * compilation of the rest once listening, since a test that listens asks for a few pages.
 * test/http/lazy-schemas.test.ts proves the answers equal those of eager compilation, and that the
 * background compilation has no errors.
 */
export const TEST_SCHEMAS = { lazySchemas: true, warmSchemas: false } as const;

export async function testApp(
  opts: { env?: Record<string, string>; now?: string | Date; testing?: Ctx['testing'] } = {},
): Promise<TestApp> {
  const database = await freshDatabase();
  // Test files send hundreds of requests a second, over hundreds of connections, from one
  // address, and hold whole slots; these limits have their own tests (test/ops/rate-limit.test.ts,
  // test/http/limits-*.test.ts), which set them.
  const unlimited = {
    ATRIUM_USER_RATE_LIMIT: '0', ATRIUM_PUBLIC_RATE_LIMIT: '0', ATRIUM_ANON_RATE_LIMIT: '0',
    ATRIUM_HOLD_LIMIT_SHARE: '100', ATRIUM_HOLD_LIMIT_COUNT: '0', ATRIUM_MAX_CONNECTIONS_PER_ADDRESS: '0',
  };
  // An invoice issuer (src/domain/documents/issuer.ts): without one, invoices are refused; the tests of
  // that refusal override these with empty values.
  const issuer = { ATRIUM_ISSUER_NAME: 'Test Museum gGmbH', ATRIUM_ISSUER_STREET: 'Teststr. 1', ATRIUM_ISSUER_ZIP: '10115', ATRIUM_ISSUER_CITY: 'Berlin', ATRIUM_ISSUER_VAT_ID: 'DE999999999' };
  // Webhook secrets are sealed with a fixed test key, so no test app writes a key file
  // (test/notify/webhook-secrets.test.ts unsets it to test the generated one).
  const sealing = { ATRIUM_WEBHOOKS_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') };
  const config = loadConfig({ ATRIUM_DATA_DIR: '/nonexistent', ...unlimited, ...issuer, ...sealing, ...opts.env });
  const clock = new ManualClock(opts.now ?? new Date());
  const app = await buildApp({ database, config, clock, logger: false, ...TEST_SCHEMAS, ...(opts.testing ? { testing: opts.testing } : {}) });
  recordTraffic(app);
  let n = 0;
  return {
    app,
    database,
    config,
    clock,
    async close() {
      await app.close();
      await database.drop();
    },
    async token(input) {
      n += 1;
      const res = await createToken(
        { db: database.db, clock },
        { name: `test-${input.class}-${n}`, museumIds: [], rights: input.class === 'user' ? ['*'] : [], ...input },
      );
      return res.token;
    },
    request(o) {
      const { token, headers, ...rest } = o;
      return app.inject({
        ...rest,
        headers: { ...(headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
    },
  };
}
