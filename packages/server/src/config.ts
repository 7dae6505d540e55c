// Typed, validated configuration from the environment. Every variable is listed in
// docs/operations.md; a bad value stops the process at start with a message naming it,
// instead of surfacing later as an odd runtime failure.
import { isIP } from 'node:net';
import path from 'node:path';
import { invoiceSettingsFromEnv, type InvoiceSettings } from './domain/documents/issuer.ts';
import { notifySettingsFromEnv, type NotifySettings } from './notify/settings.ts';
import { paymentSettingsFromEnv, type PaymentSettings } from './providers/payments/settings.ts';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: string;
  zone: string;
  currency: string;
  locales: string[];
  defaultPerPage: number;
  maxPerPageAuthenticated: number;
  maxPerPageAnonymous: number;
  holdMinutes: number;
  holdMaxMinutes: number;
  orderPendingMinutes: number;
  /** OCTO: a confirmed booking can be cancelled until this many hours before its start (docs/octo.md). */
  octoCancellationCutoffHours: number;
  catalogMaxAge: number;
  lockTimeoutMs: number;
  /** Longest a read (GET/HEAD) waits for the database before a 503 with Retry-After. */
  readTimeoutMs: number;
  /** statement_timeout of the web connections: the longest a write's statement runs. */
  writeTimeoutMs: number;
  /** statement_timeout of the background jobs' connections. */
  jobTimeoutMs: number;
  /** Open connections per process; more are closed at accept (0 = Node's default, no cap). */
  maxConnections: number;
  /** Open connections per client address; more are closed at accept (0 = off). */
  maxConnectionsPerAddress: number;
  /** Live reservations plus pending orders per account (0 = no count limit; ADR 0016). */
  holdLimitCount: number;
  /** Percent of a slot's or day's capacity one account may hold unsold (100 = off). */
  holdLimitShare: number;
  /** Group commit of new orders (ADR 0010): most orders per batch (1 = off; at most 64). */
  orderBatchMax: number;
  /** Batches of new orders written at the same time. */
  orderBatchLanes: number;
  bodyLimit: number;
  redisUrl: string | undefined;
  /** Prefix of every Redis key this instance writes (several instances may share one Redis). */
  redisPrefix: string;
  /** Requests per minute per reseller account unless the account has its own limit. */
  resellerRateLimit: number;
  /** Requests per minute per client IP for anonymous callers; 0 = off. */
  anonRateLimit: number;
  /** Requests per minute per user (staff) or entry account; 0 = off. */
  userRateLimit: number;
  /** Requests per minute per public-token account; 0 = off. */
  publicRateLimit: number;
  metrics: boolean;
  /** Serve the staff console under /console (ATRIUM_CONSOLE); off for API-only nodes. */
  console: boolean;
  corsOrigins: string[];
  /** Send Strict-Transport-Security (only behind TLS). */
  hsts: boolean;
  /**
   * Which hops in front may set X-Forwarded-*: false (none), a hop count, or the proxies'
   * addresses and CIDR ranges (trustProxy below; docs/operations.md, "Behind a proxy").
   */
  trustProxy: TrustProxy;
  demo: boolean;
  /** Days a document stays downloadable (then 410 and its bytes are purged). */
  documentRetentionDays: number;
  /** Largest upload after base64 decoding, in bytes. */
  uploadMaxBytes: number;
  /** Content types an upload may declare. */
  uploadTypes: string[];
  /** Bytes of uploads one account may keep stored (docs/operations.md, "Upload limits"); 0 = no quota. */
  uploadQuotaBytes: number;
  /** Free space the data directory's volume must keep: below it uploads get 507; 0 = no check. */
  uploadMinFreeBytes: number;
  /** Where pictures and their variants are kept (src/domain/media/store.ts): ATRIUM_MEDIA_DIR or <data dir>/media. */
  mediaDir: string;
  /** Largest picture upload in bytes. */
  mediaMaxBytes: number;
  /** Most pixels (width × height) a picture may decode to: larger is refused before decoding (decompression bombs). */
  mediaMaxPixels: number;
  /** Pictures one account may upload; past it 507 STORAGE_QUOTA_EXCEEDED; 0 = no quota. */
  mediaQuota: number;
  /** clamd for virus scanning; unset = the built-in signature scanner. */
  clamdHost: string | undefined;
  clamdPort: number;
  /** Run the background job worker in this process (off for extra web-only nodes). */
  worker: boolean;
  /** Invoice issuer and form (src/domain/documents/issuer.ts, ADR 0019). */
  invoice: InvoiceSettings;
  /** Webhook delivery and visitor mail (src/notify/settings.ts, docs/webhooks.md). */
  notify: NotifySettings;
  /** Payment providers and their credentials (src/providers/payments/settings.ts, docs/payments.md). */
  payments: PaymentSettings;
}

export class ConfigError extends Error {}

/** A command line that cannot work (a bad flag value): `atrium` and the cluster primary say so and exit 1. */
export class UsageError extends Error {}

