// GeckoCIRCUITS Java blocks (control typ 61, ReglerJavaFunction) in the .ipes reader and writer.
// The block's code lives in its record as tagged sections (`<sourceCode>` = the body of
// calculateYOUT, `<staticCode>` = init(), `<staticVariables>` = the class's fields and methods,
// `<importCode>`), each line as typed; the compiled `<classBytes>` are not used. The netlist block
// `JAVA` carries the non-empty sections as `code`, `initCode` and `variables`; the engine's
// messages count lines within each section, as GeckoCIRCUITS' code window does.
// A block whose outputs feed nothing gets `observer: 1`: it runs, but code the engine cannot
// compile or that fails while running only costs a warning. Matrix blocks (JavaBlockMatrix,
// `useMatrix true`: vector-valued terminals) are refused.
import type { ControlBlock } from '../netlist.js';
import type { ComponentRecord } from './components.js';
import type { ControlEnv } from './controls.js';
import { unsupported } from './params.js';
import type { Plan, PlanContext } from './plan.js';
import { problem } from './plan.js';

const SECTIONS = [
  { tag: 'sourceCode', param: 'code' },
  { tag: 'staticCode', param: 'initCode' },
  { tag: 'staticVariables', param: 'variables' },
] as const;

/** Text of the `<tag>` … `<\tag>` section of a record. */
function section(c: ComponentRecord, tag: string): string | undefined {
  const lines = c.raw.lines;
  const open = lines.findIndex((l) => l.trim() === `<${tag}>`);
  if (open < 0) return undefined;
  const close = lines.findIndex((l, i) => i > open && l.trim() === `<\\${tag}>`);
  if (close < 0) return undefined;
  return lines.slice(open + 1, close).join('\n');
}

/** Reader: the JAVA block of a Java block record, or undefined when it is refused. */
export function mapJavaBlock(env: ControlEnv, index: number, c: ComponentRecord, inputs: number, outputs: number, observer: boolean): ControlBlock | undefined {
  if (c.tokens.boolean('useMatrix') === true) {
    unsupported(env.ctx, c, 'Java block with matrix (bus) terminals (useMatrix); only scalar terminals are supported');
    return undefined;
  }
  const params: Record<string, string | number> = {};
  for (const { tag, param } of SECTIONS) {
    const text = section(c, tag);
    if (text !== undefined && (param === 'code' || text.trim() !== '')) params[param] = text;
  }
  if (params.code === undefined) {
    unsupported(env.ctx, c, 'Java block without a <sourceCode> section');
    return undefined;
  }
  if (observer) params.observer = 1;
  const block: ControlBlock = {
    name: c.name,
    type: 'JAVA',
    inputs: Array.from({ length: inputs }, (_, i) => env.input(index, i) ?? env.zero(c.name, `${c.name} input ${i + 1}`)),
    outputs: Array.from({ length: outputs }, (_, j) => env.output(index, j)),
    params,
  };
  return block;
}

/**
 * Lines of the writer's `<detail>` section of a JAVA block. Its imports are those the engine
 * assumes: java.lang.Math's members without `Math.`, and java.util (List, ArrayList).
 */
function detailLines(b: ControlBlock, inputs: number, outputs: number): string[] {
  const p = b.params ?? {};
  const text = (key: string): string[] => (typeof p[key] === 'string' ? String(p[key]).split('\n') : []);
  return [
    '<detail>', `tnX ${inputs}`, `tnY ${outputs}`, `className ${b.name.replace(/[^A-Za-z0-9_]/g, '_')}`, 'showName true',
    '<sourceCode>', ...text('code'), '<\\sourceCode>',
    '<staticCode>', ...text('initCode'), '<\\staticCode>',
    '<importCode>', 'import static java.lang.Math.*;', 'import java.util.*;', '<\\importCode>',
    '<staticVariables>', ...text('variables'), '<\\staticVariables>',
    '<\\detail>',
  ];
}

/** Writer: terminals, counts and the code sections of a JAVA block. */
export function javaPlan(ctx: PlanContext, b: ControlBlock, plan: Plan): void {
  const p = b.params ?? {};
  if (typeof p.code !== 'string') problem(ctx, b.name, 'a JAVA block needs its code (params.code)');
  for (const key of ['code', 'initCode', 'variables']) {
    const value = p[key];
    if (typeof value === 'string' && /^\s*<\\?[A-Za-z]+>\s*$/m.test(value)) {
      problem(ctx, b.name, `the ${key} has a line that looks like a section tag (<name>), which GeckoCIRCUITS files cannot hold`);
    }
  }
  const inputs = plan.ins.length;
  const outputs = plan.outs.length;
  plan.named.push(['anzXIN', String(inputs)], ['anzYOUT', String(outputs)], ['useMatrix', 'false']);
  plan.extra = detailLines(b, inputs, outputs);
}
