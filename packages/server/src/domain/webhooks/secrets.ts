// Signing secrets (docs/webhooks.md): `whsec_` + base64 of 24 random bytes, the Standard Webhooks
// form, shown once at creation. The service must sign with them, so they cannot be hashed like
// tokens: they are stored AES-256-GCM sealed, so a database dump alone does not reveal them. The
// key is ATRIUM_WEBHOOKS_SECRET_KEY or, without it, a key generated on first use into the data
// directory (webhooks-secret.key, 0600). Secrets stored in the clear by older versions (`plain:`)
// still open, and are sealed when the worker starts (sealPlainSecrets).
// Only the last 4 characters ever appear in answers or logs.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';

export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function last4(secret: string): string {
  return secret.slice(-4);
}

/** The sealing key, loaded at start (buildApp and the worker fill it in when none is configured). */
export function sealingKey(config: Pick<Config, 'notify'>): Buffer {
  const key = config.notify.webhooksSecretKey;
  if (!key) throw new Error('the webhook sealing key is not loaded (notify/webhooks/key.ts)');
  return key;
}

export function sealSecret(secret: string, key: Buffer): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(secret, 'utf8'), c.final()]);
  return `gcm:${Buffer.concat([iv, c.getAuthTag(), body]).toString('base64')}`;
}

export function openSecret(stored: string, key: Buffer): string {
  if (stored.startsWith('plain:')) return stored.slice(6);
  if (!stored.startsWith('gcm:')) throw new Error('unknown secret encoding');
  const raw = Buffer.from(stored.slice(4), 'base64');
  const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  d.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
}
