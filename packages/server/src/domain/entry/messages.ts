// Short texts for the gate display, in the museum's language (German or English; the instance's
// first locale, ATRIUM_LOCALES, as museums carry no language of their own).
import type { Direction, ScanResult } from './rules.ts';

type Texts = Record<ScanResult, string> & { exit: string; not_inside: string };

const TEXTS: Record<'de' | 'en', Texts> = {
  de: {
    valid: 'Gültig – Eintritt',
    exit: 'Ausgang erfasst',
    already_used: 'Bereits benutzt',
    not_inside: 'Nicht eingecheckt',
    not_yet_valid: 'Noch nicht gültig',
    expired: 'Nicht mehr gültig',
    cancelled: 'Storniert',
    wrong_museum: 'Falsches Museum',
    unknown: 'Unbekannter Code',
  },
  en: {
    valid: 'Valid – admit',
    exit: 'Exit recorded',
    already_used: 'Already used',
    not_inside: 'Not checked in',
    not_yet_valid: 'Not valid yet',
    expired: 'No longer valid',
    cancelled: 'Cancelled',
    wrong_museum: 'Wrong museum',
    unknown: 'Unknown code',
  },
};

export function scanMessage(locale: string, direction: Direction, result: ScanResult): string {
  const t = TEXTS[locale.startsWith('de') ? 'de' : 'en'];
  if (direction === 'exit' && result === 'valid') return t.exit;
  if (direction === 'exit' && result === 'already_used') return t.not_inside;
  return t[result];
}
