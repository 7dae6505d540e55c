// The key that seals webhook signing secrets at rest (domain/webhooks/secrets.ts):
// ATRIUM_WEBHOOKS_SECRET_KEY, or else a key generated on first use into the data directory
// (webhooks-secret.key, 0600). Nodes sharing one database must share the key (docs/webhooks.md).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.ts';
import type { DbOrTx } from '../../db/client.ts';
import { endpointsWithClearSecrets, replaceSecretIfUnchanged } from '../../db/repositories/webhooks.ts';
import { openSecret, sealSecret } from '../../domain/webhooks/secrets.ts';

export const KEY_FILE = 'webhooks-secret.key';

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

/** Seals the secrets older versions stored in the clear; returns how many were sealed. */
export async function sealPlainSecrets(db: DbOrTx, key: Buffer): Promise<number> {
  const rows = await endpointsWithClearSecrets(db);
  for (const row of rows) {
    // Only if still the same clear value: a concurrent rotation wins.
    await replaceSecretIfUnchanged(db, row.id, row.secretEnc, sealSecret(openSecret(row.secretEnc, key), key));
  }
  return rows.length;
}
