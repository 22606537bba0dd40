// Input checks of the analysis functions (see validate.hpp).
#include "analysis/validate.hpp"

#include <cmath>
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

}  // namespace

void requireSamples(const double* data, std::size_t size) {
  if (size == 0 || data == nullptr) fail("data", "data must contain at least one sample");
  if (size > kMaxSamples) {
    fail("data", "data has " + std::to_string(size) + " samples; at most " + std::to_string(kMaxSamples) +
                     " are accepted");
  }
  for (std::size_t i = 0; i < size; ++i) {
    if (!std::isfinite(data[i])) {
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