export type TrustProxy = false | { hops: number } | { addresses: string[] };

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function zone(env: Env, name: string, fallback: string): string {
  const z = env[name] || fallback;
  try {
    new Intl.DateTimeFormat('en', { timeZone: z });
  } catch {
    throw new ConfigError(`${name} must be an IANA time zone such as Europe/Berlin, got "${z}"`);
  }
  return z;
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => p + '//').join(' or ')}`);
  }
  return raw;
}

function redisPrefix(env: Env): string {
  const raw = env.ATRIUM_REDIS_PREFIX ?? 'atrium:';
  if (!/^[A-Za-z0-9:._-]{0,64}$/.test(raw)) {
    throw new ConfigError('ATRIUM_REDIS_PREFIX may hold only letters, digits and : . _ - (at most 64)');
  }
  return raw;
}

/** Exact origins (`https://shop.example`, no path) or `*`; browsers send the origin verbatim. */
function corsOrigins(env: Env): string[] {
  const list = (env.ATRIUM_CORS_ORIGINS || '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const o of list) {
    let ok = o === '*';
    try {
      ok ||= /^https?:$/.test(new URL(o).protocol) && new URL(o).origin === o;
    } catch {
      // not a URL: reported below
    }
    if (!ok) throw new ConfigError(`ATRIUM_CORS_ORIGINS must list origins such as https://shop.example (no path, no trailing slash) or *, got "${o}"`);
  }
  return list;
}

function uploadTypes(env: Env): string[] {
  const list = (env.ATRIUM_UPLOAD_TYPES || 'application/pdf,image/png,image/jpeg').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  for (const t of list) {
    if (!/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(t)) {
      throw new ConfigError(`ATRIUM_UPLOAD_TYPES must be a comma list of media types such as application/pdf, got "${t}"`);
    }
  }
  return list;
}

// `true` once meant "trust every hop", which takes the client's own left-most X-Forwarded-For
// entry: it now means one hop, the same as `1`, so an old setting stays safe instead of failing.
function trustProxy(env: Env): TrustProxy {
  const raw = (env.ATRIUM_TRUST_PROXY ?? '').trim();
  const name = 'ATRIUM_TRUST_PROXY';
  if (raw === '' || ['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  if (['true', 'yes', 'on'].includes(raw.toLowerCase())) return { hops: 1 };
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > 10) throw new ConfigError(`${name} must be a hop count between 1 and 10, or proxy addresses, got "${raw}"`);
    return { hops };
  }
  const addresses = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const a of addresses) {
    const [ip, bits, extra] = a.split('/');
    const family = isIP(ip ?? '');
    const maxBits = family === 6 ? 128 : 32;
    const okBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (!family || !okBits || extra !== undefined) {
      throw new ConfigError(`${name} must be false, a hop count such as 1, or proxy addresses and CIDR ranges such as 10.0.0.1,10.0.0.0/8, got "${a}"`);
    }
  }
  return { addresses };
}

