// The message catalogues, by locale code. Adding a language = adding its file next to en.ts
// (same keys; the compiler checks) and its line here. Kept as modules, not JSON read from disk,
// because the CLI runs from an esbuild bundle (bin/bundle.js) where files beside the sources
// are not there.
import { de } from './de.ts';
import { en, type Messages } from './en.ts';

export const CATALOGUES: Readonly<Record<string, Messages>> = { en, de };
export type { MessageKey, Messages } from './en.ts';
