// Short texts for the gate display, in the museum's language (German or English; the instance's
// first locale, ATRIUM_LOCALES, as museums carry no language of their own). A refusal says what
// the staff at the gate need next: when the ticket was used, or when its entry opens, as a
// museum-local time. The /scan page writes the same texts in its own language
// (src/http/scan/messages.js) from the result code and these times.
import { localDateOf } from '../time.ts';
import type { Direction, ScanResult } from './rules.ts';

type Lang = 'de' | 'en';

const TEXTS: Record<Lang, Record<ScanResult, string> & { exit: string; exited: string; usedAt: string; opensAt: string }> = {
  de: {
    valid: 'Gültig – Eintritt',
    exit: 'Ausgang erfasst',
    already_used: 'Bereits benutzt',
    usedAt: 'Bereits benutzt um {time}',
    exited: 'Bereits ausgecheckt',
    not_entered: 'Nicht eingelassen – kein Eintritt erfasst',
    not_yet_valid: 'Noch nicht gültig',
    opensAt: 'Noch nicht gültig – Einlass ab {time}',
    expired: 'Nicht mehr gültig',
    cancelled: 'Storniert',
    wrong_museum: 'Falsches Museum',
    unknown: 'Unbekannter Code',
  },
  en: {
    valid: 'Valid – admit',
    exit: 'Exit recorded',
    already_used: 'Already used',
    usedAt: 'Already used at {time}',
    exited: 'Already checked out',
    not_entered: 'Not entered – no entry recorded',
    not_yet_valid: 'Not valid yet',
    opensAt: 'Not valid yet – entry from {time}',
    expired: 'No longer valid',
    cancelled: 'Cancelled',
    wrong_museum: 'Wrong museum',
    unknown: 'Unknown code',
  },
};

export interface MessageTimes {
  /** The barcode's last admitted entry (for `already_used`). */
  usedAt?: Date | null;
  /** When the entry window opens (for `not_yet_valid`). */
  opensAt?: Date | null;
  /** The scan's instant: a time on another day is written with its date. */
  scannedAt: Date;
  zone: string;
}

/** A museum-local time, "10:42", with the date ("28.11., 13:45" / "28 Nov, 13:45") when not on `today`. */
export function gateTime(lang: Lang, at: Date, zone: string, scannedAt: Date): string {
  const time = new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  if (localDateOf(at, zone) === localDateOf(scannedAt, zone)) return time;
  const date = new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { timeZone: zone, day: 'numeric', month: lang === 'de' ? '2-digit' : 'short' }).format(at);
  return `${date}, ${time}`;
}

export function scanMessage(locale: string, direction: Direction, result: ScanResult, times?: MessageTimes): string {
  const lang: Lang = locale.startsWith('de') ? 'de' : 'en';
  const t = TEXTS[lang];
  const at = (d: Date) => gateTime(lang, d, times!.zone, times!.scannedAt);
  if (direction === 'exit' && result === 'valid') return t.exit;
  if (direction === 'exit' && result === 'already_used') return t.exited;
  if (result === 'already_used' && times?.usedAt) return t.usedAt.replace('{time}', at(times.usedAt));
  if (result === 'not_yet_valid' && times?.opensAt) return t.opensAt.replace('{time}', at(times.opensAt));
  return t[result];
}
