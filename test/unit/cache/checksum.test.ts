// The column checksum of result files, computed in the addon: the same value as zlib's CRC-32 of
// the column's bytes (with NaNs made canonical) for many lengths, NaN payloads and positions, and a
// clear error for anything but a Float64Array.
import { expect } from 'chai';
import { crc32 } from 'node:zlib';
import { columnChecksum } from '../../../src/jobs/cache/formats/meta.js';

/** The definition: zlib's CRC-32 over the bytes, each NaN written as the canonical NaN first. */
function reference(values: Float64Array): number {
  const canonical = values.map((v) => (Number.isNaN(v) ? NaN : v));
  return crc32(new Uint8Array(canonical.buffer, canonical.byteOffset, canonical.byteLength));
}

function wave(n: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => Math.sin(i * 1e-3) * 325 + i * 1e-9);
}

describe('column checksum (addon)', () => {
  it('equals zlib\'s CRC-32 of the bytes for lengths around every block boundary', () => {
    for (const n of [0, 1, 2, 7, 8, 9, 15, 16, 17, 255, 256, 257, 1000, 10_001, 131_073, 1_000_003]) {
      const values = wave(n);
      expect(columnChecksum(values), `n = ${n}`).to.equal(reference(values));
    }
  });

  it('reads a view at an offset into its buffer', () => {
    const values = wave(5000).subarray(3, 4003);
    expect(columnChecksum(values)).to.equal(reference(values));
  });

  it('takes NaNs with payloads as the canonical NaN wherever they are', () => {
    const n = 3000;
    for (const at of [0, 1, 255, 256, 1999, n - 1]) {
      const values = wave(n);
      const bits = new BigUint64Array(values.buffer);
      bits[at] = 0xfff0000000000123n; // a negative signalling NaN with a payload
      const canonical = values.slice();
      canonical[at] = NaN;
      expect(columnChecksum(values), `NaN at ${at}`).to.equal(reference(canonical));
      expect(columnChecksum(values)).to.equal(columnChecksum(canonical));
    }
  });

  it('refuses anything but a Float64Array, naming the argument', () => {
    for (const bad of [new Float32Array(4), [1, 2], 'x', undefined]) {
      expect(() => columnChecksum(bad as unknown as Float64Array)).to.throw(/values must be a Float64Array/).with.property('code', 'ENCODE_INVALID');
    }
  });
});
