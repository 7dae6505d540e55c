// The compiled form of the `atrium` command: src/cli/index.ts and every source file it reaches,
// bundled by esbuild into dist/. Loading the 230 TypeScript files through tsx's loader took 3–4 s
// of every start; the bundle loads in a fraction of that. bin/atrium.js rebuilds it on use when
// any input changed (mtime or size of a source file, of an inlined dependency's package.json, or
// of this file), so editing a source file and running `atrium` again works as before; `node
// bin/bundle.js` builds it ahead of time. If it cannot be built, bin/atrium.js runs the sources
// through tsx.
//
// Layout: dist/atrium.json names the current entry file and the inputs it was built from. Output
// files are named by content hash and written atomically (temp file + rename), so parallel starts
// (the test suite spawns many) and a start during a rebuild never read half a file, and a running
// process never has a chunk it loads later (the PDF renderers) replaced under it. Files of the
// last few builds are kept; older ones are removed by the next build.
//
// Stack traces point into dist/; `NODE_OPTIONS=--enable-source-maps` maps them to src/ (the maps
// are written next to the chunks, and not read unless asked for).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SERVER_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const THIS_FILE = fileURLToPath(import.meta.url);
const ENTRY = 'src/cli/index.ts';
// Pure-JS dependencies bundled with the sources instead of loaded from node_modules: TypeBox is
// 700 small ES modules and drizzle-orm a few hundred, which Node resolves and links one by one
// (about 0.3 s of every start). Only packages that no other dependency imports at run time (so
// there is one copy of each) and that never read files next to themselves belong here.
export const INLINE = new Set(['typebox', 'drizzle-orm']);
const KEEP_BUILDS = 4; // earlier builds whose files stay
const KEEP_YOUNG_MS = 10 * 60 * 1000; // files younger than this stay too (a parallel build's)

const paths = (root) => ({ dist: path.join(root, 'dist'), manifest: path.join(root, 'dist', 'atrium.json') });

function stamp(file) {
  const st = fs.statSync(file);
  return [st.mtimeMs, st.size];
}

function readManifest(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The entry file of the bundle of `root`, or undefined when there is none or it is stale. */
export function freshBundle(root = SERVER_ROOT) {
  const { dist, manifest } = paths(root);
  const m = readManifest(manifest);
  if (!m || m.root !== root || typeof m.entry !== 'string' || typeof m.inputs !== 'object') return undefined;
  try {
    for (const [file, [mtime, size]] of Object.entries(m.inputs)) {
      const [mt, sz] = stamp(path.resolve(root, file));
      if (mt !== mtime || sz !== size) return undefined;
    }
    const entry = path.join(dist, m.entry);
    fs.accessSync(entry);
    return entry;
  } catch {
    return undefined;
  }
}

function writeAtomic(file, contents) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, contents);
  fs.renameSync(tmp, file);
}

/** Builds the bundle of `root` into `root`/dist and returns its entry file. */
export async function buildBundle(root = SERVER_ROOT) {
  const esbuild = await import('esbuild');
  const { dist, manifest } = paths(root);
  const src = path.join(root, 'src') + path.sep;
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { atrium: ENTRY },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Chunks: what a source file loads with import() (the HTTP stack, the PDF renderers, the
    // demo catalogue) is loaded, with its dependencies, only when that import() runs.
    splitting: true,
    outdir: dist,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    outExtension: { '.js': '.mjs' },
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        // Dependencies are loaded from node_modules as they are (several read files next to
        // themselves), except the ones in INLINE.
        name: 'dependencies',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (args) => {
            const name = args.path.split('/').slice(0, args.path.startsWith('@') ? 2 : 1).join('/');
            return INLINE.has(name) ? undefined : { path: args.path, external: true };
          });
        },
      },
      {
        // A source file that finds files relative to itself (import.meta.url: the migrations
        // folder) keeps its own location in the bundle.
        name: 'source-location',
        setup(build) {
          build.onLoad({ filter: /\.ts$/ }, async (args) => {
            if (!args.path.startsWith(src)) return undefined;
            const text = await fs.promises.readFile(args.path, 'utf8');
            if (!text.includes('import.meta.url')) return undefined;
            const url = JSON.stringify(pathToFileURL(args.path).href);
            return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
          });
        },
      },
    ],
  });
  fs.mkdirSync(dist, { recursive: true });
  const files = [];
  let entry;
  for (const out of result.outputFiles) {
    const name = path.basename(out.path);
    files.push(name);
    if (name.startsWith('atrium-') && name.endsWith('.mjs')) entry = name;
    // Same name, same content: an existing file is left alone (a running process may read it).
    if (!fs.existsSync(out.path)) writeAtomic(out.path, out.contents);
  }
  if (!entry) throw new Error('esbuild produced no entry file');
  const inputs = { [path.relative(root, THIS_FILE)]: stamp(THIS_FILE) };
  for (const file of Object.keys(result.metafile.inputs)) {
    // An inlined package changes with its package.json (version), which is cheaper to check
    // than its hundreds of files.
    const pkg = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+\/)/.exec(file);
    const input = pkg ? `${pkg[1]}package.json` : file;
    inputs[input] ??= stamp(path.resolve(root, input));
  }
  const previous = readManifest(manifest);
  const history = [previous?.files ?? [], ...(previous?.history ?? [])].filter((f) => f.length).slice(0, KEEP_BUILDS);
  writeAtomic(manifest, JSON.stringify({ root, entry, esbuild: esbuild.version, files, history, inputs }));
  const keep = new Set([path.basename(manifest), ...files, ...history.flat()]);
  const now = Date.now();
  for (const name of fs.readdirSync(dist)) {
    if (keep.has(name)) continue;
    const file = path.join(dist, name);
    try {
      if (now - fs.statSync(file).mtimeMs > KEEP_YOUNG_MS) fs.rmSync(file, { force: true });
    } catch {
      // removed meanwhile by a parallel build
    }
  }
  return path.join(dist, entry);
}

if (process.argv[1] && path.resolve(process.argv[1]) === THIS_FILE) {
  const started = Date.now();
  const entry = await buildBundle();
  process.stdout.write(`atrium: built ${path.relative(process.cwd(), entry)} in ${Date.now() - started} ms\n`);
}
