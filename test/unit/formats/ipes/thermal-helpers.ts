// Shared pieces of the thermal .ipes tests: hand-written thermal blocks added to buck_simple.ipes,
// corpus files with their non-thermal unsupported blocks disabled, and lookups.
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import type { ThermalElement, ThermalNetlist } from '../../../../src/formats/thermal-netlist.js';
import { corpusFixture, fixtureText } from './helpers.js';

/** A thermal element block (`eTH`); `extra` lines go before the closing tag. */
let nextUid = 7001;

export function eTH(typ: number, name: string, x: number, y: number, ins: string, outs: string, params: string, extra: string[] = []): string {
  return ['eTH (90)', '<ElementTHERM>', `labelAnfangsKnoten[] /${ins}`, `labelEndKnoten[] /${outs}`, 'enabledShorted 1', `typ ${typ}`,
    `uniqueObjectIdentifier ${nextUid++}`,
    `x ${x}`, `y ${y}`, `parameter[] ${params}`, 'parameterString[] /NIX_NIX_NIX/NIX_NIX_NIX/0', 'orientierung 503', `idStringDialog ${name}`,
    ...extra, '<\\ElementTHERM>'].join('\n');
}

/** A TEMP (16) or FLOW (17) meter block. */
export function meter(typ: 16 | 17, name: string, y: number, out: string, strings: string, extra: string[] = []): string {
  return ['c (91)', '<ElementCONTROL>', 'labelAnfangsKnoten[] ', `labelEndKnoten[] /${out}`, 'enabledShorted 1', `typ ${typ}`,
    `uniqueObjectIdentifier ${nextUid++}`, 'x 40',
    `y ${y}`, 'parameter[] ', `parameterString[] ${strings}`, `idStringDialog ${name}`, ...extra, '<\\ElementCONTROL>'].join('\n');
}

export function thermalWire(label: string, x: number[], y: number[]): string {
  return ['verbindungTHERM (92)', '<Verbindung>', `label ${label}`, `x[] ${x.join(' ')} `, `y[] ${y.join(' ')} `, 'enabledShorted 1', 'connectorType 4', '<\\Verbindung>'].join('\n');
}

/**
 * buck_simple.ipes with a thermal network for its diode: Pv.1 (D.1's losses into Tj, YOUT at
 * (32, 30) wired to Rth.1's XIN at (34, 28)), Rth.1 Tj–Tc 0.5 K/W, Cth.1 Tj–Tc 0.02 J/K (T0 3),
 * Rth.2 Tc–Tamb 1.5 K/W, DT.1 Tamb–Tzero 40 °C, TREF.1 on Tzero, HEAT-SOURCE.1 (2 W into Tc),
 * TEMP.1 (Tj − Tzero), FLOW.1 (through Rth.2), FLOW.2 (Pv.1, conduction part).
 */
export function thermalBuckText(extra: string[] = []): string {
  const blocks = [
    eTH(41, 'Pv.1', 30, 30, 'Tzero', 'NIX_NIX_NIX', '', ['coupledReferenceID[] 0 ']).replace('/NIX_NIX_NIX/NIX_NIX_NIX/0', '/D.1/NIX_NIX_NIX/0'),
    thermalWire('NIX_NIX_NIX', [32, 33, 34, 34, 34], [30, 30, 30, 29, 28]),
    eTH(46, 'Rth.1', 34, 30, 'NIX_NIX_NIX', 'Tc', '0.5 '),
    eTH(47, 'Cth.1', 38, 30, 'Tj', 'Tc', '0.02 3.0 ', ['isNonlinear false']),
    eTH(46, 'Rth.2', 34, 36, 'Tc', 'Tamb', '1.5 '),
    eTH(45, 'DT.1', 34, 42, 'Tamb', 'Tzero', '401.0 40.0 '),
    eTH(48, 'TREF.1', 34, 48, 'Tzero', 'Tzero', '1.0E-9 '),
    eTH(44, 'HEAT-SOURCE.1', 40, 36, 'Tamb', 'Tc', '401.0 2.0 '),
    // Rth.1's XIN (34, 28) gets its label from the wire joining Pv.1's YOUT.
    thermalWire('Tj', [34, 35], [28, 28]),
    meter(16, 'TEMP.1', 30, 'tj', '/Tj/Tzero/NIX_NIX_NIX'),
    meter(17, 'FLOW.1', 32, 'pcase', '/Rth.2/NIX_NIX_NIX/0'),
    meter(17, 'FLOW.2', 34, 'pcond', '/Pv.1/NIX_NIX_NIX/0', ['losscomp conduction']),
    ...extra,
  ];
  return `${blocks.join('\n')}\n${fixtureText('buck_simple.ipes')}`;
}

/** Disables components by name (`enabledShorted 0`), e.g. blocks outside the thermal domain. */
export function disable(text: string, names: string[]): string {
  let out = text;
  for (const name of names) {
    const at = out.indexOf(`idStringDialog ${name}\n`);
    expect(at, `component ${name}`).to.be.greaterThan(0);
    const start = out.lastIndexOf('\n<Element', at);
    const flag = out.indexOf('enabledShorted 1', start);
    expect(flag > start && flag < at, `${name} has an enabledShorted line`).to.equal(true);
    out = `${out.slice(0, flag)}enabledShorted 0${out.slice(flag + 16)}`;
  }
  return out;
}

/** Corpus file text with the named components disabled. */
export function corpusText(file: string, off: string[] = []): string {
  return disable(gunzipSync(corpusFixture(file)).toString('utf-8'), off);
}

/** The non-thermal blocks the engine lacks, per corpus file with a thermal network. */
export const CORPUS_THERMAL: Record<string, string[]> = {
  '025_Swiss_Rect.ipes': ['JAVA_FUNCTION.2', 'SIGNAL.3', 'SIGNAL.4', 'SIGNAL.5'],
  '029_BuckBoost_thermal_with_java.ipes': ['MODEL_TEST1'],
  '031_ThreePhase-VSR_10kW_thermal_with_java.ipes': ['COUNTER.1', 'COUNTER.2', 'COUNTER.3', 'MODEL_TEST'],
  '035_NPCmodel.ipes': ['JAVA_FUNCTION.1', 'JAVA_FUNCTION.2', 'JAVA_FUNCTION.3'],
  '037_bridgeLessBoost.ipes': ['COUNTER.2', 'Text.1', 'Text.2', 'Text.3', 'Text.4', 'Text.5'],
  '067_three-phase_ACAC_sparsematrixConverter_junction_temperature.ipes': ['SPARSEMATRIX.2'],
  '069_three-phase_ViennaRectifier_simpleControl_250kW.ipes': ['COUNTER.1', 'COUNTER.2', 'COUNTER.3'],
};

export function thermalElement(n: ThermalNetlist, name: string): ThermalElement {
  const found = (n.thermal ?? []).find((t) => t.name === name);
  expect(found, `thermal element ${name}`).to.not.equal(undefined);
  return found!;
}
