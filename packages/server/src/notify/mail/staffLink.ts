// The set-password mail to a staff user (docs/console.md, "Staff users"): sent by the console
// when an admin creates the user or resets their password, in the user's language, through the
// same transport as visitor mails (transport.ts: SMTP, or a private .eml file without SMTP_URL).
// It is sent at once rather than through the job queue: the queue would have to store the link,
// and only the link's hash is ever stored. Plain text and HTML of the same content, every value
// escaped in the HTML part.
import { randomUUID } from 'node:crypto';
import { formatDateTime } from '../../i18n/index.ts';
import type { NotifySettings } from '../settings.ts';
import { escapeHtml } from './templates.ts';
import { deliverMail } from './transport.ts';

export type StaffLinkKind = 'welcome' | 'reset';
type Lang = 'de' | 'en';

const TEXT: Record<Lang, Record<StaffLinkKind | 'hello' | 'until' | 'ignore', string>> = {
  de: {
    hello: 'Guten Tag {name},',
    welcome: 'für Sie wurde ein Zugang zur Atrium-Konsole angelegt. Bitte legen Sie über diesen Link Ihr Passwort fest:',
    reset: 'Ihr Passwort für die Atrium-Konsole wurde zurückgesetzt. Bitte legen Sie über diesen Link ein neues fest:',
    until: 'Der Link gilt einmal, bis {until}. Danach kann Ihnen die Verwaltung einen neuen schicken.',
    ignore: 'Wenn Sie damit nicht gerechnet haben, wenden Sie sich bitte an Ihre Verwaltung.',
  },
  en: {
    hello: 'Hello {name},',
    welcome: 'a sign-in to the Atrium console has been created for you. Please set your password with this link:',
    reset: 'your password for the Atrium console has been reset. Please set a new one with this link:',
    until: 'The link works once, until {until}. After that, an administrator can send you a new one.',
    ignore: 'If you did not expect this, please contact your administrator.',
  },
};
const SUBJECT: Record<Lang, Record<StaffLinkKind, string>> = {
  de: { welcome: 'Ihr Zugang zur Atrium-Konsole', reset: 'Neues Passwort für die Atrium-Konsole' },
  en: { welcome: 'Your sign-in to the Atrium console', reset: 'New password for the Atrium console' },
};

export interface StaffLinkMail {
  kind: StaffLinkKind;
  locale: string;
  /** The user's name, or their e-mail address when they have none. */
  name: string;
  url: string;
  expiresAt: Date;
  zone: string;
}

const fill = (s: string, p: Record<string, string>) => s.replace(/\{(\w+)\}/g, (m, k: string) => p[k] ?? m);

export function renderStaffLinkMail(m: StaffLinkMail): { subject: string; text: string; html: string } {
  const lang: Lang = m.locale.startsWith('de') ? 'de' : 'en';
  const T = TEXT[lang];
  const p = { name: m.name, until: formatDateTime(lang, m.expiresAt, m.zone, 'medium') };
  const subject = SUBJECT[lang][m.kind];
  const paragraphs = [fill(T.hello, p), T[m.kind], m.url, fill(T.until, p), T.ignore];
  const text = `${paragraphs.join('\n\n')}\n`;
  const e = escapeHtml;
  const html = [
    '<!doctype html>',
    `<html lang="${lang}"><head><meta charset="utf-8"><title>${e(subject)}</title></head><body>`,
    `<p>${e(paragraphs[0]!)}</p>`,
    `<p>${e(paragraphs[1]!)}</p>`,
    `<p><a href="${e(m.url)}">${e(m.url)}</a></p>`,
    `<p>${e(paragraphs[3]!)}</p>`,
    `<p>${e(paragraphs[4]!)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

/** Sends the mail to `to`; throws what the transport throws (the caller tells the admin). */
export async function sendStaffLinkMail(settings: NotifySettings, dataDir: string, to: string, m: StaffLinkMail): Promise<void> {
  const { subject, text, html } = renderStaffLinkMail(m);
  const id = randomUUID();
  const domain = /@([^>\s]+)>?\s*$/.exec(settings.mailFrom)?.[1] ?? 'atrium.invalid';
  const lang = m.locale.startsWith('de') ? 'de' : 'en';
  await deliverMail(
    settings,
    dataDir,
    {
      from: settings.mailFrom,
      ...(settings.mailReplyTo ? { replyTo: settings.mailReplyTo } : {}),
      to,
      subject,
      text,
      html,
      messageId: `<${id}.staff-${m.kind}@${domain}>`,
      headers: { 'Auto-Submitted': 'auto-generated', 'Content-Language': lang },
    },
    `staff-${id}-${m.kind}`,
  );
}
