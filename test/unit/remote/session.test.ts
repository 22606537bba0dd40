// RemoteSession over the in-process engine: load, parameters (exact and case-insensitive names,
// globals), run, measurements and waveforms against the RC answer, stop, reset, save/export and the
// path root.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RemoteSession } from '../../../src/remote/session.js';
import { EngineRunner } from '../../../src/remote/engine-runner.js';
import { RemoteError, type RemoteErrorCode } from '../../../src/remote/types.js';
import { readCircuitBytes } from '../../../src/formats/read.js';
import { rcStep } from '../../fixtures/circuits.js';

async function rejectsWith(promise: Promise<unknown>, code: RemoteErrorCode): Promise<RemoteError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(RemoteError);
    expect((error as RemoteError).code).to.equal(code);
    return error as RemoteError;
  }
  throw new Error(`expected a RemoteError ${code}`);
}

function throwsWith(action: () => unknown, code: RemoteErrorCode): RemoteError {
  try {
    action();
  } catch (error) {
    expect(error).to.be.instanceOf(RemoteError);
    expect((error as RemoteError).code).to.equal(code);
    return error as RemoteError;
  }
  throw new Error(`expected a RemoteError ${code}`);
}

describe('RemoteSession', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pesim-control-'));
    const rc = rcStep('trapezoidal', 1e-5);
    rc.parameters = { Rload: 1000 };
    rc.elements[1].params = { R: '$Rload' };
    writeFileSync(join(dir, 'rc.json'), JSON.stringify(rc));
  });

  it('loads, runs and reads measurements and waveforms with the RC answer', async () => {
    const session = new RemoteSession({ runner: new EngineRunner(), baseDir: dir });
    const summary = await session.loadCircuit('rc.json');
    expect(summary.components).to.include.members(['V.1', 'R.1', 'C.1', 'SCOPE.1']);
    expect(summary.scopes).to.deep.equal(['SCOPE.1']);
    expect(summary.globals).to.deep.equal({ Rload: 1000 });
    const id = await session.runSimulation();
    expect(id).to.be.a('string').with.length.greaterThan(0);
    const wave = session.getWaveform('SCOPE.1', 'ch1');
    expect(wave.time.length).to.equal(wave.values.length);
    // vC(5 ms) = 1 - e^-5 for tau = 1 ms.
    expect(wave.values.at(-1)).to.be.closeTo(1 - Math.exp(-5), 2e-3);
    expect(session.getMeasurement('SCOPE.1', 'ch1_max')).to.be.closeTo(1 - Math.exp(-5), 2e-3);
    expect(session.getMeasurement('scope.1', 'CH1.max')).to.equal(session.getMeasurement('SCOPE.1', 'ch1_max'));
  });

  it('changes component and global parameters; reset restores the file', async () => {
    const session = new RemoteSession({ runner: new EngineRunner(), baseDir: dir });
    await session.loadCircuit(join(dir, 'rc.json'));
    expect(session.getParameter('R.1', 'R')).to.equal(1000);
    session.setGlobalParameter('$Rload', 500); // tau = 0.5 ms
    expect(session.getParameter('r.1', 'r')).to.equal(500);
    session.setParameter('C.1', 'c', 2e-6); // tau = 1 ms again
    expect(session.getParameter('C.1', 'C')).to.equal(2e-6);
    await session.runSimulation();
    expect(session.getMeasurement('SCOPE.1', 'ch1_max')).to.be.closeTo(1 - Math.exp(-5), 2e-3);
    session.resetSimulation();
    expect(session.getParameter('C.1', 'C')).to.equal(1e-6);
    expect(session.getGlobalParameter('Rload')).to.equal(1000);
    throwsWith(() => session.getMeasurement('SCOPE.1', 'ch1_avg'), 'NO_RESULT');
  });

  it('names what exists when a name matches nothing', async () => {
    const session = new RemoteSession({ runner: new EngineRunner(), baseDir: dir });
    throwsWith(() => session.setParameter('R.1', 'R', 1), 'NO_CIRCUIT');
    await session.loadCircuit('rc.json');
    expect(throwsWith(() => session.setParameter('R.9', 'R', 1), 'UNKNOWN_COMPONENT').message).to.contain('R.1');
    expect(throwsWith(() => session.setParameter('R.1', 'Z', 1), 'UNKNOWN_PARAMETER').message).to.contain('its parameters: R');
    throwsWith(() => session.setParameter('R.1', 'R', Number.NaN), 'INVALID_ARGUMENT');
    throwsWith(() => session.setParameter('V.1', 'waveform', 1), 'INVALID_ARGUMENT');
    expect(throwsWith(() => session.setGlobalParameter('Vin', 1), 'UNKNOWN_PARAMETER').message).to.contain('$Rload');
    throwsWith(() => session.setTimeStep(-1), 'INVALID_ARGUMENT');
    await session.runSimulation();
    expect(throwsWith(() => session.getWaveform('SCOPE.1', 'ch7'), 'UNKNOWN_CHANNEL').message).to.contain('ch1');
    throwsWith(() => session.getMeasurement('SCOPE.1', 'ch1_mean'), 'UNKNOWN_CHANNEL');
    throwsWith(() => session.getWaveform('SCOPE.2', 'ch1'), 'UNKNOWN_CHANNEL');
    await rejectsWith(session.loadCircuit('missing.ipes'), 'FILE_NOT_FOUND');
    writeFileSync(join(dir, 'bad.json'), '{"settings": {');
    await rejectsWith(session.loadCircuit('bad.json'), 'CIRCUIT_INVALID');
  });

  it('stops a running simulation; the run ends CANCELLED and the session stays usable', async () => {
    let started: () => void = () => {};
    const progressed = new Promise<void>((resolve) => (started = resolve));
    const session = new RemoteSession({ runner: new EngineRunner(), baseDir: dir, onProgress: (p) => p.step > 0 && started() });
    await session.loadCircuit('rc.json');
    session.setEndTime(20);
    session.setTimeStep(1e-7);
    const run = session.runSimulation();
    await rejectsWith(session.runSimulation(), 'BUSY');
    await progressed; // the engine is stepping
    expect(session.stopSimulation()).to.equal(true);
    await rejectsWith(run, 'CANCELLED');
    expect(session.stopSimulation()).to.equal(false);
    session.setEndTime(1e-3);
    session.setTimeStep(1e-5);
    expect(await session.runSimulation()).to.be.a('string');
  });

  it('saves the changed circuit and exports the last run in three formats', async () => {
    const session = new RemoteSession({ runner: new EngineRunner(), baseDir: dir });
    await session.loadCircuit('rc.json');
    session.setParameter('C.1', 'C', 3e-6);
    const saved = await session.saveCircuit('saved.json');
    expect(JSON.parse(readFileSync(saved, 'utf8')).elements[2].params.C).to.equal(3e-6);
    expect(JSON.parse(readFileSync(saved, 'utf8')).elements[1].params.R).to.equal('$Rload');
    const ipes = await session.saveCircuit('saved.ipes');
    const reread = readCircuitBytes(readFileSync(ipes)).netlist;
    expect(reread.elements.find((e) => e.type === 'C')?.params?.C).to.equal(3e-6);
    await rejectsWith(session.saveCircuit('saved.txt'), 'INVALID_ARGUMENT');
    await rejectsWith(session.exportData('out.csv', 'csv'), 'NO_RESULT');
    await session.runSimulation();
    const csv = readFileSync(await session.exportData('out.csv', 'csv'), 'utf8').split('\n');
    expect(csv[0]).to.equal('time,SCOPE.1.ch1');
    const json = JSON.parse(readFileSync(await session.exportData('out.json', 'JSON' as 'json'), 'utf8'));
    expect(json.signals['SCOPE.1.ch1'].length).to.equal(json.time.length);
    expect(csv.length - 2).to.equal(json.time.length);
    const parquet = readFileSync(await session.exportData('out.parquet', 'parquet'));
    expect(parquet.subarray(0, 4).toString()).to.equal('PAR1');
    await rejectsWith(session.exportData('out.xls', 'xls' as 'csv'), 'INVALID_ARGUMENT');
  });

  it('saves a circuit with GeckoCIRCUITS names such as R.LISN1/3 in every format', async () => {
    const rc = rcStep('trapezoidal', 1e-5);
    rc.elements[1].name = 'R.LISN1/3';
    writeFileSync(join(dir, 'lisn.json'), JSON.stringify(rc));
    const session = new RemoteSession({ runner: new EngineRunner(), baseDir: dir });
    await session.loadCircuit('lisn.json');
    session.setParameter('R.LISN1/3', 'R', 2000);
    for (const file of ['lisn-saved.ipes', 'lisn-saved.json']) {
      const saved = await session.saveCircuit(file);
      const reread = readCircuitBytes(readFileSync(saved), saved).netlist;
      expect(reread.elements.find((e) => e.name === 'R.LISN1/3')?.params?.R, file).to.equal(2000);
    }
    expect(await session.saveCircuit('lisn-saved.cir')).to.match(/lisn-saved\.cir$/);
  });

  it('refuses paths outside its root, also through symbolic links', async () => {
    const root = join(dir, 'root');
    mkdirSync(root);
    writeFileSync(join(root, 'rc.json'), readFileSync(join(dir, 'rc.json')));
    symlinkSync(dir, join(root, 'up'));
    const session = new RemoteSession({ runner: new EngineRunner(), root });
    await session.loadCircuit('rc.json');
    await rejectsWith(session.loadCircuit('../rc.json'), 'PATH_OUTSIDE_ROOT');
    await rejectsWith(session.loadCircuit(join(dir, 'rc.json')), 'PATH_OUTSIDE_ROOT');
    await rejectsWith(session.loadCircuit('up/rc.json'), 'PATH_OUTSIDE_ROOT');
    await rejectsWith(session.saveCircuit('up/escaped.json'), 'PATH_OUTSIDE_ROOT');
    expect(await session.saveCircuit('sub/../kept.json')).to.equal(join(root, 'kept.json'));
  });
});
