// What a virus scanner answers for one file. `engine` names who decided (logged and stored), so
// an operator can tell a clamd verdict from the built-in scanner's.
export type ScanVerdict = { clean: true; engine: string } | { clean: false; engine: string; signature: string };

export interface Scanner {
  readonly name: string;
  scan(content: Buffer): Promise<ScanVerdict>;
}
