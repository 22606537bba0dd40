// Input checks of the analysis functions (see validate.hpp).
#include "analysis/validate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>

#include "pesim/analysis.hpp"
#include "pesim/errors.hpp"

namespace pesim::analysis::detail {

namespace {

[[noreturn]] void fail(const std::string& field, const std::string& message) {
  throw InputError(ErrorCode::AnalysisInvalid, field, message);
}

std::string number(double value) {
  std::ostringstream out;
  out.precision(12);
  out << value;
  return out.str();
}

// Whether data[0..count) holds a NaN or ±∞ (IEEE 754 binary64: the 11 exponent bits all ones).
// Adding 1 to the exponent field carries into the sign bit exactly when the field is all ones, so
// an OR over the sums has its top bit set iff one sample is not finite. Branch free, so the
// compiler vectorises it (the form with a comparison per sample it does not).
bool anyNonFinite(const double* data, std::size_t count) {
  constexpr std::uint64_t exponentBits = 0x7FF0000000000000ULL;
  constexpr std::uint64_t exponentOne = 0x0010000000000000ULL;
  std::uint64_t carries = 0;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t bits;
    std::memcpy(&bits, data + i, sizeof bits);
    carries |= (bits & exponentBits) + exponentOne;
  }
  return (carries >> 63) != 0;
}

}  // namespace

void requireSampleCount(const double* data, std::size_t size) {
  if (size == 0 || data == nullptr) fail("data", "data must contain at least one sample");
  if (size > kMaxSamples) {
    fail("data", "data has " + std::to_string(size) + " samples; at most " + std::to_string(kMaxSamples) +
                     " are accepted");
  }
}

void requireSamples(const double* data, std::size_t size) {
  requireSampleCount(data, size);
  constexpr std::size_t block = 4096;  // the exact index is searched only in a block that has one
  for (std::size_t begin = 0; begin < size; begin += block) {
    const std::size_t end = std::min(size, begin + block);
    if (!anyNonFinite(data + begin, end - begin)) continue;
    for (std::size_t i = begin; i < end; ++i) {
      if (std::isfinite(data[i])) continue;
      const std::string field = "data[" + std::to_string(i) + "]";
      fail(field, field + " is " + number(data[i]) + "; every sample must be a finite number");
    }
  }
}

void requireSampleRate(double sampleRate) {
  if (!std::isfinite(sampleRate) || sampleRate <= 0.0) {
    fail("sampleRate", "sampleRate must be a positive finite number of samples per second, got " + number(sampleRate));
  }
}

void requireHarmonics(int harmonics) {
  if (harmonics < 1 || harmonics > kMaxHarmonics) {
    fail("harmonics", "harmonics must be an integer from 1 to " + std::to_string(kMaxHarmonics) + ", got " +
                          std::to_string(harmonics));
  }
}

void requireBaseFrequency(double baseFrequency, double sampleRate, std::size_t size) {
  if (!std::isfinite(baseFrequency) || baseFrequency <= 0.0) {
    fail("baseFrequency", "baseFrequency must be a positive finite frequency in Hz, got " + number(baseFrequency));
  }
  if (baseFrequency > sampleRate / 2.0) {
    fail("baseFrequency", "baseFrequency " + number(baseFrequency) + " Hz is above the Nyquist frequency " +
                              number(sampleRate / 2.0) + " Hz (sampleRate / 2)");
  }
  const double samplesPerPeriod = sampleRate / baseFrequency;
  if (static_cast<double>(size) < samplesPerPeriod * (1.0 - 1e-9)) {
    fail("baseFrequency", "the data spans " + number(static_cast<double>(size) / sampleRate) +
                              " s, less than one period (" + number(1.0 / baseFrequency) + " s) of baseFrequency " +
                              number(baseFrequency) + " Hz");
  }
}

}  // namespace pesim::analysis::detail
