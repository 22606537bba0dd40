// Loss data of semiconductors (D, S, THYR, IGBT, MOSFET) → netlist parameters. GeckoCIRCUITS
// (`LossProperties`, `LossCalculationDetail`) has two models, chosen by `verlustTyp` in the
// element's `<Verluste>` block:
// 1 SIMPLE: `kON`, `kOFF` [Ws/A] switching energy per ampere at the voltage `uSWnorm` [V]
//   (`LossCalculationSimple`) → params `kOn`, `kOff`, `uSWnorm`;
// 2 DETAILED: measured curves (`VerlustBerechnungDetailed`) from the loss file the element refers
//   to: the `<GeckoFile>` whose `hashValue` is `lossFileHashValue`, else the file named by
//   `datnamGemesseneVerluste` (looked up beside the .ipes file) → param `lossModel: "<key>"` and
//   the curves in the netlist's `lossModels[key]`. Without that file GeckoCIRCUITS keeps the
//   curves every detailed model starts with (the `VerlustBerechnungDetailed` constructor; its
//   `initLossFile` reads nothing when `lossFileHashValue` is 0 and leaves them when no file is
//   found), so the reader gives those curves (`GECKO_DEFAULT_LOSS_MODEL`).
// `numberParalleled` n > 1 (`LossCalculatorParallelWrapper`: losses of n devices sharing the
// current) → param `paralleled`. Old files keep `kON`, `kOFF`, `uSWnorm` inside `<Verluste>`.
import type { ParamValue } from '../netlist.js';
import type { LossModel } from '../thermal-netlist.js';
import type { ComponentRecord } from './components.js';
import { baseName, parseLossFile, type GeckoFileEntry } from './loss-files.js';
import { issue, netParam, resolveParam, type ReadContext } from './params.js';

export const NOT_DEFINED = 'not_defined';

export interface LossSources {
  /** Embedded files by hash value. */
  files: Map<number, GeckoFileEntry>;
  /** Bytes of a file beside the .ipes file, by file name; undefined when absent. */
  readBeside?: (name: string) => Uint8Array | undefined;
  /** Models read so far, by key; the key of each file already read. */
  models: Record<string, LossModel>;
  keys: Map<string, string>;
}

/** Simple-model parameters (also written for detailed-model devices: GeckoCIRCUITS keeps both). */
export const SIMPLE_LOSS_PARAMS = [
  { key: 'kON', slot: 6, net: 'kOn', def: 0 },
  { key: 'kOFF', slot: 7, net: 'kOff', def: 0 },
  { key: 'uSWnorm', slot: -1, net: 'uSWnorm', def: 400 },
];
export const PARALLELED = { key: 'numberParalleled', slot: 12, net: 'paralleled', def: 1 };

/**
 * The measured curves a GeckoCIRCUITS detailed loss model holds until a loss file is read
 * (`VerlustBerechnungDetailed`'s constructor): switching energies at 25 °C and 110 °C for 400 V,
 * on-state voltages at 25 °C and 115 °C. GeckoCIRCUITS simulates a detailed device whose loss file
 * it cannot find with these.
 */
export const GECKO_DEFAULT_LOSS_MODEL: LossModel = {
  conduction: [
    { T: 25, u: [0, 0.7, 1.7], i: [0, 0.5, 7] },
    { T: 115, u: [0, 0.8, 2.1], i: [0, 0.6, 8] },
  ],
  turnOn: [
    { T: 25, uRef: 400, i: [0, 10, 12], E: [0, 10e-3, 12e-3] },
    { T: 110, uRef: 400, i: [0, 5, 9], E: [0, 6e-3, 12e-3] },
  ],
  turnOff: [
    { T: 25, uRef: 400, i: [0, 10, 12], E: [0, 5e-3, 7e-3] },
    { T: 110, uRef: 400, i: [0, 5, 9], E: [0, 4e-3, 7e-3] },
  ],
};
/** Netlist key of GECKO_DEFAULT_LOSS_MODEL (another if a loss file already has that name). */
const DEFAULT_MODEL_STEM = 'geckoDefaultCurves';
const DEFAULT_MODEL_IDENTITY = 'gecko:default';

