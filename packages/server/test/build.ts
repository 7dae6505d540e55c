// The test files of one `npm test` run, compiled once by esbuild before the runner starts them.
// Each test process loads the sources afresh; through tsx's loader that cost every one of them
// several seconds of CPU (its hooks resolve and transform each of the hundreds of
// modules again), most of the suite's time on a small machine. Here every test file becomes one
// entry of a single esbuild build with code splitting: the sources they share are compiled once
// into shared chunks, and each process loads a few plain JavaScript files. Small files then
// share a process, up to 64 at a time (groupFiles below).
//
// What stays as it was: dependencies load from node_modules as they are (several read files next
// to themselves), except the pure-JS ones that the `atrium` bundle inlines too (bin/bundle.js);
// '@atrium/client' is its TypeScript sources (the "atrium-source" condition); and a file that
// finds files relative to itself (import.meta.url: migrations, SQL bodies, views, fixtures) keeps
// its own location. The output lives under node_modules/.cache of this package,
// so bare imports resolve from there as from the sources; each run has its own directory and
// removes it at the end. Source maps are written next to the chunks (the runner enables them),
// so stack traces name the .ts files and lines.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { INLINE } from '../bin/bundle.js';

export interface BuiltTests {
  /** The compiled entry of each test file, in the order given. */
  files: string[];
  /** The compiled entry of each helper program (a source path → its .mjs). */
  programs: Record<string, string>;
  dir: string;
  remove(): void;
}

const CACHE = 'node_modules/.cache/atrium-test';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the directories of earlier runs whose process is gone (a run that was killed). */
function removeStale(cache: string): void {
  if (!fs.existsSync(cache)) return;
  for (const name of fs.readdirSync(cache)) {
    const pid = Number(/^run-(\d+)$/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) fs.rmSync(path.join(cache, name), { recursive: true, force: true });
  }
}

function commonDir(files: string[]): string {
  let dir = path.dirname(files[0]!);
  while (!files.every((f) => f.startsWith(dir + path.sep))) dir = path.dirname(dir);
  return dir;
}

/**
 * Compiles `files` (absolute .ts paths) for a run of the server package at `root`, and `programs`:
 * scripts the tests start as processes of their own (test/helpers/programs.ts).
 */
export async function buildTests(root: string, files: string[], programs: string[] = [], group = 1): Promise<BuiltTests> {
  const esbuild = await import('esbuild');
  const cache = path.join(root, CACHE);
  removeStale(cache);
  const dir = path.join(cache, `run-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  const outbase = commonDir([...files, ...programs]);
  const tsconfigRaw = { compilerOptions: { target: 'ES2022', verbatimModuleSyntax: true, useDefineForClassFields: true } };
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [...files, ...programs],
    outbase,
    outdir: dir,
    entryNames: '[dir]/[name]',
    chunkNames: '_chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // The client declares "sideEffects": false for its users' bundlers; here every module must
    // run as it does unbundled (its endpoint registry fills at module load).
    ignoreAnnotations: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['atrium-source'],
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'error',
    plugins: [
      {
        name: 'dependencies',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (args) => {
            const name = args.path.split('/').slice(0, args.path.startsWith('@') ? 2 : 1).join('/');
            const inline = name === '@atrium/client' || INLINE.has(name);
            return inline ? undefined : { path: args.path, external: true };
          });
        },
      },
      {
        // `define` replaces the expression only, never the same text inside a string (a test
        // writes a banner with import.meta.url for a bundle of its own).
        name: 'source-location',
        setup(build) {
          build.onLoad({ filter: /\.(ts|js|mjs)$/ }, async (args) => {
            if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
            const text = await fs.promises.readFile(args.path, 'utf8');
            if (!text.includes('import.meta.url')) return undefined;
            const url = JSON.stringify(pathToFileURL(args.path).href);
            const out = await esbuild.transform(text, {
              loader: args.path.endsWith('.ts') ? 'ts' : 'js', format: 'esm', target: 'node20', sourcefile: args.path, sourcemap: 'inline',
              define: { 'import.meta.url': url }, tsconfigRaw,
            });
            return { contents: out.code, loader: 'js' };
          });
        },
      },
    ],
  });
  const entry = (f: string) => path.join(dir, path.relative(outbase, f).replace(/\.ts$/, '.mjs'));
  return {
    files: groupFiles(dir, files, files.map(entry), group),
    programs: Object.fromEntries(programs.map((p) => [p, entry(p)])),
    dir,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Test files run up to `size` to a process: loading the sources is most of a small file's cost,
 * and files in one process share it. A group's entry gives each file a suite of its own (named
 * after the file), so a file's top-level hooks (`beforeEach`, `after`, …) apply to its own tests
 * only. The files' top-level code (their apps, databases) runs one file after the other, all of
 * it before the first test: a file's `after(() => t.close())` cannot close its app while another
 * file still sets up. The long CPU-bound files run alone (ALONE): in one process they would take
 * turns on one core, while apart they spread over all of them. The browser files are grouped:
 * their process mostly waits for Chromium, which is a process of its own either way.
 */
const ALONE = new Set(['concurrency', 'multinode', 'fuzz']);
/** Files that start PostgreSQL clusters of their own, as another user: each keeps a process. */
const ALONE_FILES = /^(embedded|backup|outage)[.-]/;
function groupFiles(dir: string, sources: string[], entries: string[], size: number): string[] {
  if (size <= 1) return entries;
  const alone = (src: string) => ALONE.has(path.basename(path.dirname(src))) || ALONE_FILES.test(path.basename(src));
  const out: string[] = [];
  let group: number[] = [];
  const flush = () => {
    if (group.length === 1) out.push(entries[group[0]!]!);
    else if (group.length > 1) {
      const file = path.join(dir, '_groups', `group-${out.length}.mjs`);
      const name = group.map((i) => path.basename(sources[i]!)).join(', ');
      // Each file's suite is created once the one before it has loaded (its top-level code done).
      const body = group.map((i) => {
        const label = JSON.stringify(path.basename(sources[i]!));
        const url = JSON.stringify(pathToFileURL(entries[i]!).href);
        return `  await new Promise((loaded) => describe(${label}, async () => {\n    try { await import(${url}); } finally { loaded(); }\n  }));\n`;
      }).join('');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `import { describe } from 'node:test';\ndescribe(${JSON.stringify(name)}, async () => {\n${body}});\n`);
      out.push(file);
    }
    group = [];
  };
  sources.forEach((src, i) => {
    if (alone(src)) { out.push(entries[i]!); return; }
    group.push(i);
    if (group.length >= size) flush();
  });
  flush();
  return out;
}
