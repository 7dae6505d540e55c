// Settings of what leaves the service by itself (docs/webhooks.md, docs/operations.md): webhook
// delivery and visitor mail. Read from the environment with the rest of the configuration
// (config.ts); a bad value stops the process at start, naming the variable.
export interface NotifySettings {
  /** ATRIUM_WEBHOOKS_ALLOW_PRIVATE=1: allow http:// and loopback/private targets (development). */
  webhooksAllowPrivate: boolean;
  /** AES-256-GCM key for signing secrets at rest (ATRIUM_WEBHOOKS_SECRET_KEY, 32 bytes base64). */
  webhooksSecretKey: Buffer | undefined;
  /** A receiver has this long to answer with a 2xx (default 10 s). */
  webhooksTimeoutMs: number;
  /**
   * Waits before the 2nd, 3rd … attempt of a delivery, in ms; after the last one fails the
   * endpoint is disabled. Default ≈ 3 days in total (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 20 h).
   */
  webhooksRetryMs: number[];
  /** smtp:// or smtps:// URL; unset = .eml files under ATRIUM_DATA_DIR/mail/. */
  smtpUrl: string | undefined;
  mailFrom: string;
  mailReplyTo: string | undefined;
}

type Env = Record<string, string | undefined>;

const DEFAULT_RETRY_S = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 72000];

export function notifySettingsFromEnv(env: Env, fail: (message: string) => never): NotifySettings {
  const allow = (env.ATRIUM_WEBHOOKS_ALLOW_PRIVATE ?? '').toLowerCase();
  if (allow && !['0', '1', 'true', 'false', 'yes', 'no', 'on', 'off'].includes(allow)) {
    fail(`ATRIUM_WEBHOOKS_ALLOW_PRIVATE must be 1 or 0, got "${allow}"`);
  }
  let key: Buffer | undefined;
  if (env.ATRIUM_WEBHOOKS_SECRET_KEY) {
    key = Buffer.from(env.ATRIUM_WEBHOOKS_SECRET_KEY, 'base64');
    if (key.length !== 32) fail('ATRIUM_WEBHOOKS_SECRET_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  }
  const timeout = Number(env.ATRIUM_WEBHOOKS_TIMEOUT_MS || 10_000);
  if (!Number.isInteger(timeout) || timeout < 100 || timeout > 60_000) fail('ATRIUM_WEBHOOKS_TIMEOUT_MS must be an integer between 100 and 60000');
  const retry = env.ATRIUM_WEBHOOKS_RETRY_SCHEDULE ? env.ATRIUM_WEBHOOKS_RETRY_SCHEDULE.split(',').map((s) => Number(s.trim())) : DEFAULT_RETRY_S;
  if (retry.length === 0 || retry.length > 30 || retry.some((s) => !Number.isFinite(s) || s < 0 || s > 7 * 86400)) {
    fail('ATRIUM_WEBHOOKS_RETRY_SCHEDULE must be a comma list of at most 30 waits in seconds (each 0 to 604800)');
  }
  const smtp = env.SMTP_URL || undefined;
  if (smtp) {
    let ok = false;
    try {
      ok = ['smtp:', 'smtps:'].includes(new URL(smtp).protocol);
    } catch {
      // reported below
    }
    if (!ok) fail('SMTP_URL must be an smtp:// or smtps:// URL');
  }
  const from = env.ATRIUM_MAIL_FROM || 'Atrium <no-reply@atrium.invalid>';
  if (/[\r\n]/.test(from) || (env.ATRIUM_MAIL_REPLY_TO ?? '').match(/[\r\n]/)) fail('ATRIUM_MAIL_FROM and ATRIUM_MAIL_REPLY_TO must be one line');
  return {
    webhooksAllowPrivate: ['1', 'true', 'yes', 'on'].includes(allow),
    webhooksSecretKey: key,
    webhooksTimeoutMs: timeout,
    webhooksRetryMs: retry.map((s) => Math.round(s * 1000)),
    smtpUrl: smtp,
    mailFrom: from,
    mailReplyTo: env.ATRIUM_MAIL_REPLY_TO || undefined,
  };
}
