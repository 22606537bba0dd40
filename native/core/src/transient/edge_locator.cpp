// Locating gate edges between steps (see edge_locator.hpp).
#include "transient/edge_locator.hpp"

#include <algorithm>
#include <limits>

namespace pesim {

namespace {
constexpr double kGateThreshold = 0.5;  // as the time loop's
// Bisection halvings at most: from one step to 1e-6 of it takes 20.
constexpr int kMaxHalvings = 60;
}  // namespace

EdgeLocator::EdgeLocator(std::vector<Block*> cone, std::vector<int> gateSignals, std::size_t signalCount)
    : cone_(std::move(cone)), gateSignals_(std::move(gateSignals)), probe_(signalCount, 0.0) {
  for (Block* block : cone_) {
    if (block->timeVarying()) jumping_.push_back(block);
  }
}

void EdgeLocator::begin(const double* signals, double dt) {
  std::copy(signals, signals + probe_.size(), probe_.begin());
  dt_ = dt;
}

double EdgeLocator::next(double from, double to, const double* gates, double tolerance) {
  constexpr double kNone = std::numeric_limits<double>::infinity();
  double a = from;  // the gates are still `gates` at a
  while (a < to - tolerance) {
    const double jump = nextJump(a + tolerance);
    // Between a and the next jump the signals are continuous: look just before its end.
    const double b = jump <= to ? jump - tolerance : to;
    if (b > a) {
      evaluateAt(b);
      if (differs(gates)) {
        double lo = a, hi = b;
        for (int i = 0; i < kMaxHalvings && hi - lo > tolerance; ++i) {
          const double mid = 0.5 * (lo + hi);
          evaluateAt(mid);
          (differs(gates) ? hi : lo) = mid;
        }
        evaluateAt(hi);
        return hi < to - tolerance ? hi : kNone;
      }
    }
    if (jump >= to - tolerance) return kNone;  // a jump at the step's end is the next step's start
    evaluateAt(jump);  // the value just after the jump (Block::nextJump)
    if (differs(gates)) return jump;
    a = jump;
  }
  return kNone;
}

void EdgeLocator::evaluateAt(double t) {
  ControlContext ctx{t, dt_, probe_.data(), nullptr, false};
  for (Block* block : cone_) block->evaluate(ctx);
}

bool EdgeLocator::differs(const double* gates) const {
  for (int g : gateSignals_) {
    const auto i = static_cast<std::size_t>(g);
    if ((probe_[i] > kGateThreshold) != (gates[i] > kGateThreshold)) return true;
  }
  return false;
}

double EdgeLocator::nextJump(double after) const {
  double first = std::numeric_limits<double>::infinity();
  for (const Block* block : jumping_) first = std::min(first, block->nextJump(after));
  return first;
}

}  // namespace pesim
