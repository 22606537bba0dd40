// GeckoSCRIPT's global matrices (GeckoRemoteInterface: setGlobalDoubleMatrix, getGlobalDoubleMatrix,
// setGlobalFloatMatrix, getGlobalFloatMatrix). GeckoCIRCUITS keeps one double and one float
// matrix in static fields of gecko.GeckoExternal, where a script stores data for later calls; a
// get before any set returns null. Here they live as long as the script's context, and a set
// stores a copy of the rows (a script changing its array afterwards does not change the stored one).
import type { Builtin, Builtins } from './host.js';

type Matrix = number[][];

export function geckoMatrixBuiltins(): Builtins {
  let doubles: Matrix | null = null;
  let floats: Matrix | null = null;
  const copy = (m: unknown): Matrix | null => (m === null ? null : (m as Matrix).map((row) => (row === null ? row : [...row])));
  const list: Builtin[] = [
    { name: 'setGlobalDoubleMatrix', signatures: [{ params: ['double[][]'], returns: 'void' }], call: (a) => {
      doubles = copy(a[0]);
    } },
    { name: 'getGlobalDoubleMatrix', signatures: [{ params: [], returns: 'double[][]' }], call: () => copy(doubles) },
    { name: 'setGlobalFloatMatrix', signatures: [{ params: ['float[][]'], returns: 'void' }], call: (a) => {
      floats = copy(a[0]);
    } },
    { name: 'getGlobalFloatMatrix', signatures: [{ params: [], returns: 'float[][]' }], call: () => copy(floats) },
  ];
  return new Map(list.map((b) => [b.name, b]));
}
