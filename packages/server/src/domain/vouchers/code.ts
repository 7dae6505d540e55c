// Gift-card codes: 18 random characters from the CSPRNG (90 bits, so guessing is hopeless even
// without the rate limit) and 2 check characters, in Crockford's base 32 (no I, L, O, U: nothing
// to confuse when read aloud or typed). The first check character is Luhn mod 32, which catches
// every single mistyped character and almost every swap of two neighbours; the second is taken from a
// SHA-256 of the rest, so any other typing error slips through one time in 32 at most. A code
// that fails the check is refused without asking the database. The database keeps only the
// code's SHA-256 (to find the card) and its last four characters.
import { createHash, randomInt } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const N = ALPHABET.length;
const BODY = 18;
export const CODE_LENGTH = BODY + 2;

function luhn(values: number[]): number {
  // Luhn mod N: from the right, every second value is doubled (folded back into base N).
  let sum = 0;
  let factor = 2;
  for (let i = values.length - 1; i >= 0; i--) {
    const p = factor * values[i]!;
    sum += Math.floor(p / N) + (p % N);
    factor = factor === 2 ? 1 : 2;
  }
  return (N - (sum % N)) % N;
}

function hashChar(body: string): string {
  const d = createHash('sha256').update(`atrium-gift-card-check:${body}`).digest();
  return ALPHABET[d[0]! % N]!;
}

function checksOf(body: string): string {
  return ALPHABET[luhn([...body].map((c) => ALPHABET.indexOf(c)))]! + hashChar(body);
}

/** A fresh code, normalized (no separators). */
export function newCode(): string {
  let body = '';
  for (let i = 0; i < BODY; i++) body += ALPHABET[randomInt(N)];
  return body + checksOf(body);
}

/**
 * The code as typed, normalized (upper case, without spaces and dashes, I/L read as 1 and O as 0),
 * or null when it cannot be a gift-card code: wrong length, a foreign character, a failed check.
 */
export function normalizeCode(typed: string): string | null {
  if (typed.length > 64) return null;
  const s = typed.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  if (s.length !== CODE_LENGTH) return null;
  for (const c of s) if (!ALPHABET.includes(c)) return null;
  const body = s.slice(0, BODY);
  return s.slice(BODY) === checksOf(body) ? s : null;
}

/** For print and for the one answer that shows it: groups of four. */
export function formatCode(code: string): string {
  return code.replace(/(.{4})(?=.)/g, '$1-');
}

/** What the database keeps to find the card. */
export function codeHash(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

export const last4 = (code: string) => code.slice(-4);
