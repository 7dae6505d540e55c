// Types of bin/bundle.js (for the tests).
/** The entry file of the bundle of `root` (default: this package), or undefined when there is none or it is stale. */
export function freshBundle(root?: string): string | undefined;
/** Builds the bundle of `root` (default: this package) into `root`/dist and returns its entry file. */
export function buildBundle(root?: string): Promise<string>;
/** Dependencies compiled into the bundle instead of loaded from node_modules (test/build.ts too). */
export const INLINE: ReadonlySet<string>;
