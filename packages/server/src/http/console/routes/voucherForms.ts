// Small readers shared by the gift-card and promo-code forms: money typed as the cashier types it
// (1.234,50 is not accepted, 12,50 and 12.50 are), with a sign for corrections.
import { parseMoney } from '../../../domain/staff/deskBasket.ts';

/** Cents of "-12,50" / "+5" / "5.00"; null when empty or not an amount. */
export function parseSignedMoney(text: string): number | null {
  const s = text.trim().replace(/^([+\-−])\s*/, (_m, sign: string) => (sign === '+' ? '' : '-'));
  const negative = s.startsWith('-');
  const cents = parseMoney(negative ? s.slice(1) : s);
  if (cents === null || Number.isNaN(cents)) return null;
  return negative ? -cents : cents;
}

/** Cents of a non-negative amount; undefined when empty, NaN when not an amount. */
export function optionalMoney(text: string): number | undefined {
  const c = parseMoney(text);
  return c === null ? undefined : c;
}

/** A whole number typed in a form; undefined when empty, NaN when not one. */
export function optionalInt(text: string, max = 1_000_000): number | undefined {
  if (text.trim() === '') return undefined;
  return /^\d{1,7}$/.test(text.trim()) && Number(text) <= max ? Number(text) : Number.NaN;
}
