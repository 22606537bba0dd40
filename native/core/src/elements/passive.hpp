// Linear passive elements: resistor R, capacitor C, inductor L (branch-current form) and the
// magnetic coupling K between two inductors.
#pragma once

#include <cstddef>
#include <limits>

#include "elements/element.hpp"

namespace pesim {

// R between a and b: conductance 1/R.
class Resistor final : public Element {
 public:
  Resistor(std::string name, std::vector<int> nodes, double r);
  void declare(Pattern& pattern) override { slots_.declare(pattern, node(0), node(1)); }
  void stampMatrix(double* values, const StepContext&) const override { slots_.stamp(values, g_); }
  double current(const double* x) const override { return g_ * terminalVoltage(x); }

 private:
  double g_;
  ConductanceSlots slots_;
};

// C between a and b, companion model i = geq·v − ieq (integrator.hpp).
class Capacitor final : public Element {
 public:
  Capacitor(std::string name, std::vector<int> nodes, double c, double v0);
  void declare(Pattern& pattern) override { slots_.declare(pattern, node(0), node(1)); }
  bool reactive() const override { return true; }
  void stampMatrix(double* values, const StepContext& step) const override;
  // stampRhs and commit run every step: defined here so the time loop's calls inline them.
  bool hasRhs() const override { return true; }
  void stampRhs(double* rhs, const StepContext& step) override {
    // i = geq·v − ieq: the constant part −ieq flows from a to b.
    addSourceCurrent(rhs, node(0), node(1), -history(step));
  }
  bool hasHistory() const override { return true; }
  void commit(const double* x, const StepContext&) override { commitVoltage(terminalVoltage(x)); }
  // For a network whose right-hand side and solution have a slot for the reference node (the
  // thermal network, which stamps the source itself): the companion source ieq of the step, whose
  // −ieq flows from a to b as in stampRhs, and the commit from the terminals' slots `a` and `b`, the
  // reference's reading 0 in the solution (0.0 − x and x − 0.0 are the values nodeVoltage's
  // differences give). Its caller has called tune(step) since the step or the method last changed.
  double companion(const StepContext& step) {
    ieq_ = -cOverDt_ * (step.k.a1 * v_ + step.k.a2 * vPrev_) - step.k.b1 * i_;
    return ieq_;
  }
  // Divides the quotients of the companion model for the step and the method when they change
  // (stampRhs does so itself).
  void tune(const StepContext& step) {
    if (step.dt != dt_ || step.k.a0 != a0_) {
      dt_ = step.dt;
      a0_ = step.k.a0;
      cOverDt_ = c_ / step.dt;
      geq_ = step.k.a0 * c_ / step.dt;
    }
  }
  void commitAt(const double* x, std::size_t a, std::size_t b) { commitVoltage(x[a] - x[b]); }
  double current(const double* x) const override { return geq_ * terminalVoltage(x) - ieq_; }
  // A capacitor with an initial voltage is a source of it in GeckoCIRCUITS' start step and keeps
  // it (NetListLK.ersetze_C_durch_Udc_Fuer_init); one starting at 0 V starts from that step's voltage.
  void adoptStartSolution(const double* x) override {
    if (v_ == 0.0) v_ = vPrev_ = voltage(x);
  }
  void visitState(StateVisitor& visitor) override {
    visitor.real(v_);
    visitor.real(vPrev_);
    visitor.real(i_);
  }

 private:
  // The companion source ieq of the step (kept for commit and current).
  // Divided when the step or the method changes, not at every solve (the same quotients).
  double history(const StepContext& step) {
    tune(step);
    return companion(step);
  }
  void commitVoltage(double v) {
    i_ = geq_ * v - ieq_;
    vPrev_ = v_;
    v_ = v;
  }

  double c_;
  double v_, vPrev_, i_ = 0.0;  // v(n), v(n−1), i(n)
  double geq_ = 0.0, ieq_ = 0.0;
  // The dt and a0 that geq_ and cOverDt_ = C/dt were divided for (NaN: none yet).
  double dt_ = std::numeric_limits<double>::quiet_NaN(), a0_ = 0.0, cOverDt_ = 0.0;
  ConductanceSlots slots_;
};

// L between a and b with its current as unknown k. Branch row (integrator.hpp):
//   v(a) − v(b) − (a0·L/dt)·i = (L/dt)·(a1·i(n) + a2·i(n−1)) + b1·v(n)
class Inductor final : public Element {
 public:
  Inductor(std::string name, std::vector<int> nodes, double l, double i0);
  int branchCount() const override { return 1; }
  void declare(Pattern& pattern) override;
  bool reactive() const override { return true; }
  void stampMatrix(double* values, const StepContext& step) const override;
  bool hasRhs() const override { return true; }
  void stampRhs(double* rhs, const StepContext& step) override {
    if (step.dt != dt_) {
      dt_ = step.dt;
      lOverDt_ = l_ / step.dt;  // divided when the step changes, not at every solve
    }
    rhs[branch()] += lOverDt_ * (step.k.a1 * i_ + step.k.a2 * iPrev_) + step.k.b1 * v_;
  }
  bool hasHistory() const override { return true; }
  void commit(const double* x, const StepContext&) override {
    iPrev_ = i_;
    i_ = x[branch()];
    v_ = terminalVoltage(x);
  }
  double current(const double* x) const override { return x[branch()]; }
  bool currentFromSolution(int& plus, int& minus) const override { return branchCurrent(plus, minus); }
  void visitState(StateVisitor& visitor) override {
    visitor.real(i_);
    visitor.real(iPrev_);
    visitor.real(v_);
  }

  double inductance() const { return l_; }
  // History of the current for mutual terms: i(n), i(n−1).
  double historyCurrent() const { return i_; }
  double previousCurrent() const { return iPrev_; }

 private:
  double l_;
  double i_, iPrev_, v_ = 0.0;
  double dt_ = std::numeric_limits<double>::quiet_NaN(), lOverDt_ = 0.0;  // L/dt for dt_ (NaN: none yet)
  BranchSlots slots_;
  int selfSlot_ = kNoSlot;
};

// Coupling K of two inductors: mutual inductance M = k·√(L1·L2) adds −(a0·M/dt)·i_other to each
// branch row and the matching history term (docs/engine-notes.md, coupled inductors).
class Coupling final : public Element {
 public:
  Coupling(std::string name, Inductor& first, Inductor& second, double k);
  void declare(Pattern& pattern) override;
  bool reactive() const override { return true; }
  void stampMatrix(double* values, const StepContext& step) const override;
  bool hasRhs() const override { return true; }
  void stampRhs(double* rhs, const StepContext& step) override;
  double current(const double*) const override { return 0.0; }

 private:
  Inductor& first_;
  Inductor& second_;
  double m_;
  int slot12_ = kNoSlot, slot21_ = kNoSlot;
};

}  // namespace pesim
