// The Node API's measurement names: `SCOPE.1.ch1_avg` (the specification's form) in results and
// accepted, the native engine's dotted spelling `SCOPE.1.ch1.avg` accepted as an alias; a real run.
import { expect } from 'chai';
import { engineMeasurementKey, measurement, measurementName, namedMeasurements, simulate } from '../../src/index.js';
import { rcStep } from '../fixtures/circuits.js';

describe('measurement names (Node API)', () => {
  it('converts between the engine key and the name both ways', () => {
    expect(measurementName('SCOPE.1.ch1.avg')).to.equal('SCOPE.1.ch1_avg');
    expect(measurementName('SCOPE.1.ch1_rms')).to.equal('SCOPE.1.ch1_rms');
    expect(engineMeasurementKey('SCOPE.1.ch2_max')).to.equal('SCOPE.1.ch2.max');
    expect(engineMeasurementKey('SCOPE.1.ch2.min')).to.equal('SCOPE.1.ch2.min');
  });

  it('keys a run\'s measurements by name, reads them by name and by the alias, and lists the names on a miss', async () => {
    const result = await simulate(rcStep('trapezoidal', 1e-5));
    expect(Object.keys(result.measurements).sort()).to.deep.equal(['SCOPE.1.ch1_avg', 'SCOPE.1.ch1_max', 'SCOPE.1.ch1_min', 'SCOPE.1.ch1_rms']);
    expect(namedMeasurements(result.measurements)).to.deep.equal(result.measurements);
    expect(measurement(result, 'SCOPE.1.ch1_avg')).to.equal(result.measurements['SCOPE.1.ch1_avg']);
    expect(measurement(result, 'SCOPE.1.ch1.avg')).to.equal(result.measurements['SCOPE.1.ch1_avg']);
    expect(() => measurement(result, 'SCOPE.1.ch9_avg')).to.throw(/no measurement "SCOPE.1.ch9_avg".*SCOPE\.1\.ch1_avg/);
  });
});
