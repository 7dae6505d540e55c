// The text of a PDF as a reader sees it, per page, through poppler's pdftotext (Debian
// poppler-utils; .ci/run installs it). Null when pdftotext is missing: callers skip with a
// visible message instead of passing silently.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const PDFTOTEXT = ['/usr/bin/pdftotext', '/usr/local/bin/pdftotext'].find((p) => fs.existsSync(p)) ?? null;
export const hasPdfToText = PDFTOTEXT !== null;
export const PDFTOTEXT_MISSING = 'pdftotext (poppler-utils) is not installed: PDF text checks skipped';

/** One string per page (pdftotext -layout keeps a row's columns on one line). */
export function pdfPages(pdf: Buffer, opts: { layout?: boolean } = {}): string[] | null {
  if (!PDFTOTEXT) return null;
  const out = execFileSync(PDFTOTEXT, [...(opts.layout === false ? [] : ['-layout']), '-enc', 'UTF-8', '-', '-'], { input: pdf, maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
  const pages = out.split('\f');
  if (pages.at(-1)!.trim() === '') pages.pop();
  return pages;
}

/** Whitespace (also no-break spaces from Intl) folded to single spaces, for matching phrases. */
export const squash = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, ' ');
