// simulateSync's `reuse` option: a run records into the memory of an earlier result's arrays when
// they are large enough, with the same values as a run into fresh arrays; arrays too small,
// detached or offered twice are not used (or used once); bad arguments are refused by field.
import { expect } from 'chai';
import { simulateSync, type SimulationResult } from '../../src/index.js';
import { buck } from '../fixtures/circuits.js';
import { thrown } from '../fixtures/thrown.js';

const arraysOf = (r: SimulationResult): Float64Array[] => [r.time, ...Object.values(r.signals)];
const copies = (r: SimulationResult): Float64Array[] => arraysOf(r).map((a) => a.slice());

describe('simulateSync reuse of result memory', () => {
  const netlist = buck({ tEnd: 2e-4 });
  const other = buck({ tEnd: 2e-4, duty: 0.3 });

  it('records into the offered buffers and gives the values of a run into fresh arrays', () => {
    const fresh = copies(simulateSync(other));
    const first = simulateSync(netlist);
    const buffers = arraysOf(first).map((a) => a.buffer);
    const second = simulateSync(other, { reuse: arraysOf(first) });
    const reused = arraysOf(second);
    expect(reused.map((a) => a.buffer)).to.have.members(buffers);
    expect(reused.map((a) => Array.from(a))).to.deep.equal(fresh.map((a) => Array.from(a)));
  });

  it('leaves buffers too small for the run alone', () => {
    const short = simulateSync(buck({ tEnd: 1e-5 }));
    const long = simulateSync(netlist, { reuse: arraysOf(short) });
    const offered = new Set(arraysOf(short).map((a) => a.buffer));
    for (const array of arraysOf(long)) expect(offered.has(array.buffer)).to.equal(false);
    expect(Array.from(long.time)).to.deep.equal(Array.from(simulateSync(netlist).time));
  });

  it('uses a buffer offered several times for one array only', () => {
    const first = simulateSync(netlist);
    const second = simulateSync(netlist, { reuse: [first.time, first.time, first.time] });
    const sharing = arraysOf(second).filter((a) => a.buffer === first.time.buffer);
    expect(sharing).to.have.length(1);
    expect(Array.from(second.time)).to.deep.equal(Array.from(simulateSync(netlist).time));
  });

  it('ignores a detached buffer', () => {
    const first = simulateSync(netlist);
    structuredClone(first.time.buffer, { transfer: [first.time.buffer] });
    const second = simulateSync(netlist, { reuse: [first.time] });
    expect(second.time.length).to.be.greaterThan(0);
    expect(Array.from(second.time)).to.deep.equal(Array.from(simulateSync(netlist).time));
  });

  it('refuses a reuse list of the wrong shape, naming the field', () => {
    const notArray = thrown(() => simulateSync(netlist, { reuse: 'x' as never }));
    expect(notArray.code).to.equal('NETLIST_INVALID');
    expect(notArray.field).to.equal('reuse');
    const wrongType = thrown(() => simulateSync(netlist, { reuse: [new Float64Array(4), new Float32Array(4) as never] }));
    expect(wrongType.code).to.equal('NETLIST_INVALID');
    expect(wrongType.field).to.equal('reuse[1]');
  });
});
