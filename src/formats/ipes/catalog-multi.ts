// GeckoCIRCUITS control blocks with several outputs, as the reader and writer know them (merged
// into BLOCK_KINDS). Terminals as the block classes place them: inputs at (x − 2, y + i), outputs
// at (x + outputX, y + j), j in the order of the netlist's `outputs`.
// - ABCDQ (typ 65, `ReglerABCDQ`): inputs a, b, c, θ; outputs d, q at x + 1.
// - DQABC (typ 66, `ReglerDQABC`): inputs d, q, θ; outputs a, b, c at x + 1.
// - THYRISTOR_CONTROL (typ 72, `ReglerThyristorControl`): inputs alpha, sync; outputs gt_A1, gt_A2,
//   gt_A3, gt_B1, gt_B2, gt_B3 at x + 2 (`RegelBlock(0, 6)`); parameters are named lines only.
// - SPARSEMATRIX (typ 59, `ReglerSPARSEMATRIX`): inputs fp, uN1, uN2, uN3, uNmax, uLmax, fL, phi2;
//   outputs s1+, s2+, s3+, s1−, s2−, s3−, sA, sB, sC at x + 2.
import type { BlockKind } from './catalog.js';

export const MULTI_OUTPUT_BLOCK_KINDS: Record<number, BlockKind> = {
  59: { typ: 59, prefix: 'SPARSEMATRIX', type: 'SPARSEMATRIX', inputs: 8, outputs: 9, outputX: 2, params: [] },
  65: { typ: 65, prefix: 'ABCDQ', type: 'ABCDQ', inputs: 4, outputs: 2, outputX: 1, params: [] },
  66: { typ: 66, prefix: 'DQABC', type: 'DQABC', inputs: 3, outputs: 3, outputX: 1, params: [] },
  72: { typ: 72, prefix: 'THYRISTOR_CONTROL', type: 'THYRISTOR_CONTROL', inputs: 2, outputs: 6, outputX: 2, params: [
    { key: 'onTime', slot: -1, net: 'onTime', def: 4e-3 },
    { key: 'initFreq', slot: -1, net: 'initFreq', def: 50 },
    { key: 'phaseShift', slot: -1, net: 'phaseShift', def: 30 }] },
};