function keyFor(sources: LossSources, path: string, identity: string): string {
  const known = sources.keys.get(identity);
  if (known) return known;
  const stem = identity === DEFAULT_MODEL_IDENTITY ? DEFAULT_MODEL_STEM : baseName(path).replace(/\.[^.]*$/, '').replace(/[^\w.-]/g, '_') || 'lossModel';
  let key = stem;
  for (let n = 2; key in sources.models; n++) key = `${stem}_${n}`;
  sources.keys.set(identity, key);
  return key;
}

interface Located {
  bytes?: Uint8Array;
  path: string;
  identity: string;
  tried: string;
}

function locate(c: ComponentRecord, sources: LossSources): Located {
  const hash = c.tokens.integer('lossFileHashValue') ?? 0;
  const datnam = c.tokens.text('datnamGemesseneVerluste') ?? NOT_DEFINED;
  const entry = hash !== 0 ? sources.files.get(hash) : undefined;
  if (entry && !entry.external && entry.contents) return { bytes: entry.contents, path: entry.absPath || entry.relPath, identity: `#${hash}`, tried: '' };
  const path = entry ? entry.relPath || entry.absPath : datnam;
  if (path && path !== NOT_DEFINED) {
    const name = baseName(path);
    const beside = sources.readBeside?.(name);
    if (beside) return { bytes: beside, path, identity: `file:${name}`, tried: '' };
    // An embedded copy of a file of that name (files saved with an external link keep one).
    const copy = [...sources.files.values()].find((f) => !f.external && f.contents && baseName(f.absPath || f.relPath) === name);
    if (copy) return { bytes: copy.contents, path, identity: `#${copy.hash}`, tried: '' };
    return { path, identity: '', tried: `'${name}' (saved path ${path}): it is not embedded in <GeckoFileManager> and not beside the .ipes file` };
  }
  return { path: '', identity: '', tried: hash !== 0 ? `<GeckoFile> ${hash} is not in <GeckoFileManager> and no file name is saved` : 'not given (lossFileHashValue 0, datnamGemesseneVerluste not_defined)' };
}

/**
 * Loss parameters of a semiconductor. `needed`: a Pv element or LOSS block uses its losses. A
 * detailed model whose file is missing uses GeckoCIRCUITS' default curves
 * (GECKO_DEFAULT_LOSS_MODEL), as GeckoCIRCUITS does, with a warning naming the file.
 */
export function lossParams(ctx: ReadContext, c: ComponentRecord, sources: LossSources, needed: boolean): Record<string, ParamValue> {
  const params: Record<string, ParamValue> = {};
  const detailed = c.tokens.integer('verlustTyp') === 2;
  if (needed) for (const spec of SIMPLE_LOSS_PARAMS) params[spec.net] = netParam(ctx, c, spec);
  const n = resolveParam(ctx, c, PARALLELED);
  if (needed && (n.binding || n.value !== 1)) params.paralleled = netParam(ctx, c, PARALLELED);
  if (!detailed) return params;
  const found = locate(c, sources);
  if (!found.bytes) {
    const text = `detailed loss model (verlustTyp 2): loss file ${found.tried}`;
    if (!needed) {
      ctx.warnings.push(`${c.name}: ${text}; ignored because no Pv element or FLOW block uses its losses`);
      return params;
    }
    ctx.warnings.push(`${c.name}: ${text}; its losses use the default curves GeckoCIRCUITS keeps for a detailed model without its file (switching energies 10 mWs/5 mWs at 10 A, 400 V, 25 °C; VerlustBerechnungDetailed), as GeckoCIRCUITS does, so losses and junction temperatures are not the device's: put the loss file beside the .ipes file for its measured curves`);
    const key = keyFor(sources, '', DEFAULT_MODEL_IDENTITY);
    if (!(key in sources.models)) sources.models[key] = structuredClone(GECKO_DEFAULT_LOSS_MODEL);
    params.lossModel = key;
    return params;
  }
  const key = keyFor(sources, found.path, found.identity);
  if (!(key in sources.models)) {
    try {
      sources.models[key] = parseLossFile(found.bytes);
    } catch (error) {
      issue(ctx, c, `loss file '${baseName(found.path)}': ${(error as Error).message}`);
      return params;
    }
  }
  params.lossModel = key;
  return params;
}
