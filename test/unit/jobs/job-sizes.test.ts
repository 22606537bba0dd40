import { expect } from 'chai';
import { jobSizes } from '../../../src/jobs/executors/bullmq/bridge.js';
import type { BridgeRun } from '../../../src/jobs/executors/bullmq/bridge-messages.js';
import { MAX_RUNS_PER_JOB } from '../../../src/jobs/executors/bullmq/protocol.js';
import type { Priority } from '../../../src/jobs/types.js';

const runs = (priorities: (Priority | undefined)[]): BridgeRun[] =>
  priorities.map((priority, id) => ({ id, taskId: `t${id}`, spec: { netlist: { elements: [] }, parameters: {} }, buffers: { flags: new SharedArrayBuffer(16), progress: new SharedArrayBuffer(64) }, priority }) as unknown as BridgeRun);
const shape = (jobs: BridgeRun[][]): number[][] => jobs.map((job) => job.map((run) => run.id));

describe('BullMQ jobs of several runs (jobSizes)', () => {
  it('gives each run a job of its own while the runs in flight are no more than two jobs per worker slot', () => {
    expect(shape(jobSizes(runs(['NORMAL']), 0, 1))).to.deep.equal([[0]]);
    expect(shape(jobSizes(runs(['NORMAL']), 2, 1))).to.deep.equal([[0]]);
    expect(shape(jobSizes(runs(Array(3).fill('NORMAL')), 0, 2))).to.deep.equal([[0], [1], [2]]);
    expect(shape(jobSizes(runs(Array(3).fill('NORMAL')), 0, 0))).to.deep.equal([[0], [1], [2]]);
  });

  it('puts a sweep\'s runs several to a job, in their order, at most MAX_RUNS_PER_JOB', () => {
    expect(shape(jobSizes(runs(Array(9).fill('NORMAL')), 0, 1))).to.deep.equal([[0, 1, 2, 3], [4, 5, 6, 7], [8]]);
    // The few runs handed over as others end, while the slot has eight in flight: one job.
    expect(shape(jobSizes(runs(Array(3).fill('NORMAL')), 6, 1))).to.deep.equal([[0, 1, 2]]);
    const many = jobSizes(runs(Array(100).fill('LOW')), 0, 1);
    expect(many.every((job) => job.length === MAX_RUNS_PER_JOB || job === many.at(-1))).to.equal(true);
    expect(many.flat().map((run) => run.id)).to.deep.equal([...Array(100).keys()]);
  });

  it('never puts runs of different priorities in one job (no priority given counts as NORMAL)', () => {
    const jobs = jobSizes(runs(['CRITICAL', 'CRITICAL', 'CRITICAL', undefined, 'NORMAL', 'NORMAL', 'LOW', 'LOW']), 0, 1);
    expect(shape(jobs)).to.deep.equal([[0, 1, 2], [3, 4, 5], [6, 7]]);
  });
});
