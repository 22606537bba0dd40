// Operational amplifier stamps and limiter states (see opamp.hpp for the equations), and the OPV
// descriptor (catalog.hpp).
#include "elements/opamp.hpp"

#include <algorithm>

#include "elements/catalog.hpp"

namespace pesim {

OpAmp::OpAmp(std::string name, std::vector<int> nodes, const OpAmpValues& values)
    : StateDevice(std::move(name), std::move(nodes)),
      v_(values),
      divider_(values.rb / (values.ra + values.rb)),
      series_(values.ra * values.rb / (values.ra + values.rb) + kPoleResistance),
      cp_(1.0 / values.fp) {}

void OpAmp::declare(Pattern& pattern) {
  const int k = branch();
  input_.declare(pattern, node(0), node(1));
  isolation_.declare(pattern, node(1), node(3));
  output_.declare(pattern, node(2), node(3));
  uu_ = pattern.entry(k, k);
  uPlus_ = pattern.entry(k, node(0));
  uMinus_ = pattern.entry(k, node(1));
  outU_ = pattern.entry(node(2), k);
  refU_ = pattern.entry(node(3), k);
}

void OpAmp::stampMatrix(double* values, const StepContext& step) const {
  input_.stamp(values, 1.0 / v_.rin);
  isolation_.stamp(values, 1.0 / kIsolation);
  const double g = 1.0 / v_.rout;
  output_.stamp(values, g);
  addAt(values, outU_, -g);
  addAt(values, refU_, g);
  addAt(values, uu_, 1.0 / series_ + step.k.a0 * cp_ / step.dt);
  if (state() == kLinear) {
    const double k = v_.gain * divider_ / series_;
    addAt(values, uPlus_, -k);
    addAt(values, uMinus_, k);
  }
}

void OpAmp::stampRhs(double* rhs, const StepContext& step) {
  const double history = (cp_ / step.dt) * (step.k.a1 * u_ + step.k.a2 * uPrev_) + step.k.b1 * ic_;
  double limited = 0.0;
  if (state() == kUpper) limited = v_.vmax * divider_ / series_;
  if (state() == kLower) limited = v_.vmin * divider_ / series_;
  rhs[branch()] += limited - history;
}

double OpAmp::capacitorCurrent(const double* x) const {
  double ux = v_.gain * inputVoltage(x);
  if (state() == kUpper) ux = v_.vmax;
  if (state() == kLower) ux = v_.vmin;
  return (ux * divider_ - x[branch()]) / series_;
}

void OpAmp::commit(const double* x, const StepContext&) {
  ic_ = capacitorCurrent(x);
  uPrev_ = u_;
  u_ = x[branch()];
}

bool OpAmp::settle(const double* x, const StepContext&) {
  const double ux = v_.gain * inputVoltage(x);
  int next = state();
  if (state() == kLinear) {
    if (ux < v_.vmin) next = kLower;
    if (ux > v_.vmax) next = kUpper;
  } else if (state() == kLower) {
    if (ux >= v_.vmin) next = kLinear;
  } else if (ux <= v_.vmax) {
    next = kLinear;
  }
  if (next == state()) return false;
  setState(next);
  return true;
}

double OpAmp::violation(const double* x, int solvedState) const {
  const double ux = v_.gain * inputVoltage(x);
  if (solvedState == kUpper) return std::max(0.0, v_.vmax - ux);
  if (solvedState == kLower) return std::max(0.0, ux - v_.vmin);
  return std::max({0.0, ux - v_.vmax, v_.vmin - ux});
}

double OpAmp::current(const double* x) const {
  return (nodeVoltage(x, node(2)) - nodeVoltage(x, node(3)) - x[branch()]) / v_.rout;
}

namespace {

// Op-amp parameters with GeckoCIRCUITS' defaults (OperationalAmplifier).
OpAmpValues opAmpValues(const Params& p) {
  OpAmpValues v{p.number("gain", 1e4), p.positive("rin", 9e4), p.positive("rout", 0.12), p.positive("fp", 1e5),
                p.number("vmax", 12.0), p.number("vmin", -12.0), p.positive("ra", 1.0), p.positive("rb", 100.0)};
  if (v.vmax <= v.vmin) p.outOfRange("vmax", "greater than vmin");
  return v;
}

void opAmp(const ElementArgs& a, BuiltElement& built) {
  const auto& n = a.nodes;
  built.element = std::make_unique<OpAmp>(a.spec.name, n, opAmpValues(a.p));
  built.connectivity.conducting = {{n[0], n[1]}, {n[1], n[3]}, {n[2], n[3]}};
}

const ElementDescriptor kOpAmpElements[] = {
    {"OPV", 4, false, opAmp},
};

}  // namespace

ElementFamily opAmpElements() { return elementFamily(kOpAmpElements); }

}  // namespace pesim
