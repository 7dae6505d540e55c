// Where mail goes (docs/webhooks.md, "Email to visitors"): real SMTP through SMTP_URL, or, when it
// is unset, one .eml file per message under ATRIUM_DATA_DIR/mail/, so the default install shows
// exactly what would be sent. One transport per process and URL (SMTP connections are reused).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type { NotifySettings } from '../settings.ts';

export interface Sent {
  messageId: string;
  /** The .eml file written when no SMTP server is configured. */
  file?: string;
}

const transports = new Map<string, Transporter>();

function smtp(url: string): Transporter {
  let t = transports.get(url);
  if (!t) {
    // Bounded waits: a server that accepts the connection and then stalls must not hold the job.
    t = nodemailer.createTransport(url, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as never);
    transports.set(url, t);
  }
  return t;
}

export async function deliverMail(settings: NotifySettings, dataDir: string, message: Mail.Options & { messageId: string }, fileStem: string): Promise<Sent> {
  if (settings.smtpUrl) {
    await smtp(settings.smtpUrl).sendMail(message);
    return { messageId: message.messageId };
  }
  const built = await nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }).sendMail(message);
  const dir = path.join(dataDir, 'mail');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${fileStem}.eml`);
  await writeFile(file, built.message as Buffer);
  return { messageId: message.messageId, file };
}
