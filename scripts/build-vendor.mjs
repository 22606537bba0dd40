// Build step: the parts of browser and wasm packages the service runs, copied or bundled into
// dist/vendor at build time, so that a production install (`npm install pesim`) does not pull the
// whole packages (their several builds, sources and maps) nor their build tools:
//   swagger-ui/   the files of swagger-ui-dist that /swagger-ui/ and /docs serve
//   redoc/        ReDoc's standalone bundle (/redoc of the job-queue service)
//   parquet-wasm/ the Node build of parquet-wasm (reading result files)
//   h5wasm/       the Node build of h5wasm and its declarations (HDF5 result files)
//   apache-arrow/ the part of apache-arrow that reading Parquet uses, bundled by esbuild
// The sources import them as `#vendor/...` (package.json "imports"). Run by `npm run build:ts`
// before tsc, which reads the declarations copied here.
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const modules = join(root, 'node_modules');
const out = join(root, 'dist', 'vendor');

function copy(fromDir, toDir, names) {
  mkdirSync(toDir, { recursive: true });
  for (const name of names) copyFileSync(join(fromDir, name), join(toDir, name));
}

export async function buildVendor() {
  rmSync(out, { recursive: true, force: true });

  copy(join(modules, 'swagger-ui-dist'), join(out, 'swagger-ui'), [
    'index.html', 'index.css', 'swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js',
    'oauth2-redirect.html', 'oauth2-redirect.js', 'favicon-16x16.png', 'favicon-32x32.png', 'LICENSE', 'NOTICE',
  ]);
  copy(join(modules, 'redoc', 'bundles'), join(out, 'redoc'), ['redoc.standalone.js', 'redoc.standalone.js.LICENSE.txt']);
  copyFileSync(join(modules, 'redoc', 'LICENSE'), join(out, 'redoc', 'LICENSE'));

  // parquet-wasm's Node build is CommonJS (its own package.json says so) and loads the .wasm beside it.
  const parquet = join(modules, 'parquet-wasm', 'node');
  copy(parquet, join(out, 'parquet-wasm'), readdirSync(parquet));
  copy(join(modules, 'parquet-wasm'), join(out, 'parquet-wasm'), ['LICENSE_MIT', 'LICENSE_APACHE']);

  const h5 = join(modules, 'h5wasm');
  copy(join(h5, 'dist', 'node'), join(out, 'h5wasm'), readdirSync(join(h5, 'dist', 'node')));
  copy(join(h5, 'src'), join(out, 'h5wasm'), readdirSync(join(h5, 'src')).filter((f) => f.endsWith('.d.ts')));
  copyFileSync(join(h5, 'LICENSE.txt'), join(out, 'h5wasm', 'LICENSE.txt'));
  writeFileSync(join(out, 'h5wasm', 'package.json'), '{ "type": "module" }\n');

  const arrowOut = join(out, 'apache-arrow');
  mkdirSync(arrowOut, { recursive: true });
  const arrowApi = 'export { DataType, Precision, tableFromIPC } from \'apache-arrow\';\n';
  await build({
    stdin: { contents: arrowApi, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: ['node20'],
    outfile: join(arrowOut, 'index.js'),
    legalComments: 'none',
    logLevel: 'warning',
  });
  // Declarations for the build only (apache-arrow is a development dependency).
  writeFileSync(join(arrowOut, 'index.d.ts'), arrowApi);
  copyFileSync(join(modules, 'apache-arrow', 'LICENSE.txt'), join(arrowOut, 'LICENSE.txt'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildVendor();
  console.log('pesim: copied and bundled the vendored browser and wasm packages into dist/vendor');
}
