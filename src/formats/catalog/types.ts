// The shape of the type catalog (blocks.ts, elements.ts): one entry per netlist type, holding what
// every reader and writer needs to know about it: the netlist type name, its GeckoCIRCUITS form
// (`typ`, name prefix, terminals, and the parameters as `parameter[]` slot and named key with their
// netlist names, used by the .ipes reader and writer alike) and its SPICE behavioural form.

export interface ParamSpec {
  /** GeckoCIRCUITS parameter identifier (the named line `key value`). */
  key: string;
  /** Index in `parameter[]`; -1 for named-only parameters. */
  slot: number;
  /** Parameter name in the netlist. */
  net: string;
  /** GeckoCIRCUITS default value. */
  def: number;
  /**
   * Smallest value GeckoCIRCUITS simulates: a smaller one is stamped as this (LKMatrices
   * FAST_NULL_R = 1e-9 Ω for R and Rth, FAST_NULL_L = 1e-12 H for L); the reader does the same.
   */
  floor?: { value: number; unit: string };
}

/** A GeckoCIRCUITS control block (block `c`) that maps onto one netlist block type. */
export interface GeckoBlock {
  typ: number;
  /** Name prefix of the block in GeckoCIRCUITS (`GAIN.1`). */
  prefix: string;
  /** Fixed number of inputs, or 'var' (the count of `labelAnfangsKnoten[]` entries). */
  inputs: number | 'var';
  outputs: number;
  /** x offset of the output terminals where the GeckoCIRCUITS block class places them itself. */
  outputX?: number;
  params: ParamSpec[];
  /** Extra input terminals when the block uses external parameters (`useExternal`). */
  external?: { slot: number; positions: Array<[number, number]> };
}

/** The SPICE behavioural form of a block type (B sources, E/G VALUE expressions). */
export interface SpiceForm {
  /** Functions of one argument read into this block (`abs(x)` → ABS). */
  functions?: readonly string[];
  /** Binary operator read into this block (`a < b` → LT). */
  operator?: string;
  /** The block of one input written as an ngspice expression of its input `x`. */
  expression?: (x: string) => string;
}

export interface BlockEntry {
  /** The netlist type (`ControlBlock.type`). */
  type: string;
  /** Its GeckoCIRCUITS control block, where it has one the reader and writer map by `typ`. */
  gecko?: GeckoBlock;
  spice?: SpiceForm;
}

/** A GeckoCIRCUITS power-circuit component (block `e`) that maps onto one netlist element type. */
export interface GeckoElement {
  typ: number;
  prefix: string;
  /** 'twoPort': XIN[0], YOUT[0] at distance 2; 'transformer': two XIN, two YOUT; 'none': K;
   * 'opamp': XIN[0] (+), XIN[1] (−), YOUT[0] (out), YOUT[1] (ref), geometry.ts;
   * 'threePhase': XIN[0..2] (phases a, b, c of a machine). */
  terminals: 'twoPort' | 'transformer' | 'none' | 'opamp' | 'threePhase';
  params: ParamSpec[];
  /** Writes a `<Verluste>` (loss) block. */
  semiconductor?: boolean;
}

export interface ElementEntry {
  /** The netlist type (`NetlistElement.type`). */
  type: string;
  /** Its GeckoCIRCUITS components, the one the writer uses first (an L written coupled is typ 12). */
  gecko: GeckoElement[];
}
