// Piecewise-linear capacitor and inductor (see nonlinear.hpp for the equations).
#include "elements/nonlinear.hpp"

namespace pesim {

PiecewiseCapacitor::PiecewiseCapacitor(std::string name, std::vector<int> nodes, PiecewiseLinear charge,
                                       double v0)
    : StateDevice(std::move(name), std::move(nodes)), q_(std::move(charge)) {
  setState(q_.segmentOf(v0));
  qn_ = qPrev_ = q_.value(state(), v0);
}

void PiecewiseCapacitor::stampMatrix(double* values, const StepContext& step) const {
  slots_.stamp(values, step.k.a0 * q_.slope(state()) / step.dt);
}

void PiecewiseCapacitor::stampRhs(double* rhs, const StepContext& step) {
  geq_ = step.k.a0 * q_.slope(state()) / step.dt;
  source_ = (step.k.a0 * q_.offset(state()) + step.k.a1 * qn_ + step.k.a2 * qPrev_) / step.dt + step.k.b1 * i_;
  addSourceCurrent(rhs, node(0), node(1), source_);
}

void PiecewiseCapacitor::commit(const double* x, const StepContext&) {
  const double u = voltage(x);
  i_ = geq_ * u + source_;
  qPrev_ = qn_;
  qn_ = q_.value(state(), u);
}

bool PiecewiseCapacitor::settle(const double* x, const StepContext&) {
  const int segment = q_.segmentOf(voltage(x));
  if (segment == state()) return false;
  setState(segment);
  return true;
}

double PiecewiseCapacitor::violation(const double* x, int solvedState) const {
  return q_.distanceOutside(solvedState, voltage(x));
}

PiecewiseInductor::PiecewiseInductor(std::string name, std::vector<int> nodes, PiecewiseLinear flux, double i0)
    : StateDevice(std::move(name), std::move(nodes)), psi_(std::move(flux)) {
  setState(psi_.segmentOf(i0));
  psin_ = psiPrev_ = psi_.value(state(), i0);
}

void PiecewiseInductor::declare(Pattern& pattern) {
  slots_.declare(pattern, node(0), node(1), branch());
  selfSlot_ = pattern.entry(branch(), branch());
}

void PiecewiseInductor::stampMatrix(double* values, const StepContext& step) const {
  slots_.stamp(values);
  addAt(values, selfSlot_, -step.k.a0 * psi_.slope(state()) / step.dt);
}

void PiecewiseInductor::stampRhs(double* rhs, const StepContext& step) {
  rhs[branch()] += (step.k.a0 * psi_.offset(state()) + step.k.a1 * psin_ + step.k.a2 * psiPrev_) / step.dt +
                   step.k.b1 * v_;
}

void PiecewiseInductor::commit(const double* x, const StepContext&) {
  psiPrev_ = psin_;
  psin_ = psi_.value(state(), x[branch()]);
  v_ = voltage(x);
}

bool PiecewiseInductor::settle(const double* x, const StepContext&) {
  const int segment = psi_.segmentOf(x[branch()]);
  if (segment == state()) return false;
  setState(segment);
  return true;
}

double PiecewiseInductor::violation(const double* x, int solvedState) const {
  return psi_.distanceOutside(solvedState, x[branch()]);
}

}  // namespace pesim
