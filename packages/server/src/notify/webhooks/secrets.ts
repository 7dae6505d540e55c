// Signing secrets (docs/webhooks.md): `whsec_` + base64 of 24 random bytes, the Standard Webhooks
// form, shown once at creation. The service must sign with them, so they cannot be hashed like
// tokens: they are stored AES-256-GCM sealed, so a database dump alone does not reveal them. The
// key is ATRIUM_WEBHOOKS_SECRET_KEY or, without it, a key generated on first use into the data
// directory (webhooks-secret.key, 0600). Secrets stored in the clear by older versions (`plain:`)
// still open, and are sealed when the worker starts (sealPlainSecrets).
// Only the last 4 characters ever appear in answers or logs.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';

export const KEY_FILE = 'webhooks-secret.key';

export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function last4(secret: string): string {
  return secret.slice(-4);
}

const generated = new Map<string, Buffer>();

/** The sealing key: the configured one, else the data directory's (created 0600 if missing). */
export function webhookKey(config: Pick<Config, 'dataDir' | 'notify'>): Buffer {
  if (config.notify.webhooksSecretKey) return config.notify.webhooksSecretKey;
  const cached = generated.get(config.dataDir);
  if (cached) return cached;
  const file = path.join(config.dataDir, KEY_FILE);
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} must hold 32 bytes, base64-encoded`);
  generated.set(config.dataDir, key);
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

/** Seals the secrets older versions stored in the clear; returns how many were sealed. */
export async function sealPlainSecrets(db: Db, key: Buffer): Promise<number> {
  const r = await db.execute<{ id: number; secret_enc: string }>(sql`select id, secret_enc from webhook_endpoints where secret_enc like 'plain:%'`);
  for (const row of r.rows) {
    const sealed = sealSecret(openSecret(row.secret_enc, key), key);
    // Only if still the same clear value: a concurrent rotation wins.
    await db.execute(sql`update webhook_endpoints set secret_enc = ${sealed} where id = ${row.id} and secret_enc = ${row.secret_enc}`);
  }
  return r.rows.length;
}
