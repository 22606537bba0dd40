// Linear passive elements: resistor R, capacitor C, inductor L (branch-current form) and the
// magnetic coupling K between two inductors.
#pragma once

#include "elements/element.hpp"

namespace pesim {

// R between a and b: conductance 1/R.
class Resistor : public Element {
 public:
  Resistor(std::string name, std::vector<int> nodes, double r);
  void declare(Pattern& pattern) override { slots_.declare(pattern, node(0), node(1)); }
  void stampMatrix(double* values, const StepContext&) const override { slots_.stamp(values, g_); }
  double current(const double* x) const override { return g_ * voltage(x); }

 private:
  double g_;
  ConductanceSlots slots_;
};

// C between a and b, companion model i = geq·v − ieq (integrator.hpp).
class Capacitor : public Element {
 public:
  Capacitor(std::string name, std::vector<int> nodes, double c, double v0);
  void declare(Pattern& pattern) override { slots_.declare(pattern, node(0), node(1)); }
  bool reactive() const override { return true; }
  void stampMatrix(double* values, const StepContext& step) const override;
  bool hasRhs() const override { return true; }
  void stampRhs(double* rhs, const StepContext& step) override;
  bool hasHistory() const override { return true; }
  void commit(const double* x, const StepContext& step) override;
  double current(const double* x) const override { return geq_ * voltage(x) - ieq_; }

 private:
  double c_;
  double v_, vPrev_, i_ = 0.0;  // v(n), v(n−1), i(n)
  double geq_ = 0.0, ieq_ = 0.0;
  ConductanceSlots slots_;
};

// L between a and b with its current as unknown k. Branch row (integrator.hpp):
//   v(a) − v(b) − (a0·L/dt)·i = (L/dt)·(a1·i(n) + a2·i(n−1)) + b1·v(n)
class Inductor : public Element {
 public:
  Inductor(std::string name, std::vector<int> nodes, double l, double i0);
  int branchCount() const override { return 1; }
  void declare(Pattern& pattern) override;
  bool reactive() const override { return true; }
  void stampMatrix(double* values, const StepContext& step) const override;
  bool hasRhs() const override { return true; }
  void stampRhs(double* rhs, const StepContext& step) override;
  bool hasHistory() const override { return true; }
  void commit(const double* x, const StepContext& step) override;
  double current(const double* x) const override { return x[branch()]; }

  double inductance() const { return l_; }
  // History of the current for mutual terms: i(n), i(n−1).
  double historyCurrent() const { return i_; }
  double previousCurrent() const { return iPrev_; }

 private:
  double l_;
  double i_, iPrev_, v_ = 0.0;
  BranchSlots slots_;
  int selfSlot_ = kNoSlot;
};

// Coupling K of two inductors: mutual inductance M = k·√(L1·L2) adds −(a0·M/dt)·i_other to each
// branch row and the matching history term (engine-notes.md, coupled inductors).
class Coupling : public Element {
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
