// Components that annotate or observe a model without changing it: text fields saved as control
// blocks (c typ 70) and blocks whose outputs feed nothing (Java blocks used as checks or exports,
// display/export blocks). They are dropped with a warning; the same blocks whose outputs are used
// are refused.
import { expect } from 'chai';
import { readIpes, writeIpesText } from '../../../../src/formats/ipes/index.js';
import { edit, fixtureText, textBytes } from './helpers.js';

/** A control text field as GeckoCIRCUITS 1.7 saves it (`TextFieldBlock`). */
const TEXT_FIELD = ['c (30)', '<ElementCONTROL>', 'labelAnfangsKnoten[] ', 'labelEndKnoten[] ', 'enabledShorted 1', 'typ 70',
  'x 40', 'y 30', 'parameter[] ', 'parameterString[] /NIX_NIX_NIX/NIX_NIX_NIX/0', 'nameOpt[] ', 'orientierung 503',
  'idStringDialog TEXT.9', '<detail>', 'title_string Notes', 'contents_string  set L and C\\n as computed', '<\\detail>', '<\\ElementCONTROL>'];

const withBlocks = (lines: string[]): string => edit(fixtureText('buck_simple.ipes'), 'thermANZAHL 0\n', [...lines, 'thermANZAHL 0', ''].join('\n'));

describe('ipes reader: annotations and unused blocks', () => {
  it('drops control-domain text fields with a warning and keeps them for the writer', () => {
    const plain = readIpes(textBytes(fixtureText('buck_simple.ipes'))).netlist;
    const { netlist, warnings } = readIpes(textBytes(withBlocks(TEXT_FIELD)));
    expect(warnings).to.include('TEXT.9: text field ignored');
    expect(netlist.elements).to.deep.equal(plain.elements);
    expect(netlist.blocks).to.deep.equal(plain.blocks);
    const written = writeIpesText(netlist);
    expect(written).to.include('idStringDialog TEXT.9');
    expect(written).to.include('contents_string  set L and C\\n as computed');
    expect(readIpes(textBytes(written)).netlist.blocks).to.deep.equal(plain.blocks);
  });
});
