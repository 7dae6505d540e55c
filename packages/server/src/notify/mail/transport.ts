// Where mail goes (docs/webhooks.md, "Email to visitors"): real SMTP through SMTP_URL, or, when it
// is unset, one .eml file per message under ATRIUM_DATA_DIR/mail/, so the default install shows
// exactly what would be sent (files.ts: 0600 files in a 0700 directory, deleted when the customer
// is erased). One transport per process and URL (SMTP connections are reused).
import nodemailer, { type Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type { NotifySettings } from '../settings.ts';
import { writeMailFile } from './files.ts';

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
    // They are connection options, so they go with the URL (a second argument would only set
    // defaults of every message).
    t = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
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
  // Private to the service's user (files.ts): the message carries the visitor's data.
  const file = await writeMailFile(dataDir, fileStem, built.message as Buffer);
  return { messageId: message.messageId, file };
}
