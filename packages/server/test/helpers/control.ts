// Control runs of races: with a guard switched off, the same requests must show the fault the
// guard prevents. The fault needs the requests to overlap, which a loaded machine does not always
// give on the first try, so a control race runs again, each time on fresh inputs (another slot,
// order or code), until it shows the fault or the inputs run out.

/** Every run's result, in order; the last one showed the fault unless all inputs were tried. */
export async function raceUntilFault<I, R>(inputs: readonly I[], race: (input: I) => Promise<R>, showsFault: (result: R) => boolean): Promise<R[]> {
  const runs: R[] = [];
  for (const input of inputs) {
    runs.push(await race(input));
    if (showsFault(runs.at(-1)!)) break;
  }
  return runs;
}
