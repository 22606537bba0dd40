// The common period of the sources (see period.hpp).
#include "steady/period.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "pesim/errors.hpp"

namespace pesim {

namespace {

constexpr long kMaxMultiple = 1000;
constexpr double kRatioTolerance = 1e-9;

[[noreturn]] void refuse(const std::string& why) {
  throw Error(ErrorCode::SteadyStateUnsupported, "steady state: " + why, "settings");
}

std::string seconds(double t) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g s", t);
  return text;
}

// The smallest k ≤ kMaxMultiple for which k·x is a whole number (to 1e-9 relative), or 0.
long wholeMultiple(double x) {
  for (long k = 1; k <= kMaxMultiple; ++k) {
    const double kx = static_cast<double>(k) * x;
    if (std::fabs(kx - std::round(kx)) <= kRatioTolerance * std::max(1.0, kx)) return k;
  }
  return 0;
}

}  // namespace

double commonPeriod(double a, double b) {
  const long k = wholeMultiple(a / b);  // k·a = m·b
  return k == 0 || std::round(static_cast<double>(k) * a / b) > kMaxMultiple ? 0.0 : static_cast<double>(k) * a;
}

namespace {

// The period of the analysis, or why there is none (`refusal`, then `result` is empty).
struct PeriodSearch {
  SteadyPeriod result;
  std::string refusal;
};

PeriodSearch searchPeriod(Circuit& circuit, double dt, double given) {
  PeriodSearch search;
  SteadyPeriod& result = search.result;
  double period = 0.0;
  std::string first;  // the source the common period started from (for messages)
  auto take = [&](const Periodicity& p, const std::string& name) {
    if (!search.refusal.empty()) return;
    if (!p.refusal.empty()) {
      search.refusal = p.refusal + ", so the circuit has no periodic steady state";
      return;
    }
    result.from = std::max(result.from, p.from);
    if (!(p.period > 0.0) || given > 0.0) return;
    if (period == 0.0) {
      period = p.period;
      first = name;
      return;
    }
    const double common = commonPeriod(period, p.period);
    if (common == 0.0) {
      search.refusal = "the periods of '" + first + "' (" + seconds(period) + ") and '" + name + "' (" +
                       seconds(p.period) + ") have no common multiple within " + std::to_string(kMaxMultiple) +
                       " periods; give the period";
      return;
    }
    period = common;
  };
  for (const auto& e : circuit.elements()) take(e->periodicity(), e->name());
  for (const auto& b : circuit.control().blocks()) take(b->periodicity(dt), b->name());
  if (!search.refusal.empty()) return search;
  if (given > 0.0) {
    const double steps = given / dt;
    if (std::fabs(steps - std::round(steps)) > kRatioTolerance * std::max(1.0, steps)) {
      search.refusal = "the period " + seconds(given) + " is not a whole number of steps dt = " + seconds(dt);
      return search;
    }
    result.period = given;
    result.steps = std::lround(steps);
    return search;
  }
  if (period == 0.0) {
    search.refusal = "the circuit has no periodic source to take the period from (give the period)";
    return search;
  }
  // Every period must see the same step times: the shortest multiple that is a whole number of steps.
  const long k = wholeMultiple(period / dt);
  if (k == 0) {
    search.refusal = "the period " + seconds(period) + " is not a whole number of steps dt = " + seconds(dt) +
                     " within " + std::to_string(kMaxMultiple) + " periods; choose dt = period / n";
    return search;
  }
  result.steps = std::lround(static_cast<double>(k) * period / dt);
  result.period = static_cast<double>(result.steps) * dt;
  return search;
}

}  // namespace

SteadyPeriod steadyPeriod(Circuit& circuit, double dt, double given) {
  const PeriodSearch search = searchPeriod(circuit, dt, given);
  if (!search.refusal.empty()) refuse(search.refusal);
  return search.result;
}

SteadyPeriod sourcePeriod(Circuit& circuit, double dt) {
  const PeriodSearch search = searchPeriod(circuit, dt, 0.0);
  return search.refusal.empty() ? search.result : SteadyPeriod{};
}

}  // namespace pesim
