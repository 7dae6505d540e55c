// `npm run build -w @atrium/client`: the publishable package in dist/.
//   dist/index.js    ES module        (import, browsers, edge runtimes, Node.js)
//   dist/index.cjs   CommonJS         (require on Node.js)
//   dist/*.d.ts      declarations     (one per source file, relative imports ending in .js)
// The sources stay the truth: esbuild bundles them without type checking (tsc does that in
// `npm run typecheck`), and tsc emits only the declarations. Nothing here reads node: modules at
// run time; the client uses fetch and Web Crypto, so one build serves every runtime.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };

fs.rmSync(dist, { recursive: true, force: true });
const common = {
  entryPoints: [path.join(root, 'src/index.ts')],
  bundle: true,
  platform: 'neutral' as const,
  target: 'es2022',
  sourcemap: true,
  legalComments: 'none' as const,
  logLevel: 'warning' as const,
};
await build({ ...common, format: 'esm', outfile: path.join(dist, 'index.js') });
await build({ ...common, format: 'cjs', outfile: path.join(dist, 'index.cjs') });

// Declarations: tsc with the package's build config, then `./x.ts` → `./x.js` in every import so
// that consumers resolve them under any moduleResolution.
const tsc = path.resolve(root, '../../node_modules/typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
const rewrite = (dir: string): void => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) rewrite(p);
    else if (p.endsWith('.d.ts')) {
      const text = fs.readFileSync(p, 'utf8').replace(/(from\s+['"]\.{1,2}\/[^'"]+)\.ts(['"])/g, '$1.js$2');
      fs.writeFileSync(p, text);
    }
  }
};
rewrite(dist);
console.log(`@atrium/client ${pkg.version}: dist/index.js, dist/index.cjs and declarations written`);
