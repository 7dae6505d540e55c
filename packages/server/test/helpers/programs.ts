// How a test starts one of the suite's helper programs (a script of the test tree run as a
// process of its own, such as test/entry/race-node.ts): the copy test/run.ts compiled with the
// test files when there is one, otherwise the source through tsx's loader (a stress run, or
// ATRIUM_TEST_TSX=1). Loading the sources through tsx costs each such process seconds of CPU.
/** Node arguments that run `script` (a path relative to the server package). */
export function programArgs(script: string): string[] {
  const built = (JSON.parse(process.env.ATRIUM_TEST_PROGRAMS ?? '{}') as Record<string, string>)[script];
  return built ? ['--enable-source-maps', built] : ['--import', 'tsx', script];
}
