// validator.js for @tsoa/runtime without loading all of it. tsoa's request validation calls seven
// validator.js functions (isInt, isFloat, toFloat, toInt, isISO8601, matches, equals), but
// `require('validator')` loads the library's index, which requires its 113 modules: ≈ 50 ms of
// every service start, a tenth of `pesim serve`'s start-up. installLeanValidator() puts a module in
// Node's require cache, under the file `require('validator')` resolves to from @tsoa/runtime, whose
// functions each load their own file of the same library (validator/lib/<name>.js) on first use.
// Any function resolves, so code that asks for others gets the library's own. It must run before
// anything loads @tsoa/runtime, so a command calls it before it imports its service.
import { createRequire, Module } from 'node:module';

type ValidatorFunction = (...args: unknown[]) => unknown;

/**
 * Installs the lean validator.js module; returns false (and changes nothing) when validator.js
 * is loaded already, or is not where @tsoa/runtime finds it.
 */
export function installLeanValidator(): boolean {
  let tsoaRequire: NodeJS.Require;
  let file: string;
  try {
    tsoaRequire = createRequire(createRequire(import.meta.url).resolve('@tsoa/runtime'));
    file = tsoaRequire.resolve('validator');
  } catch {
    return false;
  }
  if (tsoaRequire.cache[file]) return false;
  const loaded = new Map<string, ValidatorFunction | undefined>();
  const load = (name: string): ValidatorFunction | undefined => {
    if (!loaded.has(name)) {
      let exported: ValidatorFunction | undefined;
      // Only plain names: a key is never a path into the package.
      if (/^[A-Za-z0-9]+$/.test(name)) {
        try {
          exported = (tsoaRequire(`validator/lib/${name}`) as { default?: ValidatorFunction }).default;
        } catch {
          exported = undefined; // not a function of validator.js
        }
      }
      loaded.set(name, exported);
    }
    return loaded.get(name);
  };
  const validator: object = new Proxy({}, {
    get(_target, key) {
      if (key === '__esModule') return true;
      if (key === 'default') return validator;
      return typeof key === 'string' ? load(key) : undefined;
    },
  });
  const module = new Module(file);
  module.filename = file;
  module.loaded = true;
  module.exports = validator;
  tsoaRequire.cache[file] = module;
  return true;
}
