// Signing secrets (docs/webhooks.md): `whsec_` + base64 of 24 random bytes, the Standard Webhooks
// form, shown once at creation. The service must sign with them, so they cannot be hashed like
// tokens: with ATRIUM_WEBHOOKS_SECRET_KEY they are stored AES-256-GCM encrypted (a database dump
// alone does not reveal them), without it as they are (docs/operations.md recommends the key).
// Only the last 4 characters ever appear in answers or logs.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function last4(secret: string): string {
  return secret.slice(-4);
}

export function sealSecret(secret: string, key: Buffer | undefined): string {
  if (!key) return `plain:${secret}`;
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(secret, 'utf8'), c.final()]);
  return `gcm:${Buffer.concat([iv, c.getAuthTag(), body]).toString('base64')}`;
}

export function openSecret(stored: string, key: Buffer | undefined): string {
  if (stored.startsWith('plain:')) return stored.slice(6);
  if (!stored.startsWith('gcm:')) throw new Error('unknown secret encoding');
  if (!key) throw new Error('webhook secret is encrypted but ATRIUM_WEBHOOKS_SECRET_KEY is not set');
  const raw = Buffer.from(stored.slice(4), 'base64');
  const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  d.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
}
