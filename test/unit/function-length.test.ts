// No function of src/ (TypeScript) or native/ (C++) is longer than 80 lines (scripts/function-length.ts).
import { expect } from 'chai';
import { longCppFunctions, longFunctions, longTsFunctions, stripCpp } from '../../scripts/function-length.js';

const body = (lines: number, indent = '  '): string => Array.from({ length: lines }, (_, i) => `${indent}x += ${i};`).join('\n');

describe('function length', () => {
  it('finds long TypeScript functions, methods and arrow functions, nested ones on their own', () => {
    const text = [
      `export function long(): void {\n  let x = 0;\n${body(80)}\n}`,
      `function short(): void {\n${body(10)}\n}`,
      `class A {\n  method(): void {\n    let x = 0;\n${body(85, '    ')}\n  }\n}`,
      `const arrow = (): void => {\n  let x = 0;\n  const inner = (): void => {\n${body(81, '    ')}\n  };\n};`,
    ].join('\n');
    const found = longTsFunctions('a.ts', text, 80).map((f) => `${f.name}:${f.lines}`);
    expect(found).to.deep.equal(['long:83', 'method:88', 'arrow:86', 'inner:83']);
  });

  it('finds long C++ functions and constructors, with lambdas and braces in strings and comments inside them', () => {
    const text = [
      '#include <string>',
      'namespace pesim {',
      'struct S { int a; int b; };',
      'int Table::lookup(int key) const {',
      '  auto f = [](int v) { return v; }; // {',
      '  const char* s = "}}}";',
      body(80),
      '}',
      'S::S(int a) : a_(a), b_{a} {',
      body(90),
      '}',
      'static const int values[] = {',
      body(100),
      '};',
      'int small() { return 1; }',
      '}  // namespace pesim',
    ].join('\n');
    const found = longCppFunctions('a.cpp', text, 80).map((f) => `${f.name}:${f.line}:${f.lines}`);
    expect(found).to.deep.equal(['Table::lookup:4:84', 'S::S:88:92']);
  });

  it('blanks comments, strings and raw strings but keeps the lines', () => {
    const text = 'a /* { */ b\n"}" // }\nR"x(})x" c';
    const stripped = stripCpp(text);
    expect(stripped.split('\n')).to.have.length(3);
    expect(stripped).not.to.match(/[{}]/);
    expect(stripped).to.match(/a\s+b/);
  });

  it('holds for every function of src/ and native/', function () {
    this.timeout(120_000);
    expect(longFunctions(80).map((f) => `${f.path}:${f.line} ${f.name} (${f.lines} lines)`)).to.deep.equal([]);
  });
});
