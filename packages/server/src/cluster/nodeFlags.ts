// The Node flag a serving process runs with (docs/adr/0033-young-generation.md). Whenever Node's
// default young generation (16 MB per semi-space) fills under load, the rows and JSON of the
// requests in flight are still alive, so the scavenger copies them.
// At 64 MB more of them are dead by the next scavenge: GC per uncached list request was lower in
// every paired run (bench/gc.ts measures it), for a somewhat higher peak memory. `npm start`, the `atrium`
// command's shebang and the workers of `--workers N` start with it; docs/operations.md gives the
// command line for a process manager.
export const YOUNG_GENERATION_FLAG = '--max-semi-space-size=64';

/**
 * `execArgv` with the young-generation flag added, unless the operator chose a size already (on
 * the command line or in NODE_OPTIONS, spelt with dashes or, as V8 also takes it, underscores):
 * theirs is kept.
 */
export function withYoungGeneration(execArgv: readonly string[], nodeOptions = ''): string[] {
  const chosen = [...execArgv, ...nodeOptions.split(/\s+/)].some((a) => a.replaceAll('_', '-').startsWith('--max-semi-space-size'));
  return chosen ? [...execArgv] : [...execArgv, YOUNG_GENERATION_FLAG];
}
