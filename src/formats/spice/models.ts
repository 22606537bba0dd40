// `.model` cards and their mapping onto pesim's two-state devices:
//   SW  (VT VH RON ROFF)  → VSW parameters vt vh ron roff, SPICE defaults VT=0 VH=0 RON=1 ROFF=1e12.
//   CSW (IT IH RON ROFF)  → CSW parameters it ih ron roff, same defaults.
//   D                     → piecewise-linear diode D {vf, ron, roff}:
//       ron  = RS/area when RS > 0, else 0.01 Ω (SPICE's RS = 0 is an ideal junction);
//       vf   = N·Vt·ln(1 + 1 A/(IS·area)), the junction voltage at 1 A (Vt = kT/q at 27 °C), when IS or
//              N is given (defaults IS = 1e-14 A, N = 1); 0.7 V when the model gives neither;
//       roff = 1e7 Ω (pesim's default; SPICE's leakage is IS and GMIN).
//     Other D parameters (CJO, TT, BV, ...) have no piecewise-linear counterpart: a warning lists them.
//     LTspice's idealised diode (a D model with RON, ROFF or VFWD) maps directly: vf = VFWD (0),
//     ron = RON (1 Ω), roff = ROFF (1e12 Ω), each divided by the area.
// Model parameters may be numbers or expressions; non-numeric vendor fields (mfg=...) are ignored.
import { type Card, type Token, lineError } from './lexer.js';
import { CardCursor, type ReadContext } from './cursor.js';

export interface SpiceModel {
  name: string;
  /** Lower-case model type: sw, csw, d, or another SPICE type (kept only to report it). */
  type: string;
  line: number;
  params: Map<string, { key: Token; value: Token }>;
}

/** Thermal voltage kT/q at 27 °C (SPICE TNOM), in volts. */
export const THERMAL_VOLTAGE = (1.380649e-23 * 300.15) / 1.602176634e-19;
/** Current at which the diode's forward voltage is taken from its exponential model, in amperes. */
export const DIODE_REFERENCE_CURRENT = 1;
export const DIODE_DEFAULT_VF = 0.7;
export const DIODE_DEFAULT_RON = 0.01;
export const DIODE_DEFAULT_ROFF = 1e7;
export const SWITCH_DEFAULTS = { ron: 1, roff: 1e12 } as const;

const SUPPORTED_TYPES = new Set(['sw', 'csw', 'd']);

/** Reads `.model name type(params)` (parentheses optional). */
export function readModelCard(card: Card, ctx: ReadContext): SpiceModel {
  const cursor = new CardCursor(card, ctx);
  cursor.next(); // .model
  const name = cursor.word('model name');
  const type = cursor.word('model type');
  const params = new Map<string, { key: Token; value: Token }>();
  let tokens: Token[];
  if (cursor.isPunct('(')) {
    tokens = cursor.argumentTokens(`.model ${name.text}`);
    cursor.end(`.model ${name.text}`);
  } else {
    tokens = [];
    while (!cursor.atEnd()) tokens.push(cursor.next()!);
  }
  for (let i = 0; i < tokens.length; i++) {
    const key = tokens[i];
    const eq = tokens[i + 1];
    const value = tokens[i + 2];
    if (key.kind !== 'word' || !eq || eq.text !== '=' || !value || value.kind === 'punct') {
      throw lineError('SPICE_SYNTAX', key.line, `expected name=value in .model ${name.text}, got '${key.text}'`, ctx.fileName);
    }
    params.set(key.lower, { key, value });
    i += 2;
  }
  if (!SUPPORTED_TYPES.has(type.lower)) {
    const line = card.line;
    ctx.warnings.push(`${ctx.fileName ? `${ctx.fileName}:` : 'line '}${line}: .model ${name.text} of type ${type.text} is not supported and was ignored`);
  }
  return { name: name.text, type: type.lower, line: card.line, params };
}

/** Numeric model parameter, or the default when absent. */
function modelNumber(model: SpiceModel, key: string, fallback: number, ctx: ReadContext): number {
  const entry = model.params.get(key);
  if (!entry) return fallback;
  const cursor = new CardCursor({ line: entry.value.line, tokens: [] }, ctx);
  return cursor.valueOf(entry.value, `.model ${model.name} ${key.toUpperCase()}`).value;
}

function warnUnused(model: SpiceModel, used: readonly string[], ctx: ReadContext, why: string): void {
  const unused = [...model.params.keys()].filter((k) => !used.includes(k));
  if (unused.length === 0) return;
  ctx.warnings.push(
    `${ctx.fileName ? `${ctx.fileName}:` : 'line '}${model.line}: .model ${model.name}: parameters ${unused.map((k) => k.toUpperCase()).join(', ')} ignored (${why})`,
  );
}

