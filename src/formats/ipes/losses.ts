// Loss data of semiconductors (D, S, THYR, IGBT, MOSFET) → netlist parameters. GeckoCIRCUITS
// (`LossProperties`, `LossCalculationDetail`) has two models, chosen by `verlustTyp` in the
// element's `<Verluste>` block:
// 1 SIMPLE: `kON`, `kOFF` [Ws/A] switching energy per ampere at the voltage `uSWnorm` [V]
//   (`LossCalculationSimple`) → params `kOn`, `kOff`, `uSWnorm`;
// 2 DETAILED: measured curves (`VerlustBerechnungDetailed`) from the loss file the element refers
//   to: the `<GeckoFile>` whose `hashValue` is `lossFileHashValue`, else the file named by
//   `datnamGemesseneVerluste` (looked up beside the .ipes file) → param `lossModel: "<key>"` and
//   the curves in the netlist's `lossModels[key]`.
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

function keyFor(sources: LossSources, path: string, identity: string): string {
  const known = sources.keys.get(identity);
  if (known) return known;
  const stem = baseName(path).replace(/\.[^.]*$/, '').replace(/[^\w.-]/g, '_') || 'lossModel';
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
 * detailed model whose file is missing falls back to the simple model GeckoCIRCUITS saves beside
 * it in `<Verluste>` (the electrical solution does not depend on losses), with a warning naming
 * the file.
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
    ctx.warnings.push(needed
      ? `${c.name}: ${text}; its losses use the simple model saved with it (kON, kOFF, uSWnorm and the on-state parameters), so losses and junction temperatures are estimates: put the loss file beside the .ipes file for the measured curves`
      : `${c.name}: ${text}; ignored because no Pv element or FLOW block uses its losses`);
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
