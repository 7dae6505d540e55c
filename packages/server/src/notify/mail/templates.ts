// Visitor mails in German and English (docs/webhooks.md, "Email to visitors"): a plain-text and
// an HTML part of the same content. Every value that comes from data (names, titles, reasons) is
// HTML-escaped in the HTML part; subjects are single lines. Dates and money through the i18n
// helpers (src/i18n), in the museum's zone for visit times.
import { formatDate, formatMoney, formatSlot } from '../../i18n/index.ts';
import type { MailKind } from './kinds.ts';

export interface MailLine {
  title: string;
  start: Date;
  zone: string;
  quantity: number;
  priceCents: number;
  status: string;
}

type Lang = 'de' | 'en';

export interface MailContent {
  name: string;
  orderId?: number;
  lines?: MailLine[];
  totalCents?: number;
  currency?: string;
  requestId?: number;
  date?: string;
  participants?: number;
  reason?: string | null;
  /** payment_returned: the amount that went back. */
  returnedCents?: number;
  /** Kinds of the documents attached (ticket, confirmation, invoice): the text names them. */
  attached?: string[];
  /** A shop order's manage-booking address (confirmation only). */
  manageUrl?: string;
}

// What the confirmation says is attached, built from what is: tour orders carry a booking
// confirmation instead of tickets, and a document still missing is not promised.
const ATTACHED: Record<Lang, { items: Record<string, string>; and: string; sentence(list: string, many: boolean): string }> = {
  de: {
    items: { ticket: 'Ihre Tickets', confirmation: 'Ihre Buchungsbestätigung', gift_card: 'Ihre Geschenkgutscheine', voucher: 'Ihre Gutscheine', invoice: 'die Rechnung' },
    and: 'und',
    sentence: (list) => `${list} finden Sie im Anhang.`,
  },
  en: {
    items: { ticket: 'your tickets', confirmation: 'your booking confirmation', gift_card: 'your gift cards', voucher: 'your vouchers', invoice: 'the invoice' },
    and: 'and',
    sentence: (list, many) => `${list} ${many ? 'are' : 'is'} attached.`,
  },
};

