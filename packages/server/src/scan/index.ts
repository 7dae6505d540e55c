// Which scanner this instance uses: clamd when CLAMD_HOST is set, else the built-in one.
import type { Config } from '../config.ts';
import { builtinScanner } from './builtin.ts';
import { clamdScanner } from './clamd.ts';
import type { Scanner } from '../domain/documents/scanner.ts';

export type { Scanner, ScanVerdict } from '../domain/documents/scanner.ts';

export function scannerFor(config: Pick<Config, 'clamdHost' | 'clamdPort'>): Scanner {
  return config.clamdHost ? clamdScanner({ host: config.clamdHost, port: config.clamdPort }) : builtinScanner;
}
