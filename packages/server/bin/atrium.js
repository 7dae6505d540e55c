#!/usr/bin/env -S node --max-semi-space-size=64
// The `atrium` command. It runs the esbuild bundle of src/cli/index.ts (bin/bundle.js), built on
// the first run and again whenever a source file changed, so there is still no build step between
// `npm install` and `npm start`. If the bundle cannot be built or written (esbuild missing, a
// read-only checkout), or ATRIUM_TSX=1 is set, the TypeScript sources run through tsx's loader
// instead: same behaviour, a few seconds slower to start.
import { pathToFileURL } from 'node:url';
import { buildBundle, freshBundle } from './bundle.js';

async function bundleEntry() {
  if (process.env.ATRIUM_TSX === '1') return undefined;
  const fresh = freshBundle();
  if (fresh) return fresh;
  try {
    return await buildBundle();
  } catch (e) {
    process.stderr.write(`atrium: could not build dist/ (${e instanceof Error ? e.message : String(e)}); running the sources through tsx\n`);
    return undefined;
  }
}

const entry = await bundleEntry();
if (entry) {
  await import(pathToFileURL(entry).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/index.ts');
}
