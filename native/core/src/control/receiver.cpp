// CISPR16: the CISPR 16 EMI test receiver block (GeckoCIRCUITS ReglerCISPR16, control typ 60), one
// input and no outputs. During the run it records its input at every step from t = 0 on, as
// ReglerCISPR16's CisprCalculator stores every sample of the run; after the last step it analyses
// the record (pesim/cispr16.hpp, GeckoCIRCUITS TestReceiverCalculation / Cispr16Fft /
// QuasiPeakCalculator, interval mode of TestReceiverWindow) and adds to the result:
//  - the spectrum (Result::receivers): peak, quasi-peak and average levels in dBµV per frequency;
//  - measurements, per enabled detector d (qp, peak, avg): `<block>.<d>.max` (highest level, dBµV;
//    named `<block>.<d>_max` to users) and `<block>.<d>_max_frequency` (Hz); with the quasi-peak
//    detector also `<block>.qp_margin_class_a` / `_class_b`: the smallest distance in dB of the
//    quasi-peak levels below the class A / class B limit lines GeckoCIRCUITS draws
//    (TestReceiverWindow.getClassAValue / getClassBValue, 150 kHz to 30 MHz), negative when a
//    level exceeds its limit.
// Parameters: minFrequency (9 kHz), maxFrequency (2 MHz), interval (9 kHz), peak (1),
// quasiPeak (1), average (0), blackman (1) (GeckoCIRCUITS Cispr16Settings defaults).
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "control/catalog.hpp"
#include "pesim/cispr16.hpp"
#include "pesim/engine.hpp"
#include "pesim/errors.hpp"

namespace pesim {

namespace {

constexpr double kBandBLower = 150e3;  // Hz: below, the receiver bandwidth is 200 Hz; above, 9 kHz
constexpr std::size_t kMinimumSamples = 8;

// Quasi-peak limit lines of TestReceiverWindow (conducted emission, dBµV); NaN where undefined.
double classALimit(double f) {
  if (f < 150e3 || f >= 30e6) return std::numeric_limits<double>::quiet_NaN();
  return f < 500e3 ? 79.0 : 73.0;
}

double classBLimit(double f) {
  if (f < 150e3 || f >= 30e6) return std::numeric_limits<double>::quiet_NaN();
  if (f < 500e3) return 66.0 - 10.0 * std::log10(f / 150e3) / std::log10(500e3 / 150e3);
  return f < 5e6 ? 56.0 : 60.0;
}

bool flag(const Params& p, const std::string& key, bool fallback) {
  const double value = p.number(key, fallback ? 1.0 : 0.0);
  if (value != 0.0 && value != 1.0) p.outOfRange(key, "0 or 1");
  return value == 1.0;
}

std::string hertz(double f) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g Hz", f);
  return buffer;
}

class TestReceiver : public Block {
 public:
  Periodicity periodicity(double /*dt*/) const override {
    return {0.0, 0.0, "the CISPR16 receiver '" + name() + "' analyses a whole transient run"};
  }
  TestReceiver(std::string name, std::vector<int> inputs, const Params& p)
      : Block(std::move(name), std::move(inputs), {}) {
    settings_.minFrequency = p.positive("minFrequency", 9e3);
    settings_.maxFrequency = p.positive("maxFrequency", 2e6);
    settings_.interval = p.positive("interval", 9e3);
    settings_.peak = flag(p, "peak", true);
    settings_.quasiPeak = flag(p, "quasiPeak", true);
    settings_.average = flag(p, "average", false);
    settings_.blackman = flag(p, "blackman", true);
    if (settings_.maxFrequency < settings_.minFrequency) {
      p.outOfRange("maxFrequency", "at least minFrequency (" + hertz(settings_.minFrequency) + ")");
    }
  }

  void evaluate(ControlContext& ctx) override {
    if (ctx.t < -0.5 * ctx.dt) return;  // pre-simulation: not part of the record
    if (ctx.t > 0.0) dt_ = ctx.dt;
    samples_.push_back(in(ctx, 0));
  }

