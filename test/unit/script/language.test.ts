// The scripting language feature by feature: declarations, operators with Java's types (integer
// division, int overflow), control flow, strings, arrays, Math, comments; each script's printed
// output is compared with what Java prints for the same program.
import { expect } from 'chai';
import { runScript } from './run-script.js';

const lines = async (text: string): Promise<string[]> => (await runScript(text)).trimEnd().split('\n');

describe('script: language', () => {
  it('declares typed and untyped variables with Java default values', async () => {
    expect(await lines('double x = 1; int i; boolean done = false; String s = "a"; long big = 3000000000L; y = 2; z = 2.5; var w = "v";\nprint(x); print(i); print(done); print(s); print(big); print(y); print(z); print(w);'))
      .to.deep.equal(['1.0', '0', 'false', 'a', '3000000000', '2', '2.5', 'v']);
  });

  it('divides integers toward zero and wraps int arithmetic at 32 bits', async () => {
    expect(await lines('print(7 / 2); print(-7 / 2); print(7 % -3); print(-7 % 3); print(7 / 2.0); print(2147483647 + 1); print(65536 * 65536); print(1 / 2 * 2.0); print((double) 1 / 2);'))
      .to.deep.equal(['3', '-3', '1', '-1', '3.5', '-2147483648', '0', '0.0', '0.5']);
  });

  it('applies compound assignments with the implicit cast back to the variable type', async () => {
    expect(await lines('int i = 10; i += 2.7; print(i); i -= 1; i *= 3; i /= 4; print(i); i %= 3; print(i); double d = 1; d /= 4; print(d); String s = "n="; s += 3; print(s); i++; ++i; i--; print(i);'))
      .to.deep.equal(['12', '8', '2', '0.25', 'n=3', '3']);
  });

  it('returns the old value from postfix and the new from prefix increments', async () => {
    expect(await lines('int i = 5; int a = i++; int b = ++i; int c = i--; print(a + " " + b + " " + c + " " + i);')).to.deep.equal(['5 7 7 6']);
  });

  it('concatenates strings with numbers formatted as Java prints them', async () => {
    expect(await lines('double t = 0.03; print("t=" + t + " dt=" + 1e-5 + " f=" + 100.0 + " n=" + 3 + " b=" + true); print(1 + 2 + "x" + 1 + 2); print("q\\"\\t|\\u0041|" + \'c\');'))
      .to.deep.equal(['t=0.03 dt=1.0E-5 f=100.0 n=3 b=true', '3x12', 'q"\t|A|c']);
  });

  it('evaluates comparisons, logic with short-circuit, ternaries and bit operations', async () => {
    expect(await lines('int n = 0; boolean a = n != 0 && 10 / n > 1; boolean b = n == 0 || 10 / n > 1; print(a + " " + b); print(n > 0 ? "pos" : "zero"); print(!a & b | false ^ true); print((6 & 3) + " " + (6 | 3) + " " + (6 ^ 3) + " " + (1 << 4) + " " + (-16 >> 2) + " " + (~5));'))
      .to.deep.equal(['false true', 'zero', 'true', '2 7 5 16 -4 -6']);
  });

  it('runs if/else, for, while, do-while, break and continue', async () => {
    const out = await lines(`
      int sum = 0;
      for (int i = 0; i < 10; i++) { if (i % 2 == 0) continue; if (i > 7) break; sum += i; }
      print(sum);
      int k = 0; while (k < 5) k++; print(k);
      do { k--; } while (k > 10); print(k);
      if (k > 100) print("big"); else if (k > 3) print("mid"); else print("small");
      for (int i = 0, j = 10; i < j; i++, j--) sum++;
      print(sum);
      for (;;) { break; }
      /* block comment */ // line comment
      print("end");`);
    expect(out).to.deep.equal(['16', '5', '4', 'mid', '21', 'end']);
  });

  it('creates and indexes one-dimensional arrays', async () => {
    expect(await lines('double[] a = new double[]{1, 2.5}; String[] n = new String[]{"a1", "r0"}; int[] z = new int[3]; int[] f = {10, 25}; double b[] = {1, 2};\nz[1] = 4; z[2] += 3; z[0]++;\nprint(a[1] + " " + a.length + " " + n[0] + n[1] + " " + z[0] + z[1] + z[2] + " " + f[1] + " " + b.length);\ndouble s = 0; for (int i = 0; i < a.length; i++) s += a[i]; print(s);'))
      .to.deep.equal(['2.5 2 a1r0 143 25 2', '3.5']);
  });

  it('offers Math.* and the static-import names', async () => {
    expect(await lines('print(Math.sqrt(16)); print(sqrt(2.25)); print(Math.abs(-3)); print(abs(-2.5)); print(pow(2, 10)); print(Math.max(3, 7)); print(Math.min(1.5, 2)); print(Math.round(2.5)); print(Math.floor(-1.5)); print(PI); print(Math.E); print(exp(0) + log(1)); print(sin(0) + cos(0));'))
      .to.deep.equal(['4.0', '1.5', '3', '2.5', '1024.0', '7', '1.5', '3', '-2.0', '3.141592653589793', '2.718281828459045', '1.0', '1.0']);
  });

  it('casts between numeric types as Java does', async () => {
    expect(await lines('print((int) 2.9); print((int) -2.9); print((int) 1e20); print((long) 1e10); print((double) 3); print((int) (0.1 * 3 * 10));'))
      .to.deep.equal(['2', '-2', '2147483647', '10000000000', '3.0', '3']);
  });

  it('has the String methods scripts use and the Java output functions', async () => {
    expect(await runScript('String s = " Ab "; writeOutput(s.trim().length()); writeOutputLn(""); writeOutputLn(s.trim().toUpperCase().equals("AB")); System.out.println(Integer.parseInt("12") + Double.parseDouble("0.5")); System.out.print(String.valueOf(2.0)); writeOutputLn();'))
      .to.equal('2\ntrue\n12.5\n2.0\n');
  });

  it('keeps variables from one run to the next (declarations, then code)', async () => {
    let out = '';
    const { ScriptContext } = await import('../../../src/script/context.js');
    const context = new ScriptContext({ write: (t) => (out += t) });
    await context.run({ name: 'decl', text: 'double Kp = 2.2; int[] f = {1, 2};', firstLine: 1 });
    await context.run({ name: 'code', text: 'print(Kp * f[1]);', firstLine: 1 });
    expect(out).to.equal('4.4\n');
  });

  it('ends the script at return;', async () => {
    expect(await lines('print(1); if (true) return; print(2);')).to.deep.equal(['1']);
  });

  it('ignores import lines', async () => {
    expect(await lines('import static java.lang.Math.*;\nimport java.util.*;\nprint(sqrt(9));')).to.deep.equal(['3.0']);
  });
});

