// The transfer function block (GeckoCIRCUITS `ReglerTransferFunction`, control typ 74, one input at
// (x − 2, y), one output) ⇄ the netlist's TF block. GeckoCIRCUITS saves its polynomials as named
// lines of 20 coefficients each, in ascending powers of s (`nominatorPolynom b0 b1 …`,
// `denominatorPolynom a0 a1 …`) and simulates those; the poles/zeros lines (`nominatorPoles`,
// `denominatorZeros`) and the `constant` gain only feed its dialog. The netlist keeps the
// polynomials without their vanishing highest powers (`num`, `den`). A numerator may exceed the
// denominator by up to two degrees (the input is differentiated numerically); at two, GeckoCIRCUITS
// divides the input's second difference by dt instead of dt², so the reader warns that the engine's
// (dimensionally correct) result differs.
import type { ControlBlock } from '../netlist.js';
import type { ComponentRecord } from './components.js';
import { javaDouble } from './emit.js';
import { unsupported, type ReadContext } from './params.js';
import { problem, putFlag, type Plan, type PlanContext } from './plan.js';
import { parseJavaNumber, syntaxError } from './tokens.js';

/** Coefficients GeckoCIRCUITS keeps per polynomial (`ReglerTransferFunction.MAX_ARRAY_SIZE`). */
const GECKO_COEFFICIENTS = 20;

const NUMERATOR = 'nominatorPolynom';
const DENOMINATOR = 'denominatorPolynom';

function coefficients(ctx: ReadContext, c: ComponentRecord, key: string): number[] | undefined {
  const text = c.tokens.text(key);
  if (text === undefined) return undefined;
  const values = text.split(/\s+/).filter((part) => part.length > 0).map((part) => {
    const value = parseJavaNumber(part);
    if (value === undefined || !Number.isFinite(value)) {
      throw syntaxError(c.tokens.line(key) ?? c.line, `${c.name}: ${key}: '${part}' is not a finite number`, ctx.fileName);
    }
    return value;
  });
  while (values.length > 0 && values[values.length - 1] === 0) values.pop();
  return values;
}

/** Reader side: the TF block's `num` and `den`, or undefined (and a refusal) when it has none. */
export function transferFunctionBlock(ctx: ReadContext, c: ComponentRecord, block: ControlBlock): ControlBlock | undefined {
  // GeckoCIRCUITS' defaults (a new block): numerator 1, denominator 1.
  const num = coefficients(ctx, c, NUMERATOR) ?? [1];
  const den = coefficients(ctx, c, DENOMINATOR) ?? [1];
  if (den.length === 0) {
    unsupported(ctx, c, 'transfer function whose denominator is zero');
    return undefined;
  }
  if (num.length > den.length + 2) {
    unsupported(ctx, c, `transfer function with numerator degree ${num.length - 1}, more than 2 above denominator degree ${den.length - 1}`);
    return undefined;
  }
  if (num.length === den.length + 2) {
    ctx.warnings.push(`${c.name}: the numerator is two degrees above the denominator: the engine divides the input's second difference ` +
      'by dt², GeckoCIRCUITS by dt, so the results differ');
  }
  if (c.tokens.boolean('useInitState') === true) {
    ctx.warnings.push(`${c.name}: the transfer function's saved initial state is not used; its state starts at zero`);
  }
  return { ...block, params: { num: num.length > 0 ? num : [0], den } };
}

/** Writer side: the polynomials as named lines of 20 coefficients, shown as polynomials in the dialog. */
export function transferFunctionPlan(ctx: PlanContext, b: ControlBlock, plan: Plan): void {
  const line = (key: string, net: 'num' | 'den'): void => {
    const value = b.params?.[net];
    if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'number' && Number.isFinite(v))) {
      problem(ctx, b.name, `${net} must be a list of numbers (coefficients of s^0, s^1, ...)`);
      return;
    }
    if (value.length > GECKO_COEFFICIENTS) {
      problem(ctx, b.name, `${net} has ${value.length} coefficients; GeckoCIRCUITS keeps at most ${GECKO_COEFFICIENTS}`);
      return;
    }
    const padded = [...(value as number[]), ...new Array<number>(GECKO_COEFFICIENTS - value.length).fill(0)];
    plan.named.push([key, padded.map((v) => `${javaDouble(v)} `).join('')]);
  };
  putFlag(plan, 'polynomMode', -1, true);
  line(NUMERATOR, 'num');
  line(DENOMINATOR, 'den');
}
