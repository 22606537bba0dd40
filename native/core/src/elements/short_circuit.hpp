// R with R = 0: an ideal short that keeps its current as an unknown, as SPICE treats a zero-volt
// source, so that meters can read the current through it (GeckoCIRCUITS users place such
// resistors as current-measuring links; GeckoCIRCUITS itself stamps R < 1e-9 Ω as 1e-9 Ω,
// LKMatrices FAST_NULL_R). Branch row: v(a) − v(b) = 0; the current k flows from a to b.
#pragma once

#include "elements/element.hpp"

namespace pesim {

class ShortCircuit final : public Element {
 public:
  using Element::Element;
  int branchCount() const override { return 1; }
  void declare(Pattern& pattern) override { slots_.declare(pattern, node(0), node(1), branch()); }
  void stampMatrix(double* values, const StepContext&) const override { slots_.stamp(values); }
  double current(const double* x) const override { return x[branch()]; }
  bool currentFromSolution(int& plus, int& minus) const override { return branchCurrent(plus, minus); }

 private:
  BranchSlots slots_;
};

}  // namespace pesim
