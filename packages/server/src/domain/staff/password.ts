// Staff passwords: argon2id (OWASP's minimum parameters: 19 MiB, 2 passes), a length floor and a
// generator for the CLI. Verifying against a fixed dummy hash for unknown emails keeps the answer
// time of "no such user" close to "wrong password" (no enumeration by timing).
import { randomBytes } from 'node:crypto';
import { hash, verify, type Options } from '@node-rs/argon2';
import { invalid } from '../errors.ts';

// Algorithm.Argon2id is a const enum in the typings; its value is 2.
const OPTIONS: Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 256;

/** The messages of a refused new password (the console shows each in the user's words). */
export const PASSWORD_PROBLEMS = {
  short: `the password must have at least ${MIN_PASSWORD_LENGTH} characters`,
  long: `the password must have at most ${MAX_PASSWORD_LENGTH} characters`,
  mismatch: 'the new passwords do not match',
} as const;

export function checkPassword(pw: string): void {
  if (typeof pw !== 'string' || pw.length < MIN_PASSWORD_LENGTH) throw invalid(PASSWORD_PROBLEMS.short);
  if (pw.length > MAX_PASSWORD_LENGTH) throw invalid(PASSWORD_PROBLEMS.long);
}

export function hashPassword(pw: string): Promise<string> {
  return hash(pw, OPTIONS);
}

export async function verifyPassword(stored: string, pw: string): Promise<boolean> {
  try {
    return await verify(stored, pw);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | null = null;
/** Spends the time of one verification when there is no user to verify against. */
export async function verifyDummy(pw: string): Promise<void> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await dummy, pw);
}

/** 20 characters from an unambiguous alphabet (about 113 bits). */
export function generatePassword(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(20);
  return [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
}