function checkResistances(model: SpiceModel, ron: number, roff: number, ctx: ReadContext): void {
  if (!(ron > 0)) throw lineError('SPICE_SYNTAX', model.line, `.model ${model.name}: RON must be greater than 0`, ctx.fileName);
  if (!(roff > ron)) throw lineError('SPICE_SYNTAX', model.line, `.model ${model.name}: ROFF must be greater than RON`, ctx.fileName);
}

/** VSW parameters from an SW model. */
export function switchParams(model: SpiceModel, ctx: ReadContext): { ron: number; roff: number; vt: number; vh: number } {
  const ron = modelNumber(model, 'ron', SWITCH_DEFAULTS.ron, ctx);
  const roff = modelNumber(model, 'roff', SWITCH_DEFAULTS.roff, ctx);
  checkResistances(model, ron, roff, ctx);
  let vh = modelNumber(model, 'vh', 0, ctx);
  if (vh < 0) {
    ctx.warnings.push(`${ctx.fileName ? `${ctx.fileName}:` : 'line '}${model.line}: .model ${model.name}: VH < 0 (LTspice's smooth transition over VT ± |VH|) is read as a sharp switch at VT`);
    vh = 0;
  }
  warnUnused(model, ['ron', 'roff', 'vt', 'vh'], ctx, 'not part of the SW model subset');
  return { ron, roff, vt: modelNumber(model, 'vt', 0, ctx), vh };
}

/** CSW parameters from a CSW model. */
export function currentSwitchParams(model: SpiceModel, ctx: ReadContext): { ron: number; roff: number; it: number; ih: number } {
  const ron = modelNumber(model, 'ron', SWITCH_DEFAULTS.ron, ctx);
  const roff = modelNumber(model, 'roff', SWITCH_DEFAULTS.roff, ctx);
  checkResistances(model, ron, roff, ctx);
  const ih = Math.abs(modelNumber(model, 'ih', 0, ctx));
  warnUnused(model, ['ron', 'roff', 'it', 'ih'], ctx, 'not part of the CSW model subset');
  return { ron, roff, it: modelNumber(model, 'it', 0, ctx), ih };
}

/** Piecewise-linear diode parameters from a D model (mapping in the header comment). */
export function diodeParams(model: SpiceModel, area: number, ctx: ReadContext): { vf: number; ron: number; roff: number } {
  if (['ron', 'roff', 'vfwd'].some((k) => model.params.has(k))) return idealDiodeParams(model, area, ctx);
  const rs = modelNumber(model, 'rs', 0, ctx);
  const ron = rs > 0 ? rs / area : DIODE_DEFAULT_RON;
  let vf = DIODE_DEFAULT_VF;
  if (model.params.has('is') || model.params.has('n')) {
    const is = modelNumber(model, 'is', 1e-14, ctx) * area;
    const n = modelNumber(model, 'n', 1, ctx);
    if (!(is > 0) || !(n > 0)) throw lineError('SPICE_SYNTAX', model.line, `.model ${model.name}: IS and N must be greater than 0`, ctx.fileName);
    vf = n * THERMAL_VOLTAGE * Math.log1p(DIODE_REFERENCE_CURRENT / is);
  }
  warnUnused(model, ['is', 'n', 'rs', 'level'], ctx, 'pesim diodes are piecewise linear');
  return { vf, ron, roff: DIODE_DEFAULT_ROFF };
}

/** LTspice's idealised diode (`Ron Roff Vfwd`, defaults 1 Ω, 1 TΩ, 0 V): already piecewise linear. */
function idealDiodeParams(model: SpiceModel, area: number, ctx: ReadContext): { vf: number; ron: number; roff: number } {
  const ron = modelNumber(model, 'ron', 1, ctx) / area;
  const roff = modelNumber(model, 'roff', 1e12, ctx) / area;
  checkResistances(model, ron, roff, ctx);
  warnUnused(model, ['ron', 'roff', 'vfwd'], ctx, 'pesim reads the LTspice ideal diode as Ron, Roff and Vfwd');
  return { vf: modelNumber(model, 'vfwd', 0, ctx), ron, roff };
}

/** Inverse of the vf rule: the IS that gives forward voltage `vf` at 1 A with N = 1. */
export function saturationCurrentFor(vf: number): number {
  return DIODE_REFERENCE_CURRENT / Math.expm1(vf / THERMAL_VOLTAGE);
}
