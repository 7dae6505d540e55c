// The built-in signature scanner, used when no clamd is configured. It is no substitute for a
// real engine (configure CLAMD_HOST in production); it catches the industry test file (EICAR)
// so the whole reject path can be exercised and monitored end to end without ClamAV.
import type { ScanVerdict, Scanner } from '../domain/documents/scanner.ts';

// Kept in two halves so this source file itself is not flagged by scanners that read the repo.
const EICAR = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$' + 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*', 'latin1');

interface Signature {
  name: string;
  bytes: Buffer;
}

const SIGNATURES: Signature[] = [{ name: 'Eicar-Test-Signature', bytes: EICAR }];

export const builtinScanner: Scanner = {
  name: 'builtin',
  async scan(content: Buffer): Promise<ScanVerdict> {
    // Anywhere in the file, not only at offset 0 as the EICAR definition strictly says: a test
    // string embedded in a PDF or ZIP must be caught too (clamd behaves the same way).
    for (const s of SIGNATURES) {
      if (content.includes(s.bytes)) return { clean: false, engine: 'builtin', signature: s.name };
    }
    return { clean: true, engine: 'builtin' };
  },
};

/** The EICAR test file (68 bytes), for tests and the CI clamd signature database. */
export const EICAR_TEST_FILE = EICAR;