function attachedSentence(lang: Lang, kinds: string[]): string | null {
  const A = ATTACHED[lang];
  const names = ['ticket', 'confirmation', 'gift_card', 'voucher', 'invoice'].filter((k) => kinds.includes(k)).map((k) => A.items[k]!);
  if (names.length === 0) return null;
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} ${A.and} ${names.at(-1)}`;
  const plural = names.length > 1 || ['ticket', 'gift_card', 'voucher'].some((k) => kinds.includes(k));
  return A.sentence(list.charAt(0).toUpperCase() + list.slice(1), plural);
}

const TEXT: Record<Lang, Record<MailKind | 'hello' | 'bye' | 'total' | 'cancelledItems' | 'manage', string>> = {
  de: {
    hello: 'Guten Tag {name},',
    bye: 'Wir freuen uns auf Ihren Besuch.',
    total: 'Gesamt',
    cancelledItems: 'Storniert',
    manage: 'Ihre Buchung ansehen, stornieren oder umbuchen:',
    order_confirmation: 'Ihre Buchung {order} ist bestätigt',
    order_cancellation: 'Stornierung zu Ihrer Buchung {order}',
    request_received: 'Wir haben Ihre Gruppenanfrage {request} erhalten',
    request_accepted: 'Ihre Gruppenanfrage {request} ist angenommen',
    request_declined: 'Ihre Gruppenanfrage {request} wurde abgelehnt',
    payment_returned: 'Ihre Zahlung zur Buchung {order} wurde erstattet',
  },
  en: {
    hello: 'Hello {name},',
    bye: 'We look forward to your visit.',
    total: 'Total',
    cancelledItems: 'Cancelled',
    manage: 'View, cancel or move your booking:',
    order_confirmation: 'Your booking {order} is confirmed',
    order_cancellation: 'Cancellation of your booking {order}',
    request_received: 'We have received your group request {request}',
    request_accepted: 'Your group request {request} has been accepted',
    request_declined: 'Your group request {request} has been declined',
    payment_returned: 'Your payment for booking {order} has been refunded',
  },
};
const BODY: Record<Lang, Record<MailKind, string>> = {
  de: {
    order_confirmation: 'vielen Dank für Ihre Buchung Nr. {order}:',
    order_cancellation: 'Ihre Buchung Nr. {order} wurde storniert. Der aktuelle Stand:',
    request_received: 'vielen Dank für Ihre Anfrage Nr. {request} für {participants} Personen am {date}. Wir melden uns in Kürze.',
    request_accepted: 'Ihre Anfrage Nr. {request} für {participants} Personen am {date} ist angenommen; Ihre Buchung folgt in einer eigenen Nachricht.',
    request_declined: 'leider können wir Ihre Anfrage Nr. {request} für den {date} nicht annehmen.',
    payment_returned:
      'Ihre Zahlung von {amount} zur Buchung Nr. {order} kam erst an, als die Reservierung abgelaufen und die Plätze anderweitig vergeben waren. Wir haben den Betrag vollständig an Ihr Zahlungsmittel erstattet; Tickets wurden nicht ausgestellt.',
  },
  en: {
    order_confirmation: 'thank you for your booking no. {order}:',
    order_cancellation: 'Your booking no. {order} has been cancelled. Where it stands now:',
    request_received: 'thank you for your request no. {request} for {participants} people on {date}. We will be in touch shortly.',
    request_accepted: 'Your request no. {request} for {participants} people on {date} has been accepted; your booking follows in a separate message.',
    request_declined: 'unfortunately we cannot accept your request no. {request} for {date}.',
    payment_returned:
      'your payment of {amount} for booking no. {order} arrived after the reservation had expired and the places had been sold. We have refunded the full amount to your means of payment; no tickets were issued.',
  },
};

const fill = (s: string, p: Record<string, string | number | undefined>) => s.replace(/\{(\w+)\}/g, (m, k: string) => (p[k] === undefined ? m : String(p[k])));
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function renderMail(kind: MailKind, locale: string, c: MailContent): { subject: string; text: string; html: string } {
  const lang: Lang = locale.startsWith('de') ? 'de' : 'en';
  const T = TEXT[lang];
  const p = {
    name: c.name,
    order: c.orderId,
    request: c.requestId,
    participants: c.participants,
    date: c.date ? formatDate(lang, c.date, 'UTC', 'long') : undefined,
    amount: c.returnedCents !== undefined ? formatMoney(lang, c.returnedCents, c.currency ?? 'EUR') : undefined,
  };
  const subject = fill(T[kind], p).replace(/[\r\n]+/g, ' ');
  const intro = fill(BODY[lang][kind], p);
  // Money sent back bought nothing: no lines and no total, only what was returned.
  const returned = kind === 'payment_returned';
  const rows = (returned ? [] : (c.lines ?? [])).map((l) => ({
    what: `${l.quantity} × ${l.title}`,
    when: formatSlot(lang, l.start, null, l.zone, 'medium'),
    price: formatMoney(lang, l.priceCents, c.currency ?? 'EUR'),
    cancelled: l.status === 'cancelled',
  }));
  const total = c.totalCents !== undefined && !returned ? `${T.total}: ${formatMoney(lang, c.totalCents, c.currency ?? 'EUR')}` : null;
  const extra = [c.reason ? `${c.reason}` : null, kind === 'order_confirmation' ? attachedSentence(lang, c.attached ?? []) : null, kind.startsWith('order') || kind === 'request_accepted' ? T.bye : null].filter(
    (x): x is string => !!x,
  );
  const text = [
    fill(T.hello, p),
    '',
    intro,
    ...(rows.length ? ['', ...rows.map((r) => `- ${r.what}, ${r.when}: ${r.price}${r.cancelled ? ` (${T.cancelledItems})` : ''}`)] : []),
    ...(total ? ['', total] : []),
    ...(c.manageUrl ? ['', T.manage, c.manageUrl] : []),
    ...(extra.length ? ['', ...extra] : []),
    '',
  ].join('\n');
  const e = escapeHtml;
  const html = [
    '<!doctype html>',
    `<html lang="${lang}"><head><meta charset="utf-8"><title>${e(subject)}</title></head><body>`,
    `<p>${e(fill(T.hello, p))}</p>`,
    `<p>${e(intro)}</p>`,
    rows.length
      ? `<table>${rows.map((r) => `<tr><td>${e(r.what)}${r.cancelled ? ` (${e(T.cancelledItems)})` : ''}</td><td>${e(r.when)}</td><td>${e(r.price)}</td></tr>`).join('')}</table>`
      : '',
    total ? `<p><strong>${e(total)}</strong></p>` : '',
    c.manageUrl ? `<p>${e(T.manage)} <a href="${e(c.manageUrl)}">${e(c.manageUrl)}</a></p>` : '',
    ...extra.map((x) => `<p>${e(x)}</p>`),
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
