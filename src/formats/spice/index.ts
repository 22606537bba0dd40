// SPICE netlist reader and writer (the subset described in docs/spice.md): readSpice turns a
// deck into a pesim netlist, writeSpice turns a netlist into a deck ngspice runs, and the ngspice
// helpers run such a deck and read its output for comparisons with pesim's results.
export { readSpice, type SpiceReadResult, type SpiceReadOptions } from './read.js';
export type { DeckFileReader } from './includes.js';
export { writeSpice, buildSpiceDeck, spiceSignals, DEFAULT_OUTPUT_FILE, type SpiceDeck, type SpiceSignal, type SpiceWriteOptions } from './write.js';
export { runNgspice, parseWrdata, NGSPICE, type NgspiceResult, type WrdataTable } from './ngspice.js';
export { parseSpiceNumber } from './lexer.js';
export { evaluateExpression } from './expressions.js';
export { SPICE_SCOPE, voltageLabel, currentLabel } from './outputs.js';
export { THERMAL_VOLTAGE, DIODE_REFERENCE_CURRENT, saturationCurrentFor } from './models.js';
