// Text of an .ipes file in the format GeckoCIRCUITS 2.x writes (FileVersion 202): wire blocks,
// component blocks (common keys, `parameter[]` slots, `nameOpt[]` bindings, coupling ids, named
// parameter lines), the trailer with the simulation settings and global parameters. Numbers are
// written as Java's `Double.toString` does (`1.0E-6`, `10.0`).
import { NIX } from './tokens.js';
import type { Domain } from './components.js';

/** Java `Double.toString`: plain decimals in [1e-3, 1e7), else `d.dddE±n`; always a fraction digit. */
export function javaDouble(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  if (abs >= 1e-3 && abs < 1e7) {
    const s = String(x);
    return s.includes('.') ? s : `${s}.0`;
  }
  const [mantissa, exponent] = x.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

export const stringArray = (values: readonly string[]): string => values.map((v) => `/${v === '' ? NIX : v}`).join('');
const numberArray = (values: readonly number[]): string => values.map((v) => `${javaDouble(v)} `).join('');

export interface ComponentText {
  block: 'e' | 'c' | 'eTH';
  typ: number;
  name: string;
  uid: number;
  x: number;
  y: number;
  orientation: number;
  inLabels: string[];
  outLabels: string[];
  slots: number[];
  strings: string[];
  /** Bindings per slot ('' = none), same length as `slots`. */
  nameOpt: string[];
  /** `coupledReferenceID[]` (components that couple to others), or undefined. */
  coupled?: number[];
  /** Named lines `key value`, in order. */
  named: Array<[string, string]>;
  /** Loss block of semiconductors. */
  losses?: boolean;
  /** Hash and path of the embedded loss file (detailed loss model, verlustTyp 2). */
  lossFile?: { hash: number; path: string };
  /** Lines written after the named lines (a Java block's `<detail>` with its code). */
  extra?: string[];
}

const TAGS = { e: 'ElementLK', c: 'ElementCONTROL', eTH: 'ElementTHERM' } as const;

const CONNECTOR: Record<Domain, { header: string; type: number }> = {
  LK: { header: 'verbindungLK', type: 0 },
  CONTROL: { header: 'verbindungCONTROL', type: 1 },
  RELUCTANCE: { header: 'verbindungLK', type: 2 },
  THERMAL: { header: 'verbindungTHERM', type: 4 },
};

/** Accumulates the blocks of a file; each block gets the next running index in its header. */
export class IpesWriter {
  private readonly lines: string[] = [];
  private index = 0;

  wire(domain: Domain, label: string, x: number[], y: number[], enabled = 1): void {
    const c = CONNECTOR[domain];
    this.lines.push(`${c.header}  (${this.index++})`, '<Verbindung>', `label ${label === '' ? NIX : label}`,
      `x[] ${x.join(' ')} `, `y[] ${y.join(' ')} `, `enabledShorted ${enabled}`, 'parentSheetIdentifier 0',
      `connectorType ${c.type}`, '<\\Verbindung>');
  }

  /** A block kept verbatim (its header's running index too: readers ignore it). */
  raw(lines: readonly string[]): void {
    this.index++;
    this.lines.push(...lines);
  }

  component(c: ComponentText): void {
    const tag = TAGS[c.block];
    const out = this.lines;
    out.push(`${c.block} (${this.index++})`, `<${tag}>`,
      `labelAnfangsKnoten[] ${stringArray(c.inLabels)}`, `labelEndKnoten[] ${stringArray(c.outLabels)}`,
      'enabledShorted 1', 'parentSheetIdentifier 0', `typ ${c.typ}`, `uniqueObjectIdentifier ${c.uid}`,
      `x ${c.x}`, `y ${c.y}`, `parameter[] ${numberArray(c.slots)}`, `parameterString[] ${stringArray(c.strings)}`,
      `nameOpt[] ${stringArray(c.nameOpt)}`, `orientierung ${c.orientation}`, `idStringDialog ${c.name}`);
    if (c.coupled) {
      const ids = c.coupled.map((id) => `${id} `).join('');
      out.push(`coupledReferenceID[] ${ids}`, `copyCoupledReferenceID[] ${ids}`, 'internalIndex -1', `internalString ${NIX}`);
    }
    for (const [key, value] of c.named) out.push(`${key} ${value}`);
    if (c.losses) {
      const file = c.lossFile;
      out.push('<Verluste>', `datnamGemesseneVerluste ${file ? file.path : 'not_defined'}`, `lossFileHashValue ${file ? file.hash : 0}`,
        `verlustTyp ${file ? 2 : 1}`, '<\\Verluste>');
    }
    if (c.extra) out.push(...c.extra);
    out.push('dxTxt 1.0', 'dyTxt -1.0', '', `<\\${tag}>`);
  }

  trailer(t: { names: string[]; values: number[]; tEnd: number; dt: number; tPause: number; tPre: number; dtPre: number; solverType: number; width: number; height: number; fileId: number; files?: string[] }): void {
    this.lines.push(
      `optimizerName[] ${stringArray(t.names)}`, `optimizerValue[] ${numberArray(t.values)}`,
      '<scripterCode>', '<\\scripterCode> ', '<scripterImports>', '<\\scripterImports> ', '<scripterDeclarations>',
      '<\\scripterDeclarations> ', '<extraScriptSourceFiles>', '<\\extraScriptSourceFiles>',
      'GeckoFileManager', '<GeckoFileManager>', ...(t.files ?? []), '<\\GeckoFileManager>', '',
      `tDURATION ${javaDouble(t.tEnd)}`, `dt ${javaDouble(t.dt)}`, `tPAUSE ${javaDouble(t.tPause)}`,
      `T_pre ${javaDouble(t.tPre)}`, `dt_pre ${javaDouble(t.dtPre)}`, `solverType ${t.solverType}`, '',
      'dpix 16', 'fontSize 10', 'fontTyp Dialog.plain', 'fensterWidth 900', 'fensterHeight 600',
      `worksheetSizeX ${t.width}`, `worksheetSizeY ${t.height}`,
      ...['LK_NAME', 'LK_PARAMETER', 'LK_FLOWDIR', 'LK_TEXTLINIE', 'THERM_NAME', 'THERM_PARAMETER', 'THERM_TEXTLINIE',
        'CONTROL_PARAMETER', 'CONTROL_TEXTLINIE'].map((k) => `ANSICHT_SHOW_${k} true`),
      'ANSICHT_SHOW_THERM_FLOWDIR false', 'ANSICHT_SHOW_CONTROL_NAME false',
      'FileVersion 202', `UniqueFileId ${t.fileId}`, '=======================', '');
  }

  text(): string {
    return this.lines.join('\n');
  }
}
