// The netlist contract: schema errors name the field; overrides and `$name` references resolve.
import { expect } from 'chai';
import { assertNetlistShape, channelKeys, resolveNetlist, resolveNetlistSharing, scopeChannels, type Netlist } from '../../src/formats/netlist.js';
import { checkJsonParameterNames, checkParameterNames, simulateSync } from '../../src/engine/index.js';
import { NetlistError } from '../../src/formats/errors.js';
import { buck, rcStep } from '../fixtures/circuits.js';

function withGlobals(): Netlist {
  const n = rcStep('backward-euler', 1e-5);
  n.parameters = { Rload: 2000, Vin: 5 };
  n.elements[0].params = { waveform: 'dc', value: '$Vin' };
  n.elements[1].params = { R: '$Rload' };
  return n;
}

describe('netlist', () => {
  it('numbers scope channels as the engine does: each input, then its mean-value channel', () => {
    const n = rcStep('backward-euler', 1e-5);
    const scope = n.blocks!.find((b) => b.type === 'SCOPE')!;
    const input = scope.inputs![0];
    scope.inputs = [input, input, input];
    scope.params = { meanInputs: [3, 1], meanSpans: [1e-4, 1e-4], channelNames: ['a', '<a>', 'b', 'c', '<c>'] };
    expect(scopeChannels(scope).map((c) => [c.key, c.label, c.input, c.mean])).to.deep.equal([
      [`${scope.name}.ch1`, 'a', 0, false], [`${scope.name}.ch2`, '<a>', 0, true], [`${scope.name}.ch3`, 'b', 1, false],
      [`${scope.name}.ch4`, 'c', 2, false], [`${scope.name}.ch5`, '<c>', 2, true]]);
    const result = simulateSync(n);
    expect(result.channels.map((c) => `${c.key} ${c.label}`)).to.deep.equal(scopeChannels(scope).map((c) => `${c.key} ${c.label}`));
    expect(Object.keys(result.signals)).to.have.members(channelKeys(n));
  });

  it('accepts a well-formed netlist and names the field of a malformed one', () => {
    expect(() => assertNetlistShape(rcStep('trapezoidal', 1e-5))).to.not.throw();
    const bad = rcStep('trapezoidal', 1e-5) as unknown as { settings: { dt: unknown } };
    bad.settings.dt = 'fast';
    try {
      assertNetlistShape(bad);
      expect.fail('expected a NetlistError');
    } catch (error) {
      expect(error).to.be.instanceOf(NetlistError);
      expect((error as NetlistError).details[0].field).to.equal('settings.dt');
    }
  });

  it('rejects unknown properties and solver names', () => {
    const n = rcStep('trapezoidal', 1e-5) as unknown as Record<string, unknown>;
    n.extra = 1;
    expect(() => assertNetlistShape(n)).to.throw(NetlistError, /unknown property 'extra'/);
    const s = rcStep('trapezoidal', 1e-5) as unknown as { settings: { solver: string } };
    s.settings.solver = 'euler';
    expect(() => assertNetlistShape(s)).to.throw(NetlistError, /settings\.solver must be one of/);
  });

  it('resolves $name references from the global parameters', () => {
    const r = resolveNetlist(withGlobals());
    expect(r.elements[0].params!.value).to.equal(5);
    expect(r.elements[1].params!.R).to.equal(2000);
  });

  it('applies overrides of globals and of component parameters without touching the input', () => {
    const input = withGlobals();
    const r = resolveNetlist(input, { $Vin: 12, 'C.1.C': 2e-6 });
    expect(r.elements[0].params!.value).to.equal(12);
    expect(r.elements[2].params!.C).to.equal(2e-6);
    expect(input.elements[2].params!.C).to.equal(1e-6);
    expect(input.elements[0].params!.value).to.equal('$Vin');
  });

  it('resolveNetlistSharing gives the same netlist as resolveNetlist and leaves its input as it was', () => {
    const input = withGlobals();
    const before = structuredClone(input);
    const shared = resolveNetlistSharing(input, { $Vin: 12, 'C.1.C': 2e-6 });
    expect(shared).to.deep.equal(resolveNetlist(input, { $Vin: 12, 'C.1.C': 2e-6 }));
    expect(input, 'input unchanged').to.deep.equal(before);
    expect(shared.elements[0].params, 'changed parameter objects are new').to.not.equal(input.elements[0].params);
  });

  it('refuses a parameter nothing reads, naming it and the parameters its element reads', () => {
    const n = buck();
    n.blocks![0].params = { ...n.blocks![0].params, dutty: 0.2 };
    n.elements[5].params = { R: '$Rload', Rr: 1 };
    n.parameters = { Rload: 5 };
    let error: unknown;
    try {
      checkParameterNames(n);
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(NetlistError);
    const details = (error as NetlistError).details;
    expect(details.map((d) => d.field)).to.deep.equal(['R.1.Rr', 'SIGNAL.1.dutty']);
    expect(details[1].message).to.match(/^unknown parameter 'dutty': SIGNAL\.1 \(SIGNAL\) reads .*\bduty\b.*\bwaveform\b/);
    expect((error as NetlistError).code).to.equal('NETLIST_INVALID');
    // Every parameter of the fixtures is read; only JSON netlists are checked.
    for (const good of [buck(), rcStep('trapezoidal', 1e-5), withGlobals()]) expect(() => checkParameterNames(good)).not.to.throw();
    expect(() => checkJsonParameterNames({ format: 'ipes', netlist: n })).not.to.throw();
    expect(() => checkJsonParameterNames({ format: 'json', netlist: n })).to.throw(NetlistError, /SIGNAL\.1\.dutty|R\.1\.Rr/);
  });

  it('names unknown override keys and undefined references', () => {
    expect(() => resolveNetlist(withGlobals(), { 'R.7.R': 1 })).to.throw(NetlistError, /R\.7\.R/);
    expect(() => resolveNetlist(withGlobals(), { $nope: 1 })).to.throw(NetlistError, /\$nope/);
    const n = withGlobals();
    n.elements[2].params = { C: '$Cx' };
    expect(() => resolveNetlist(n)).to.throw(NetlistError, /C\.1\.C refers to undefined global parameter \$Cx/);
  });
});
