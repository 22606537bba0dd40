// GeckoCIRCUITS .ipes reader and writer: readIpes turns a .ipes file (gzip, raw zlib or plain text)
// into a pesim netlist, keeping the schematic in `netlist.layout.ipes`; writeIpes turns a netlist
// (with or without that layout) back into a gzip-compressed .ipes file.
export { readIpes, readIpesText, type IpesReadResult } from './read.js';
export { writeIpes, writeIpesText } from './write.js';
export { decodeIpes, encodeIpes, type IpesContainer, type DecodedIpes } from './container.js';
export { layoutOf, type IpesLayout, type LayoutComponent, type LayoutWire } from './layout.js';
