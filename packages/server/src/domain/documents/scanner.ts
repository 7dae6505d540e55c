// The virus scanner as the domain uses it (scanDocument.ts); src/scan/ implements it (clamd, the
// built-in one). `engine` names who decided (logged and stored), so an operator can tell a clamd
// verdict from the built-in scanner's.
export type ScanVerdict = { clean: true; engine: string } | { clean: false; engine: string; signature: string };

export interface Scanner {
  readonly name: string;
  scan(content: Buffer): Promise<ScanVerdict>;
}
