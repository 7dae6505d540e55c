// An order's visits as an iCalendar file (RFC 5545): one event per line, in UTC, text escaped
// and lines folded at 75 octets, so any calendar program takes it.
import type { OrderView } from '../../domain/orders/internal.ts';
import type { OrderLine } from './orderLines.ts';

const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
const text = (s: string) => s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

function fold(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const out: string[] = [];
  let cur = '';
  for (const ch of line) {
    if (Buffer.byteLength(cur + ch, 'utf8') > (out.length ? 74 : 75)) {
      out.push(cur);
      cur = '';
    }
    cur += ch;
  }
  out.push(cur);
  return out.join('\r\n ');
}

export function orderIcs(order: OrderView, lines: OrderLine[], host: string): string {
  const now = stamp(order.finalizedAt ?? order.createdAt);
  const rows = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Atrium//Shop//EN', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH'];
  lines.forEach((l, n) => {
    // A gift card or voucher sold books no visit.
    if (l.codes) return;
    const end = new Date(l.start.getTime() + l.minutes * 60_000);
    rows.push(
      'BEGIN:VEVENT',
      `UID:order-${order.id}-${n + 1}@${host.replace(/[^A-Za-z0-9.-]/g, '') || 'atrium'}`,
      `DTSTAMP:${now}`,
      `DTSTART:${stamp(l.start)}`,
      `DTEND:${stamp(end)}`,
      `SUMMARY:${text(`${l.title} (${l.quantity}×)`)}`,
      'END:VEVENT',
    );
  });
  rows.push('END:VCALENDAR');
  return rows.map(fold).join('\r\n') + '\r\n';
}
