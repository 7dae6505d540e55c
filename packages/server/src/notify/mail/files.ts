// The .eml store (transport.ts, used without SMTP_URL): one file per visitor mail under
// ATRIUM_DATA_DIR/mail/, named `<mail id>-<kind>.eml`, so the mail_messages row finds its file.
// The files hold names, e-mail addresses, barcodes and invoices: the directory is 0700 and each
// file 0600 (an existing directory from an older version is tightened on first use), and an erased
// customer's files are deleted (deleteErasedCustomersMailFiles, run by the worker after a GDPR
// erasure: the domain records the erasure, the worker acts on it).
import { chmod, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

const secured = new Set<string>();

export const mailDir = (dataDir: string) => path.join(dataDir, 'mail');
const fileOf = (dataDir: string, stem: string) => path.join(mailDir(dataDir), `${stem}.eml`);
export const mailStem = (mailId: number, kind: string) => `${mailId}-${kind}`;

/** Creates the mail directory 0700, or tightens an existing one and its files (0600). */
export async function secureMailDir(dataDir: string): Promise<void> {
  const dir = mailDir(dataDir);
  if (secured.has(dir)) return;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  for (const f of await readdir(dir)) {
    if (f.endsWith('.eml')) await chmod(path.join(dir, f), 0o600).catch(() => undefined);
  }
  secured.add(dir);
}

/** Writes one message file, readable by the service's user only. */
export async function writeMailFile(dataDir: string, stem: string, bytes: Buffer): Promise<string> {
  await secureMailDir(dataDir);
  const file = fileOf(dataDir, stem);
  await writeFile(file, bytes, { mode: 0o600 });
  // mode applies to a new file only: a rewrite (a retried send) keeps it private too.
  await chmod(file, 0o600);
  return file;
}

/** The mails of a customer: to their (current or erased) address, or about their orders and requests. */
async function customerMails(db: Db, customerId: number, erasedEmail: string | null): Promise<Array<{ id: number; kind: string }>> {
  const r = await db.execute<{ id: number; kind: string }>(sql`
    select m.id, m.kind from mail_messages m join outbox_events e on e.id = m.event_id
     where (e.subject_type = 'order' and e.subject_id in (select id from orders where customer_id = ${customerId}))
        or (e.subject_type = 'request' and e.subject_id in (select id from requests where customer_id = ${customerId}))
        or lower(m.recipient) = lower(${erasedEmail ?? ''})
        or lower(m.recipient) = (select lower(email) from customers where id = ${customerId})`);
  return r.rows;
}

/** Deletes the .eml files of one customer's mails; returns how many files were removed. */
export async function deleteCustomerMailFiles(db: Db, dataDir: string, customerId: number, erasedEmail: string | null = null): Promise<number> {
  let n = 0;
  for (const m of await customerMails(db, customerId, erasedEmail)) {
    const file = fileOf(dataDir, mailStem(m.id, m.kind));
    try {
      await rm(file);
      n++;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return n;
}

/** For each erasure not yet handled: deletes that customer's mail files and records it. */
export async function deleteErasedCustomersMailFiles(db: Db, dataDir: string): Promise<number> {
  const r = await db.execute<{ id: number; customer_id: number; email: string | null }>(sql`
    select x.id, x.customer_id, c.email from customer_erasures x join customers c on c.id = x.customer_id
     where x.mail_files_deleted_at is null order by x.id limit 50`);
  let files = 0;
  for (const x of r.rows) {
    files += await deleteCustomerMailFiles(db, dataDir, x.customer_id, x.email);
    await db.execute(sql`update customer_erasures set mail_files_deleted_at = now() where id = ${x.id}`);
  }
  return files;
}