export function loadConfig(env: Env = process.env): Config {
  const locales = (env.ATRIUM_LOCALES || 'de,en').split(',').map((s) => s.trim()).filter(Boolean);
  if (locales.length === 0 || locales.some((l) => !/^[a-z]{2}(-[A-Z]{2})?$/.test(l))) {
    throw new ConfigError(`ATRIUM_LOCALES must be a comma list of locale codes such as "de,en"`);
  }
  const holdMinutes = int(env, 'ATRIUM_HOLD_MINUTES', 15, 1, 24 * 60);
  const holdMaxMinutes = int(env, 'ATRIUM_HOLD_MAX_MINUTES', 60, 1, 7 * 24 * 60);
  if (holdMaxMinutes < holdMinutes) {
    throw new ConfigError('ATRIUM_HOLD_MAX_MINUTES must not be smaller than ATRIUM_HOLD_MINUTES');
  }
  const currency = (env.ATRIUM_CURRENCY || 'EUR').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw new ConfigError('ATRIUM_CURRENCY must be a 3-letter ISO 4217 code');
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    // Relative to where the command was typed: `npm start` runs in packages/server but `npx atrium`
    // where it was typed, and npm passes that directory as INIT_CWD. Without this, `npm start` and a
    // following `npx atrium token create` used two different ./data (two databases, two instances).
    dataDir: path.resolve(env.INIT_CWD || '.', env.ATRIUM_DATA_DIR || './data'),
    logLevel: env.LOG_LEVEL || 'info',
    zone: zone(env, 'ATRIUM_ZONE', 'Europe/Berlin'),
    currency,
    locales,
    defaultPerPage: int(env, 'ATRIUM_PER_PAGE', 25, 1, 100),
    maxPerPageAuthenticated: 100,
    maxPerPageAnonymous: 25,
    holdMinutes,
    holdMaxMinutes,
    orderPendingMinutes: int(env, 'ATRIUM_ORDER_PENDING_MINUTES', 30, 1, 7 * 24 * 60),
    octoCancellationCutoffHours: int(env, 'ATRIUM_OCTO_CANCELLATION_CUTOFF_HOURS', 24, 0, 24 * 365),
    catalogMaxAge: int(env, 'ATRIUM_CATALOG_MAX_AGE', 300, 0, 86400),
    lockTimeoutMs: int(env, 'ATRIUM_LOCK_TIMEOUT_MS', 3000, 10, 60000),
    // Per request class (docs/operations.md, "Limits and their settings"; db/timeouts.ts).
    readTimeoutMs: int(env, 'ATRIUM_READ_TIMEOUT_MS', 5000, 100, 600_000),
    writeTimeoutMs: int(env, 'ATRIUM_WRITE_TIMEOUT_MS', 15_000, 100, 600_000),
    jobTimeoutMs: int(env, 'ATRIUM_JOB_TIMEOUT_MS', 300_000, 1000, 3_600_000),
    // Below the usual 20,000+ file descriptors of a service, with room for the pool and files.
    maxConnections: int(env, 'ATRIUM_MAX_CONNECTIONS', 4096, 0, 1_000_000),
    maxConnectionsPerAddress: int(env, 'ATRIUM_MAX_CONNECTIONS_PER_ADDRESS', 256, 0, 1_000_000),
    // Hoarding (domain/capacity/holdLimits.ts): no partner may park more than a quarter of a
    // slot in holds, nor keep more than 20 holds and pending orders open at once.
    holdLimitCount: int(env, 'ATRIUM_HOLD_LIMIT_COUNT', 20, 0, 100_000),
    holdLimitShare: int(env, 'ATRIUM_HOLD_LIMIT_SHARE', 25, 1, 100),
    // 64: beyond that many subtransactions PostgreSQL's per-backend cache of their ids overflows
    // and every other session's snapshots get slower.
    orderBatchMax: int(env, 'ATRIUM_ORDER_BATCH_MAX', 32, 1, 64),
    orderBatchLanes: int(env, 'ATRIUM_ORDER_BATCH_LANES', 4, 1, 16),
    bodyLimit: int(env, 'ATRIUM_BODY_LIMIT', 1024 * 1024, 1024, 64 * 1024 * 1024),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: redisPrefix(env),
    resellerRateLimit: int(env, 'ATRIUM_RESELLER_RATE_LIMIT', 600, 1, 1_000_000),
    // Every class is limited by default (docs/operations.md, "Limits and their settings"):
    // generous for staff, tighter for shops' public tokens, tightest per anonymous address.
    anonRateLimit: int(env, 'ATRIUM_ANON_RATE_LIMIT', 300, 0, 1_000_000),
    userRateLimit: int(env, 'ATRIUM_USER_RATE_LIMIT', 3000, 0, 1_000_000),
    publicRateLimit: int(env, 'ATRIUM_PUBLIC_RATE_LIMIT', 1200, 0, 1_000_000),
    metrics: bool(env, 'ATRIUM_METRICS', true),
    console: bool(env, 'ATRIUM_CONSOLE', true),
    corsOrigins: corsOrigins(env),
    hsts: bool(env, 'ATRIUM_HSTS', false),
    trustProxy: trustProxy(env),
    demo: bool(env, 'ATRIUM_DEMO', false),
    documentRetentionDays: int(env, 'ATRIUM_DOCUMENT_RETENTION_DAYS', 365, 1, 36500),
    uploadMaxBytes: int(env, 'ATRIUM_UPLOAD_MAX_BYTES', 10 * 1024 * 1024, 1, 512 * 1024 * 1024),
    uploadTypes: uploadTypes(env),
    uploadQuotaBytes: int(env, 'ATRIUM_UPLOAD_QUOTA_BYTES', 1024 ** 3, 0, 2 ** 50),
    uploadMinFreeBytes: int(env, 'ATRIUM_UPLOAD_MIN_FREE_BYTES', 1024 ** 3, 0, 2 ** 50),
    mediaDir: path.resolve(env.INIT_CWD || '.', env.ATRIUM_MEDIA_DIR || path.join(env.ATRIUM_DATA_DIR || './data', 'media')),
    mediaMaxBytes: int(env, 'ATRIUM_MEDIA_MAX_BYTES', 20 * 1024 * 1024, 1, 512 * 1024 * 1024),
    mediaMaxPixels: int(env, 'ATRIUM_MEDIA_MAX_PIXELS', 100_000_000, 1, 2 ** 31),
    mediaQuota: int(env, 'ATRIUM_MEDIA_QUOTA', 10_000, 0, 2 ** 31),
    clamdHost: env.CLAMD_HOST || undefined,
    clamdPort: int(env, 'CLAMD_PORT', 3310, 1, 65535),
    worker: bool(env, 'ATRIUM_WORKER', true),
    invoice: invoiceSettingsFromEnv(env, bool(env, 'ATRIUM_DEMO', false), (m) => {
      throw new ConfigError(m);
    }),
    notify: notifySettingsFromEnv(env, (m) => {
      throw new ConfigError(m);
    }),
    payments: paymentSettingsFromEnv(env, bool(env, 'ATRIUM_DEMO', false), (m) => {
      throw new ConfigError(m);
    }),
  };
}
