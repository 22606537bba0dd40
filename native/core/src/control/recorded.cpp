// Sources defined by data rather than a formula: PWL (a time/value table, linearly interpolated,
// repeated with the table's length as period) and RANDOM (a seeded random walk).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

#include "control/catalog.hpp"
#include "pesim/errors.hpp"

namespace pesim {

namespace {

// PWL: y(t) by linear interpolation in (times, values). With `repeat` (default 1) the table is
// periodic with period T = times[last] − times[0]: y(t) = table(times[0] + (t − times[0]) mod T),
// as GeckoCIRCUITS repeats an imported signal (ReglerSignalSource / SignalCalculatorImport);
// without it the first value holds before the table and the last value after it.
class PiecewiseLinear : public Block {
 public:
  PiecewiseLinear(std::string name, std::vector<int> outputs, const Params& p)
      : Block(std::move(name), {}, std::move(outputs)), times_(p.array("times")), values_(p.array("values")),
        repeat_(p.number("repeat", 1.0) != 0.0) {
    if (times_.size() < 2) p.outOfRange("times", "at least two points");
    if (values_.size() != times_.size()) p.outOfRange("values", "one value per time (" + std::to_string(times_.size()) + ")");
    for (std::size_t i = 1; i < times_.size(); ++i) {
      if (!(times_[i] > times_[i - 1])) {
        p.outOfRange("times", "strictly increasing times (entry " + std::to_string(i) + ": " +
                                  std::to_string(times_[i]) + " after " + std::to_string(times_[i - 1]) + ")");
      }
    }
    for (double v : values_) {
      if (!std::isfinite(v)) p.outOfRange("values", "finite numbers");
    }
  }
  bool feedthrough() const override { return false; }
  void evaluate(ControlContext& ctx) override { out(ctx, at(ctx.t)); }
  Periodicity periodicity(double /*dt*/) const override {
    Periodicity p;
    if (repeat_) p.period = times_.back() - times_.front();
    else p.from = times_.back();  // constant after the last point
    return p;
  }

 private:
  double at(double t) const {
    const double first = times_.front();
    const double last = times_.back();
    if (repeat_) {
      const double period = last - first;
      t = first + (t - first - period * std::floor((t - first) / period));
    }
    if (t <= first) return values_.front();
    if (t >= last) return values_.back();
    const std::size_t k = static_cast<std::size_t>(std::upper_bound(times_.begin(), times_.end(), t) - times_.begin());
    const double t0 = times_[k - 1], t1 = times_[k];
    return values_[k - 1] + (values_[k] - values_[k - 1]) * (t - t0) / (t1 - t0);
  }

  std::vector<double> times_;
  std::vector<double> values_;
  bool repeat_;
};

// FNV-1a of the block name: two RANDOM blocks of one netlist draw different sequences.
std::uint64_t nameHash(const std::string& name) {
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : name) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

// RANDOM: a random walk, y(n) = y(n−1) + u(n), u uniform in [−1, 1) times `step` (default 1),
// y = 0 before the first step (GeckoCIRCUITS: SignalCalculatorRandom). The generator is the
// 64-bit Mersenne Twister seeded from the run's seed and the block name, so runs repeat exactly.
class RandomWalk : public Block {
 public:
  RandomWalk(std::string name, std::vector<int> outputs, const Params& p, std::uint64_t seed)
      : Block(std::move(name), {}, std::move(outputs)), step_(p.number("step", 1.0)),
        rng_(seed ^ nameHash(this->name())) {}
  bool feedthrough() const override { return false; }
  void evaluate(ControlContext& ctx) override {
    if (!ctx.initial) {
      // 53 random bits → [0, 1) exactly, independent of the standard library's distributions.
      const double u = static_cast<double>(rng_() >> 11) * (1.0 / 9007199254740992.0);
      y_ += step_ * (1.0 - 2.0 * u);
    }
    out(ctx, y_);
  }
  Periodicity periodicity(double /*dt*/) const override {
    return {0.0, 0.0, "the RANDOM block '" + name() + "' never repeats"};
  }

 private:
  double step_;
  std::mt19937_64 rng_;
  double y_ = 0.0;
};

BlockPtr piecewiseLinear(BlockArgs& a) { return std::make_unique<PiecewiseLinear>(a.name, std::move(a.outputs), a.params); }

BlockPtr randomWalk(BlockArgs& a) { return std::make_unique<RandomWalk>(a.name, std::move(a.outputs), a.params, a.seed); }

const BlockDescriptor kRecordedBlocks[] = {
    {"PWL", false, 1, piecewiseLinear},
    {"RANDOM", false, 1, randomWalk},
};

}  // namespace

BlockFamily recordedBlocks() { return blockFamily(kRecordedBlocks); }

}  // namespace pesim
