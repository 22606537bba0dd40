// SPICE lexer: cards, comments, continuation lines with their own line numbers, numbers and suffixes.
import { expect } from 'chai';
import { lexDeck, parseSpiceNumber } from '../../../../src/formats/spice/lexer.js';
import { expectLineError } from './helpers.js';

describe('spice lexer', () => {
  it('parses numbers with SI suffixes and unit letters', () => {
    const cases: [string, number][] = [
      ['10', 10], ['-2.5', -2.5], ['1e3', 1000], ['.5', 0.5], ['1E-3', 1e-3],
      ['10uF', 10e-6], ['1meg', 1e6], ['1MEG', 1e6], ['2.2k', 2200], ['4.7kOhm', 4700], ['3m', 3e-3],
      ['1n', 1e-9], ['10p', 10e-12], ['1f', 1e-15], ['1F', 1e-15], ['2t', 2e12], ['1g', 1e9],
      ['5V', 5], ['100mA', 0.1], ['1mil', 25.4e-6], ['1.5e-3s', 1.5e-3], ['50Hz', 50], ['1uH', 1e-6],
    ];
    for (const [text, value] of cases) expect(parseSpiceNumber(text), text).to.be.closeTo(value, Math.abs(value) * 1e-12);
    for (const text of ['abc', 'k1', '1k2', '', '1.2.3x']) expect(parseSpiceNumber(text), text).to.equal(undefined);
  });

  it('keeps the title, skips comments and joins continuation lines with their own line numbers', () => {
    const { title, cards } = lexDeck([
      '* not a comment: the title',
      '* a comment',
      'R1 a b 1k ; inline comment',
      '',
      'V1 in 0',
      '* a comment between a card and its continuation',
      '+ PULSE(0 5',
      '+ 1u 1n 1n 10u 20u) $ dollar comment',
      'C1 a 0 1u // slash comment',
      '.end',
      'R2 after end 1',
    ].join('\n'));
    expect(title).to.equal('* not a comment: the title');
    expect(cards.map((c) => c.line)).to.deep.equal([3, 5, 9]);
    expect(cards[0].tokens.map((t) => t.text)).to.deep.equal(['R1', 'a', 'b', '1k']);
    const v = cards[1].tokens;
    expect(v.map((t) => t.text).join(' ')).to.equal('V1 in 0 PULSE ( 0 5 1u 1n 1n 10u 20u )');
    expect(v.find((t) => t.text === '5')!.line).to.equal(7);
    expect(v.find((t) => t.text === '20u')!.line).to.equal(8);
    expect(cards[2].tokens.map((t) => t.lower)).to.deep.equal(['c1', 'a', '0', '1u']);
  });

  it('reads {…} and quoted expressions as one token and keeps .control blocks whole', () => {
    const { cards } = lexDeck("t\nR1 a b {2 * r} ; c\nC1 a b 'c0 * (1 + 2)'\n.control\nrun\nlet x = 'a\n.endc\nR2 a 0 1\n");
    expect(cards[0].tokens[3]).to.include({ kind: 'expr', text: '2 * r' });
    expect(cards[1].tokens[3]).to.include({ kind: 'expr', text: 'c0 * (1 + 2)' });
    expect(cards[2]).to.include({ line: 4, endLine: 7 });
    expect(cards[3].tokens[0].text).to.equal('R2');
  });

  it('reports unterminated constructs with their line', () => {
    expectLineError(() => lexDeck('t\nR1 a b {1+2\n'), 2, /unclosed '\{'/, 'SPICE_SYNTAX');
    expectLineError(() => lexDeck("t\nR1 a b 1\nR2 a b '1+2\n"), 3, /unclosed quote/);
    expectLineError(() => lexDeck('t\n+ 1 2\n'), 2, /continuation line/);
    expectLineError(() => lexDeck('t\nR1 a 0 1\n.control\nrun\n'), 3, /without \.endc/);
  });
});
