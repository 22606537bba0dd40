// The services' V8 tuning: the interrupt budget set from PESIM_V8_INTERRUPT_BUDGET (none by default,
// V8's own), none when 0 or when the node command line gives one, a clear error for a bad value.
import { expect } from 'chai';
import { SERVICE_INTERRUPT_BUDGET, tuneV8ForService } from '../../../src/http/v8-tuning.js';

describe('tuneV8ForService', () => {
  const run = (env: NodeJS.ProcessEnv, execArgv: string[] = []): { budget: number | undefined; flags: string[] } => {
    const flags: string[] = [];
    const budget = tuneV8ForService({ env, execArgv, setFlags: (f) => flags.push(f) });
    return { budget, flags };
  };

  it('keeps V8\'s own budget by default', () => {
    expect(SERVICE_INTERRUPT_BUDGET).to.equal(0);
    expect(run({})).to.deep.equal({ budget: undefined, flags: [] });
  });

  it('takes PESIM_V8_INTERRUPT_BUDGET, and 0 keeps V8\'s own', () => {
    expect(run({ PESIM_V8_INTERRUPT_BUDGET: '65536' })).to.deep.equal({ budget: 65536, flags: ['--interrupt-budget=65536'] });
    expect(run({ PESIM_V8_INTERRUPT_BUDGET: '0' })).to.deep.equal({ budget: undefined, flags: [] });
  });

  it('keeps a budget given on the node command line', () => {
    expect(run({}, ['--interrupt-budget=1000'])).to.deep.equal({ budget: undefined, flags: [] });
    expect(run({}, ['--interrupt_budget', '1000'])).to.deep.equal({ budget: undefined, flags: [] });
  });

  it('refuses a value that is not a non-negative integer, naming the variable', () => {
    for (const bad of ['-1', '1.5', 'fast', '1e400']) {
      expect(() => run({ PESIM_V8_INTERRUPT_BUDGET: bad })).to.throw(/PESIM_V8_INTERRUPT_BUDGET must be a non-negative integer/);
    }
  });
});
