// The circuit repository: CRUD, byte-exact round trip of the uploaded source, newest-first paging,
// and refused writes leaving the stored circuit as it was.
import { expect } from 'chai';
import type { CircuitRecord } from '../../../src/store/types.js';
import { buck } from '../../fixtures/circuits.js';
import { at, circuitRecord, tempStore, thrown, type TempStore } from './helpers.js';

describe('store: circuits', () => {
  let t: TempStore;
  beforeEach(() => {
    t = tempStore();
  });
  afterEach(() => t.dispose());

  it('returns an inserted circuit as given, source bytes included', () => {
    const bytes = new Uint8Array(512);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 37) & 0xff; // every byte value, zeros included
    const circuit = circuitRecord('c1', { source: bytes, warnings: ['a', 'b'] });
    t.store.circuits.insert(circuit);
    const stored = t.store.circuits.get('c1')!;
    expect(stored).to.deep.equal(circuit);
    expect(stored.source).to.be.instanceOf(Uint8Array);
    expect(Array.from(stored.source!)).to.deep.equal(Array.from(bytes));
    expect(t.store.circuits.get('nope')).to.equal(undefined);
  });

  it('stores a view on a larger buffer as just its bytes, and a null source as null', () => {
    const backing = Uint8Array.from([9, 9, 1, 2, 3, 9]);
    t.store.circuits.insert(circuitRecord('view', { source: backing.subarray(2, 5) }));
    t.store.circuits.insert(circuitRecord('json', { format: 'json', source: null, warnings: [] }));
    expect(Array.from(t.store.circuits.get('view')!.source!)).to.deep.equal([1, 2, 3]);
    expect(t.store.circuits.get('json')).to.deep.equal(circuitRecord('json', { format: 'json', source: null, warnings: [] }));
  });

  it('lists newest first with paging and the total', () => {
    for (let i = 0; i < 7; i++) t.store.circuits.insert(circuitRecord(`c${i}`, { createdAt: at(i) }));
    const page = t.store.circuits.list(3, 2);
    expect(page.total).to.equal(7);
    expect(page.circuits.map((c) => c.id)).to.deep.equal(['c4', 'c3', 'c2']);
    expect(t.store.circuits.list(100, 0).circuits.map((c) => c.id)).to.deep.equal(['c6', 'c5', 'c4', 'c3', 'c2', 'c1', 'c0']);
    expect(t.store.circuits.list(10, 7)).to.deep.equal({ circuits: [], total: 7 });
  });

  it('updates given fields and returns the stored record', () => {
    t.store.circuits.insert(circuitRecord('c1'));
    const netlist = buck({ tEnd: 1e-3 });
    const updated = t.store.circuits.update('c1', { name: 'buck', netlist, source: Uint8Array.from([4, 5]) });
    expect(updated).to.deep.equal(circuitRecord('c1', { name: 'buck', netlist, source: Uint8Array.from([4, 5]) }));
    expect(t.store.circuits.get('c1')).to.deep.equal(updated);
    expect(t.store.circuits.update('c1', { source: null }).source).to.equal(null);
    expect(thrown(() => t.store.circuits.update('ghost', { name: 'x' })).code).to.equal('NOT_FOUND');
  });

  it('refuses invalid circuits and patches without changing what is stored', () => {
    const circuit = circuitRecord('c1');
    t.store.circuits.insert(circuit);
    const badPatches: Partial<CircuitRecord>[] = [
      { format: 'xml' as CircuitRecord['format'] },
      { netlist: [] as unknown as CircuitRecord['netlist'] },
      { source: 'bytes' as unknown as Uint8Array },
      { warnings: [1] as unknown as string[] },
      { name: 'ok', createdAt: 'not a time' },
    ];
    for (const patch of badPatches) expect(thrown(() => t.store.circuits.update('c1', patch)).code).to.equal('INVALID_RECORD');
    expect(t.store.circuits.get('c1')).to.deep.equal(circuit);
    expect(thrown(() => t.store.circuits.insert(circuitRecord('c2', { name: undefined as unknown as string }))).code).to.equal('INVALID_RECORD');
    expect(thrown(() => t.store.circuits.insert(circuitRecord('c1', { name: 'again' }))).code).to.equal('ALREADY_EXISTS');
    expect(t.store.circuits.list(10, 0)).to.deep.equal({ circuits: [circuit], total: 1 });
  });

  it('deletes a circuit and says whether there was one', () => {
    t.store.circuits.insert(circuitRecord('c1'));
    t.store.circuits.insert(circuitRecord('c2'));
    expect(t.store.circuits.delete('c1')).to.equal(true);
    expect(t.store.circuits.delete('c1')).to.equal(false);
    expect(t.store.circuits.get('c1')).to.equal(undefined);
    expect(t.store.circuits.list(10, 0).circuits.map((c) => c.id)).to.deep.equal(['c2']);
  });
});
