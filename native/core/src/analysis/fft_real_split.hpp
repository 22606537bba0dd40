// The last step of the real-input FFT (see fft.cpp, step 1): from Z = DFT_h(z), z[j] = x[2j] +
// i·x[2j+1], to bins 0..h of X = DFT_2h(x), in place.
#pragma once

#include <cstddef>

#include "analysis/fft_radix4.hpp"

namespace pesim::analysis::detail {

// z has h + 1 entries (h a power of two ≥ 1), z[0..h−1] = Z on entry, X[0..h] on return. roots has
// order 2h. avx2: use the AVX2 + FMA kernel (only when cpuHasAvx2Fma()).
void finishRealSpectrum(Cx* z, std::size_t h, const UnitRoots& roots, bool avx2);

}  // namespace pesim::analysis::detail
