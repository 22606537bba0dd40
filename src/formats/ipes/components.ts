// Typed records of the scanned blocks: wires (`Verbindung`) and components (`e`, `c`, `eTH`, `sp`),
// with the common keys of GeckoCIRCUITS `AbstractBlockInterface` (typ, name, position, orientation,
// terminal labels, enabled state, sheet, `parameter[]`, `parameterString[]`, `nameOpt[]`, couplings).
import { NetlistError, type ErrorDetail } from '../errors.js';
import { syntaxError, type RawBlock, type TokenMap } from './tokens.js';

export type Domain = 'LK' | 'CONTROL' | 'THERMAL' | 'RELUCTANCE';

/** 0 disabled, 1 enabled, 2 disabled and shorted (GeckoCIRCUITS `Enabled`). */
export type EnabledState = 0 | 1 | 2;

export interface WireRecord {
  domain: Domain;
  label: string;
  x: number[];
  y: number[];
  enabled: EnabledState;
  sheet: number;
  line: number;
  raw: RawBlock;
}

export interface ComponentRecord {
  block: 'e' | 'c' | 'eTH' | 'sp';
  typ: number;
  name: string;
  uid: number;
  x: number;
  y: number;
  orientation: number;
  inLabels: string[];
  outLabels: string[];
  enabled: EnabledState;
  sheet: number;
  slots: number[];
  strings: string[];
  nameOpt: string[];
  coupled: number[];
  tokens: TokenMap;
  line: number;
  raw: RawBlock;
}

const CONNECTOR_DOMAINS: Record<number, Domain> = { 0: 'LK', 1: 'CONTROL', 2: 'RELUCTANCE', 3: 'LK', 4: 'THERMAL' };
export const ORIENTATIONS = [501, 502, 503, 504];

function enabledState(tokens: TokenMap, fileName?: string): EnabledState {
  const state = tokens.integer('enabledShorted');
  if (state !== undefined) {
    if (state !== 0 && state !== 1 && state !== 2) {
      throw syntaxError(tokens.line('enabledShorted')!, `enabledShorted must be 0, 1 or 2, got ${state}`, fileName);
    }
    return state;
  }
  return tokens.boolean('enabled') === false ? 0 : 1;
}

export function readWire(raw: RawBlock, fileName?: string): WireRecord {
  const t = raw.tokens;
  const x = t.numbers('x');
  const y = t.numbers('y');
  if (!x || !y || x.length === 0 || x.length !== y.length) {
    throw syntaxError(raw.line, 'wire needs x[] and y[] lists of equal, non-zero length', fileName);
  }
  if (![...x, ...y].every(Number.isInteger)) throw syntaxError(t.line('x[]') ?? raw.line, 'wire points must be integers', fileName);
  const connector = t.integer('connectorType');
  let domain: Domain;
  if (connector !== undefined && CONNECTOR_DOMAINS[connector]) domain = CONNECTOR_DOMAINS[connector];
  else if (raw.key === 'verbindungCONTROL') domain = 'CONTROL';
  else if (raw.key === 'verbindungTHERM') domain = 'THERMAL';
  else domain = t.boolean('isReluctance') ? 'RELUCTANCE' : 'LK';
  return {
    domain,
    label: t.label('label') ?? '',
    x,
    y,
    enabled: enabledState(t, fileName),
    sheet: t.integer('parentSheetIdentifier') ?? 0,
    line: raw.line,
    raw,
  };
}

export function readComponent(raw: RawBlock, fileName?: string): ComponentRecord {
  const t = raw.tokens;
  const typ = t.integer('typ');
  if (typ === undefined) throw syntaxError(raw.line, `'${raw.lines[0].trim()}' block has no 'typ' line`, fileName);
  const name = t.text('idStringDialog')?.trim();
  if (!name) throw syntaxError(raw.line, `'${raw.lines[0].trim()}' block has no 'idStringDialog' (component name)`, fileName);
  const orientation = t.integer('orientierung') ?? 503;
  if (!ORIENTATIONS.includes(orientation)) {
    throw syntaxError(t.line('orientierung')!, `orientierung must be 501..504, got ${orientation}`, fileName);
  }
  return {
    block: raw.key as ComponentRecord['block'],
    typ,
    name,
    uid: t.integer('uniqueObjectIdentifier') ?? 0,
    x: t.integer('x') ?? 5,
    y: t.integer('y') ?? 5,
    orientation,
    inLabels: t.strings('labelAnfangsKnoten') ?? [],
    outLabels: t.strings('labelEndKnoten') ?? [],
    enabled: enabledState(t, fileName),
    sheet: t.integer('parentSheetIdentifier') ?? 0,
    slots: t.numbers('parameter') ?? [],
    strings: t.strings('parameterString') ?? ['', '', '0'],
    nameOpt: t.strings('nameOpt') ?? [],
    coupled: t.numbers('coupledReferenceID') ?? [],
    tokens: t,
    line: raw.line,
    raw,
  };
}

/**
 * Rejects component names (`idStringDialog`) used twice: parameter keys, GATE targets and scope
 * signals refer to components by name, so a renamed duplicate would silently change the circuit.
 */
export function uniqueNames(components: ComponentRecord[], fileName?: string): void {
  const first = new Map<string, ComponentRecord>();
  const details: ErrorDetail[] = [];
  for (const c of components) {
    const earlier = first.get(c.name);
    if (earlier) {
      details.push({ field: `line ${c.line}`, line: c.line, component: c.name, message: `component name ${c.name} is already used on line ${earlier.line}; expected a unique idStringDialog` });
    } else {
      first.set(c.name, c);
    }
  }
  if (details.length > 0) {
    const where = fileName ? `${fileName}: ` : '';
    throw new NetlistError('DUPLICATE_NAME', `${where}${details.map((d) => `line ${d.line}: ${d.message}`).join('; ')}`, details);
  }
}
