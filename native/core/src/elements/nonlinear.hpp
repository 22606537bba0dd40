// Nonlinear C(u) and L(i) of GeckoCIRCUITS (isNonlinear with nonlinX[]/nonlinY[]: the differential
// capacitance C(|u|), the differential inductance L(|i|); piecewise.hpp). The charge q(u) and the
// flux ψ(i) are piecewise linear; each segment is a state of the element, so that its matrix is
// constant within a segment and the factorisation cache applies. The companion models integrate the
// charge or the flux (integrator.hpp), which keeps them continuous when the segment changes:
//   capacitor  i = (a0·q + a1·q(n) + a2·q(n−1))/dt + b1·i(n),  q = Cs·u + Qs
//   inductor   v = (a0·ψ + a1·ψ(n) + a2·ψ(n−1))/dt + b1·v(n),  ψ = Ls·i + Ψs (current unknown k)
// After a solve the element moves to the segment of the solved u or i and the step is solved again,
// like a diode changing state.
#pragma once

#include "elements/piecewise.hpp"
#include "elements/state_device.hpp"

namespace pesim {

class PiecewiseCapacitor final : public StateDevice {
 public:
  PiecewiseCapacitor(std::string name, std::vector<int> nodes, PiecewiseLinear charge, double v0);
  void declare(Pattern& pattern) override { slots_.declare(pattern, node(0), node(1)); }
  bool reactive() const override { return true; }
  void stampMatrix(double* values, const StepContext& step) const override;
  bool hasRhs() const override { return true; }
  void stampRhs(double* rhs, const StepContext& step) override;
  bool hasHistory() const override { return true; }
  void commit(const double* x, const StepContext& step) override;
  bool settle(const double* x, const StepContext& step) override;
  double violation(const double* x, int solvedState) const override;
  double current(const double* x) const override { return geq_ * voltage(x) + source_; }
  void visitState(StateVisitor& visitor) override {
    StateDevice::visitState(visitor);
    visitor.real(qn_);
    visitor.real(qPrev_);
    visitor.real(i_);
  }

 private:
  PiecewiseLinear q_;
  double qn_, qPrev_, i_ = 0.0;  // q(n), q(n−1), i(n)
  double geq_ = 0.0, source_ = 0.0;  // this step's companion: i = geq·u + source
  ConductanceSlots slots_;
};

class PiecewiseInductor final : public StateDevice {
 public:
  PiecewiseInductor(std::string name, std::vector<int> nodes, PiecewiseLinear flux, double i0);
  int branchCount() const override { return 1; }
  void declare(Pattern& pattern) override;
  bool reactive() const override { return true; }
  void stampMatrix(double* values, const StepContext& step) const override;
  bool hasRhs() const override { return true; }
  void stampRhs(double* rhs, const StepContext& step) override;
  bool hasHistory() const override { return true; }
  void commit(const double* x, const StepContext& step) override;
  bool settle(const double* x, const StepContext& step) override;
  double violation(const double* x, int solvedState) const override;
  double current(const double* x) const override { return x[branch()]; }
  bool currentFromSolution(int& plus, int& minus) const override { return branchCurrent(plus, minus); }
  void visitState(StateVisitor& visitor) override {
    StateDevice::visitState(visitor);
    visitor.real(psin_);
    visitor.real(psiPrev_);
    visitor.real(v_);
  }

 private:
  PiecewiseLinear psi_;
  double psin_, psiPrev_, v_ = 0.0;  // ψ(n), ψ(n−1), v(n)
  BranchSlots slots_;
  int selfSlot_ = kNoSlot;
};

}  // namespace pesim