  void finish(Result& result, const std::function<void()>& poll) override {
    const std::string& block = name();
    if (samples_.size() < kMinimumSamples || !(dt_ > 0.0)) {
      result.warnings.push_back(block + ": the run recorded " + std::to_string(samples_.size()) +
                                " samples, the test receiver needs at least 8; no spectrum");
      return;
    }
    Cispr16Spectrum spectrum = cispr16Receiver(samples_, dt_, settings_, block, poll);
    samples_ = {};
    warnAboutRange(result, spectrum);
    addMeasurements(result, spectrum);
    result.receivers.push_back({block, std::move(spectrum)});
  }

 private:
  void warnAboutRange(Result& result, const Cispr16Spectrum& s) const {
    const std::string& block = name();
    const double highest = 1.0 / (2.5 * dt_);
    if (settings_.maxFrequency > highest) {
      result.warnings.push_back(block + ": maxFrequency " + hertz(settings_.maxFrequency) +
                                " is above the highest analysable frequency 1/(2.5·dt) = " + hertz(highest) +
                                "; the spectrum stops there");
    }
    bool bandA = false, bandB = false;
    for (double f : s.frequency) (f < kBandBLower ? bandA : bandB) = true;
    const double bandwidth = bandA ? 200.0 : 9e3;
    if ((bandA && s.resolution > 150.0) || (bandB && s.resolution > 8e3)) {
      result.warnings.push_back(block + ": the analysed record resolves frequencies every " + hertz(s.resolution) +
                                ", coarser than the " + hertz(bandwidth) +
                                " receiver bandwidth; simulate longer (the receiver analyses about the last half of the run)");
    }
    if (s.frequency.empty()) {
      result.warnings.push_back(block + ": no analysed frequency between minFrequency and maxFrequency");
    }
  }

  void addMeasurements(Result& result, const Cispr16Spectrum& s) const {
    const std::string& block = name();
    struct Detector {
      bool on;
      const char* key;
      const std::vector<double>* levels;
    };
    bool any = false;
    for (const Detector& d : {Detector{settings_.quasiPeak, "qp", &s.quasiPeak}, Detector{settings_.peak, "peak", &s.peak},
                              Detector{settings_.average, "avg", &s.average}}) {
      if (!d.on) continue;
      std::size_t best = s.frequency.size();
      for (std::size_t i = 0; i < s.frequency.size(); ++i) {
        const double level = (*d.levels)[i];
        if (std::isfinite(level) && (best == s.frequency.size() || level > (*d.levels)[best])) best = i;
      }
      if (best == s.frequency.size()) continue;
      any = true;
      result.measurements.push_back({block + "." + d.key + ".max", (*d.levels)[best]});
      result.measurements.push_back({block + "." + d.key + "_max_frequency", s.frequency[best]});
    }
    if (!any && !s.frequency.empty()) {
      result.warnings.push_back(block + ": the input has no content in the analysed frequencies (all levels are 0 V)");
    }
    if (settings_.quasiPeak) {
      addMargin(result, s, "qp_margin_class_a", classALimit);
      addMargin(result, s, "qp_margin_class_b", classBLimit);
    }
  }

  void addMargin(Result& result, const Cispr16Spectrum& s, const char* key, double (*limit)(double)) const {
    double margin = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < s.frequency.size(); ++i) {
      const double distance = limit(s.frequency[i]) - s.quasiPeak[i];
      if (std::isfinite(distance) && distance < margin) margin = distance;
    }
    if (std::isfinite(margin)) result.measurements.push_back({name() + "." + key, margin});
  }

  Cispr16Settings settings_;
  std::vector<double> samples_;
  double dt_ = 0.0;
};

BlockPtr testReceiver(BlockArgs& a) {
  if (a.inputs.size() != 1) {
    throw Error(ErrorCode::NetlistInvalid,
                a.name + ": a CISPR16 block takes 1 input, got " + std::to_string(a.inputs.size()), a.name);
  }
  return std::make_unique<TestReceiver>(a.name, std::move(a.inputs), a.params);
}

const BlockDescriptor kReceiverBlocks[] = {
    {"CISPR16", true, 0, testReceiver},
};

}  // namespace

BlockFamily receiverBlocks() { return blockFamily(kReceiverBlocks); }

}  // namespace pesim