describe('script: variables across inputs (the prompt)', () => {
  it('forgets the declarations of an input that does not compile, and defaults those an error skipped', async () => {
    let out = '';
    const { ScriptContext } = await import('../../../src/script/context.js');
    const context = new ScriptContext({ write: (t) => (out += t) });
    const input = (text: string) => context.run({ name: '<prompt>', text, firstLine: 1 }).catch((e: Error) => (out += `error: ${e.message}\n`));
    await input('int a = 1; nosuch();');
    await input('int a = 2; print(a);');
    await input('int z = 0; double b = 1 / z;');
    await input('print(b);');
    expect(out.split('\n').filter((l) => !l.startsWith('error')).join('\n')).to.equal('2\n0.0\n');
  });
});

describe('script: prompt input', () => {
  it('waits for more lines while braces, parentheses or a comment are open', async () => {
    const { isCompleteInput } = await import('../../../src/script/repl-input.js');
    expect(isCompleteInput('print(1);\n')).to.equal(true);
    expect(isCompleteInput('for (int i = 0; i < 3; i++) {\n')).to.equal(false);
    expect(isCompleteInput('for (int i = 0; i < 3; i++) {\n  print(i);\n}\n')).to.equal(true);
    expect(isCompleteInput('print(max(1,\n')).to.equal(false);
    expect(isCompleteInput('/* note\n')).to.equal(false);
    expect(isCompleteInput('print("{");\n')).to.equal(true);
    expect(isCompleteInput('print("unclosed);\n')).to.equal(true);
  });
});
