// Error messages of the scripting language: each names file:line:column, shows the source line and
// puts a caret under the column; compile errors stop the script before any statement runs.
import { expect } from 'chai';
import { scriptError } from './run-script.js';

async function expectError(text: string, line: number, column: number, message: string | RegExp): Promise<string> {
  const { error, text: formatted } = await scriptError(text);
  expect(error.position, formatted).to.not.equal(undefined);
  expect([error.position!.line, error.position!.column], formatted).to.deep.equal([line, column]);
  if (typeof message === 'string') expect(error.reason).to.equal(message);
  else expect(error.reason).to.match(message);
  return formatted;
}

describe('script: errors with positions', () => {
  it('formats file:line:column, the source line and a caret', async () => {
    const formatted = await expectError('int x = 1;\n  x = foo(3);', 2, 7, "unknown function 'foo'");
    expect(formatted).to.equal("test.pss:2:7: unknown function 'foo'\n      x = foo(3);\n          ^");
  });

  it('reports a missing semicolon at the end of the line it belongs to', async () => {
    await expectError('int x = 1\nx = 2;', 2, 1, "expected ',' or ';' after the variable's value, found 'x'");
    await expectError('print(1) print(2);', 1, 10, "expected ';' after the statement, found 'print'");
  });

  it('reports unclosed blocks, strings, comments and parentheses', async () => {
    await expectError('for (int i = 0; i < 2; i++) {\n  print(i);\n', 3, 1, "expected '}' to end the block, found the end of the code");
    await expectError('print("abc);', 1, 7, 'string literal is not closed');
    await expectError('/* never closed', 1, 1, "comment '/*' is not closed with '*/'");
    await expectError('print((1 + 2);', 1, 14, "expected ')' after the arguments, found ';'");
  });

  it('names unknown variables and functions, and GeckoSCRIPT functions pesim lacks', async () => {
    await expectError('x = y + 1;', 1, 5, "unknown name 'y'");
    await expectError('doOperation();', 1, 1, "the GeckoSCRIPT function 'doOperation' is not supported by pesim");
    await expectError('double d = 1;\nd.foo();', 2, 2, "only '.length' or '.clone()' can follow this value");
    await expectError('String s = "a";\ns.foo();', 2, 3, /^unknown method 'foo' with 0 argument\(s\) of String/);
  });

  it('checks argument counts and types', async () => {
    await expectError('setParameter("R.1", 5);', 1, 1, 'setParameter expects setParameter(String, String, double), got 2 arguments');
    await expectError('setParameter("R.1", "R", "ten");', 1, 26, 'argument 3 of setParameter must be double, found String');
    await expectError('print(sqrt("x"));', 1, 7, "unknown function 'sqrt'");
  });

  it('checks types of declarations, conditions and operators', async () => {
    await expectError('String s = 1;', 1, 8, 'the initial value must be String, not int');
    await expectError('if (1) print(1);', 1, 5, 'the if condition must be a boolean, not int');
    await expectError('boolean b = true; int n = b + 1;', 1, 29, "'+' does not apply to boolean and int");
    await expectError('int i = 1; int i = 2;', 1, 16, "variable 'i' is already defined");
    await expectError('break;', 1, 1, 'break outside of a loop');
  });

  it('stops at runtime errors where they happen, after the statements before them ran', async () => {
    const { error, output } = await scriptError('print("before");\nint z = 0;\nprint(1 / z);');
    expect(output).to.equal('before\n');
    expect(error.reason).to.equal('ArithmeticException: / by zero');
    expect([error.position!.line, error.position!.column]).to.deep.equal([3, 9]);
    await expectError('int[] a = new int[2];\na[2] = 1;', 2, 2, 'ArrayIndexOutOfBoundsException: Index 2 out of bounds for length 2');
    await expectError('print(Integer.parseInt("x1"));', 1, 7, /NumberFormatException: For input string: "x1"/);
  });

  it('compiles the whole script before running any of it', async () => {
    const { output, error } = await scriptError('print("first");\nundefinedCall();');
    expect(output).to.equal('');
    expect(error.kind).to.equal('compile');
  });

  it('reports session errors (no circuit loaded) at the call', async () => {
    await expectError('print(1);\nrunSimulation();', 2, 1, /no circuit is loaded/);
  });

  it('bounds the number of executed statements', async () => {
    const { error, text } = await scriptError('int n = 0;\nwhile (true) {\n  n++;\n}', { maxSteps: 5000 });
    expect(error.kind).to.equal('step-limit');
    expect(error.reason).to.equal('the script exceeded the limit of 5000 statements (--max-steps)');
    expect(text).to.match(/^test\.pss:\d+:\d+: /);
  });

  it('stops when interrupted', async () => {
    const interrupt = new Int32Array(new SharedArrayBuffer(4));
    setTimeout(() => Atomics.store(interrupt, 0, 1), 50);
    const { error } = await scriptError('double x = 0;\nfor (;;) x += 1;', { interrupt });
    expect(error.kind).to.equal('interrupted');
    expect(error.reason).to.equal('interrupted by Ctrl-C');
  });
});
