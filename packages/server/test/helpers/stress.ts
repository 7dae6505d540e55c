// How often a test repeats what it proves. `npm test` proves each behaviour once (a race runs one
// round, with its control run); `npm run test:stress` sets ATRIUM_STRESS=1 and runs the files
// under test/stress/, which import those tests so that they take their repeated counts from here
// (ten rounds of each race, 10,000+ fuzzed requests). A failure seen only under stress reproduces
// with `ATRIUM_STRESS=1 npm test -- test/path/file.test.ts`.
export const STRESS = process.env.ATRIUM_STRESS === '1';

/** `once` in the default suite, `repeated` under ATRIUM_STRESS=1. */
export function repeat(once: number, repeated: number): number {
  return STRESS ? repeated : once;
}
