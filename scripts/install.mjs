#!/usr/bin/env node
// The package's install step (`npm install`): uses the prebuilt binary (prebuilds/) when one fits
// this machine, so that no compiler is needed; otherwise, or when asked (`npm install
// --build-from-source`, or PESIM_BUILD_FROM_SOURCE=1), builds the addon from source with cmake-js
// into build/Release (needs cmake, a C++17 compiler, Eigen, snappy, lz4, zlib: see check-system.mjs).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { buildFromSourceAsked, fittingPrebuild, packageDir } from './prebuild-fit.mjs';

if (buildFromSourceAsked()) {
  console.log('pesim: building the native engine from source (asked with --build-from-source)');
} else {
  const prebuild = fittingPrebuild();
  if (prebuild) {
    console.log(`pesim: using the prebuilt native engine ${relative(packageDir, prebuild)}`);
    process.exit(0);
  }
  console.log(`pesim: no prebuilt native engine fits ${process.platform}-${process.arch}: building it from source`);
}
const cmakeJs = createRequire(import.meta.url).resolve('cmake-js/bin/cmake-js');
execFileSync(process.execPath, [cmakeJs, 'compile', '--CDCMAKE_BUILD_TYPE=Release'], { cwd: packageDir, stdio: 'inherit' });
