// The package's main entry: the engine API and the netlist format.
export * from './engine/index.js';
export {
  NETLIST_FORMAT, SOLVER_METHODS, ELEMENT_TYPES, BLOCK_TYPES, netlistSchema, assertNetlistShape, resolveNetlist,
} from './formats/netlist.js';
export type {
  Netlist, NetlistElement, ControlBlock, NetlistSettings, SolverMethod, ParamValue, ElementType, BlockType, ParameterOverrides,
} from './formats/netlist.js';
export { PesimError } from './errors/pesim-error.js';
export type { ErrorDetail, ErrorFacts } from './errors/pesim-error.js';
export { NetlistError } from './formats/errors.js';
export { readCircuitFile, readCircuitBytes, detectFormat } from './formats/read.js';
export type { CircuitFormat, ReadResult, ReadOptions } from './formats/read.js';
export { companionFiles } from './formats/companion.js';
