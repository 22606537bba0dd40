// GeckoSCRIPT: parameter short names on a circuit read from a real .ipes file (with GeckoCIRCUITS'
// phase convention), scripts embedded in .ipes files run with declarations as fields and errors at
// the file's own line numbers, and unknown GeckoSCRIPT functions named.
import { expect } from 'chai';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { formatScriptError, ScriptError } from '../../../src/script/errors.js';
import { geckoShortName } from '../../../src/remote/gecko-parameters.js';
import { embeddedScript } from '../../../src/script/ipes-script.js';
import { BUCK_IPES as buckIpes, ipesWith, runIpes, runScript } from './run-script.js';

const sweepIpes = fileURLToPath(new URL('../../fixtures/script/buck-sweep.ipes', import.meta.url));

describe('script: GeckoSCRIPT', function () {
  this.timeout(60000);

  it('matches short names case-insensitively, short names before alternatives', () => {
    expect(geckoShortName('V', 'udc')?.net).to.equal('value');
    expect(geckoShortName('V', 'UMAX')?.net).to.equal('amplitude');
    expect(geckoShortName('I', 'iMAX')?.net).to.equal('value');
    expect(geckoShortName('DELAY', 't_delay')?.net).to.equal('delay');
    expect(geckoShortName('GAIN', 'r0')?.net).to.equal('k');
    expect(geckoShortName('PT2', 'a1')?.net).to.equal('gain');
    expect(geckoShortName('R', 'resistance')).to.equal(undefined);
  });

  it('sets .ipes parameters by short name with GeckoCIRCUITS phase and duty conventions', async () => {
    const out = await runScript(`loadCircuit("${buckIpes}");
      setParameter("U.1", "uDC", 24); setParameter("SIGNAL.1", "phase", 30); setParameter("SIGNAL.1", "amplMAX", 2);
      setParameter("D.1", "uF", 0.7); setParameter("S.1", "rON", 0.02); setParameter("C.1", "uC(0)", 3);
      print(getParameter("U.1", "value") + " " + getParameter("SIGNAL.1", "phase") + " " + getParameter("SIGNAL.1", "Phase"));
      print(getParameter("SIGNAL.1", "amplitude") + " " + getParameter("D.1", "vf") + " " + getParameter("S.1", "ron") + " " + getParameter("C.1", "v0"));`);
    // "phase" is GeckoCIRCUITS' φ (30°); the netlist keeps −φ for a rectangle.
    expect(out.trim().split('\n')).to.deep.equal(['24.0 30.0 30.0', '2.0 0.7 0.02 3.0']);
    const savedFile = join(mkdtempSync(join(tmpdir(), 'pesim-gecko-')), 'phase.json');
    await runScript(`loadCircuit("${buckIpes}"); setParameter("SIGNAL.1", "phase", 30); saveCircuit("${savedFile}");`);
    const saved = JSON.parse(readFileSync(savedFile, 'utf8')) as { blocks: Array<{ name: string; params: Record<string, number> }> };
    expect(saved.blocks.find((b) => b.name === 'SIGNAL.1')!.params.phase).to.equal(-30);
  });

  it('finds the three script sections of an .ipes file with their line numbers', () => {
    const script = embeddedScript(readFileSync(sweepIpes), 'buck-sweep.ipes');
    expect(script.imports.text).to.equal('import static java.lang.Math.*;');
    expect(script.declarations.text.split('\n')[1]).to.equal('double[] duties = {0.2, 0.4, 0.6};');
    const lines = gunzipSync(readFileSync(sweepIpes)).toString('utf8').split('\n');
    expect(lines[script.code.firstLine - 1]).to.equal(script.code.text.split('\n')[0]);
  });

  it('runs declarations as fields, then the code, against the file\'s circuit', async () => {
    const file = ipesWith('double scale = 2;\nint runs;', 'runs++;\nwriteOutputLn("R.1 = " + getParameter("R.1", "R") * scale + " after " + runs);');
    expect(await runIpes(file)).to.equal('R.1 = 20.0 after 1\n');
  });

  it('reports errors at the line of the .ipes file', async () => {
    const file = ipesWith('double a = 1;', 'writeOutputLn(a);\ndoOperation();');
    const lines = readFileSync(file, 'utf8').split('\n');
    const line = lines.indexOf('doOperation();') + 1;
    try {
      await runIpes(file);
      expect.fail('the script ran');
    } catch (error) {
      expect(error).to.be.instanceOf(ScriptError);
      const e = error as ScriptError;
      expect(e.reason).to.equal("the GeckoSCRIPT function 'doOperation' is not supported by pesim");
      expect(e.position!.line).to.equal(line);
      expect(formatScriptError(e)).to.equal(`${file}:${line}:1: ${e.reason}\n    doOperation();\n    ^`);
    }
  });

  it('refuses statements other than declarations in the declarations section', async () => {
    const file = ipesWith('double a = 1;\nwriteOutputLn(a);', 'writeOutputLn(2);');
    try {
      await runIpes(file);
      expect.fail('the script ran');
    } catch (error) {
      expect((error as ScriptError).reason).to.match(/^only field and method declarations belong in the declarations section/);
    }
  });
});
