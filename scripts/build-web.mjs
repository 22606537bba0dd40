// Build step: bundles the dashboard (web/src/main.ts with uPlot, web/style.css) with esbuild into
// dist/web: app-<hash>.js, app-<hash>.css (content-hashed names, cached for long by the service)
// and index.html (web/index.html with those names filled in). Type-checks web/ first (tsc with the
// DOM library, web/tsconfig.json). Run by `npm run build:ts`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'web');

export async function buildWeb({ typeCheck = true } = {}) {
  if (typeCheck) execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(root, 'web', 'tsconfig.json')], { stdio: 'inherit' });
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const result = await build({
    entryPoints: { app: join(root, 'web', 'src', 'main.ts') },
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022'],
    entryNames: '[name]-[hash]',
    outdir: out,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((f) => basename(f));
  const js = outputs.find((f) => f.endsWith('.js'));
  const css = outputs.find((f) => f.endsWith('.css'));
  const html = readFileSync(join(root, 'web', 'index.html'), 'utf8').replace('{{APP_JS}}', js).replace('{{APP_CSS}}', css);
  writeFileSync(join(out, 'index.html'), html);
  return { dir: out, files: [...outputs, 'index.html'] };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { files } = await buildWeb();
  console.log(`pesim: built the dashboard into dist/web (${files.join(', ')})`);
}
