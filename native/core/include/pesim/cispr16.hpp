// CISPR 16 EMI test receiver: the analysis GeckoCIRCUITS runs on the signal recorded by its CISPR16
// block after a simulation (GeckoCIRCUITS: ReglerCISPR16, TestReceiverCalculation, Cispr16Fft,
// QuasiPeakCalculator). The block computes nothing during the run; this is a post-run analysis of
// the uniformly sampled record of its input.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace pesim {

struct Cispr16Settings {
  double minFrequency = 9e3;      // Hz, first analysed frequency (rounded down to an FFT bin)
  double maxFrequency = 2e6;      // Hz, last analysed frequency
  double interval = 9e3;          // Hz, spacing of the analysed frequencies
  bool peak = true;               // compute the peak detector
  bool quasiPeak = true;          // compute the quasi-peak detector
  bool average = false;           // compute the average detector
  bool blackman = true;           // Blackman window on the record (removed again after filtering)
};

// Levels in dBµV (20·log10(v / 1 µV), v an RMS value); NaN where a detector is off or v ≤ 0.
struct Cispr16Spectrum {
  double resolution = 0.0;        // Hz, spacing of the analysed FFT bins: 1/(N·dt), N samples analysed
  std::vector<double> frequency;  // Hz
  std::vector<double> peak;
  std::vector<double> quasiPeak;
  std::vector<double> average;
};

// Analyses `samples` taken every `dt` seconds (at least 8 samples). Throws pesim::Error
// (ParameterOutOfRange or AnalysisInvalid, naming `block`) on bad settings. `poll`, when given, is
// called before each analysed frequency; it may throw to stop the analysis (a cancelled run).
Cispr16Spectrum cispr16Receiver(const std::vector<double>& samples, double dt, const Cispr16Settings& settings,
                                const std::string& block, const std::function<void()>& poll = {});

}  // namespace pesim
