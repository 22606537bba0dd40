// Input checks shared by the analysis functions: each failure is an InputError naming its field.
#pragma once

#include <cstddef>
#include <optional>

namespace pesim::analysis::detail {

void requireSampleCount(const double* data, std::size_t size);  // non-empty, at most kMaxSamples
void requireSamples(const double* data, std::size_t size);      // the count, and every sample finite
void requireSampleRate(double sampleRate);
void requireHarmonics(int harmonics);
// f0 > 0, at most the Nyquist frequency, and at least one whole period inside the data.
void requireBaseFrequency(double baseFrequency, double sampleRate, std::size_t size);

}  // namespace pesim::analysis::detail
