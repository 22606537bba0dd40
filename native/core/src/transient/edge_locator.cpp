// Locating gate edges between steps (see edge_locator.hpp).
#include "transient/edge_locator.hpp"

#include <algorithm>
#include <limits>

namespace pesim {

namespace {
constexpr double kGateThreshold = 0.5;  // as the time loop's
}  // namespace

EdgeLocator::EdgeLocator(std::vector<Block*> cone, std::vector<int> gateSignals, std::size_t signalCount)
    : cone_(std::move(cone)), gateSignals_(std::move(gateSignals)), probe_(signalCount, 0.0) {
  for (Block* block : cone_) {
    if (block->timeVarying()) jumping_.push_back(block);
  }
}

void EdgeLocator::begin(const double* signals, double dt) {
  held_ = signals;
  copied_ = false;
  dt_ = dt;
}

double EdgeLocator::next(double from, double to, const double* gates, double tolerance) {
  for (double a = from;;) {
    const double jump = nextJump(a + tolerance);
    // A jump at the step's end (or none before it) is the next evaluation's.
    if (!(jump < to - tolerance)) return std::numeric_limits<double>::infinity();
    evaluateAt(jump);  // the values just after the jump (Block::nextJump)
    if (differs(gates)) return jump;
    a = jump;
  }
}

void EdgeLocator::evaluateAt(double t) {
  if (!copied_) {
    std::copy(held_, held_ + probe_.size(), probe_.begin());
    copied_ = true;
  }
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

double EdgeLocator::nextJump(double after) {
  // Asked every step, the answer changes only once a jump is passed: no jump lies in
  // [jumpAsked_, jump_), so the one kept answers any time in there (also when time restarts).
  if (after >= jumpAsked_ && after < jump_) return jump_;
  double first = std::numeric_limits<double>::infinity();
  for (const Block* block : jumping_) first = std::min(first, block->nextJump(after));
  jumpAsked_ = after;
  jump_ = first;
  return first;
}

}  // namespace pesim
