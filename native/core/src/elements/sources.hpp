// Independent sources (V, I), controlled sources (E VCVS, G VCCS, F CCCS, H CCVS) and the ideal
// transformer. Voltage-defining elements carry their current as a branch unknown k.
#pragma once

#include <limits>

#include "elements/element.hpp"
#include "elements/waveform.hpp"

namespace pesim {

// V: v(a) − v(b) = u(t); branch current flows from a through the source to b.
// A source between the reference and a node that nothing else loads (only switch controls read it)
// drives that node (Circuit::findDrivenNodes): the node's potential is ±u(t) and the source current
// 0 in every solution, so neither is an unknown. The node is then a slot after the unknowns of the
// solution vector, and the source writes ±u(t) there through the right-hand side each step.
class VoltageSource final : public Element {
 public:
  VoltageSource(std::string name, std::vector<int> nodes, Waveform waveform);
  int branchCount() const override { return drives_ ? 0 : 1; }
  void declare(Pattern& pattern) override {
    if (!drives_) slots_.declare(pattern, node(0), node(1), branch());
  }
  void stampMatrix(double* values, const StepContext&) const override {
    if (!drives_) slots_.stamp(values);
  }
  bool hasRhs() const override { return true; }
  bool rhsFixedByState() const override { return waveform_.kind() == Waveform::Kind::Dc; }
  void stampRhs(double* rhs, const StepContext& step) override {
    if (!drives_) rhs[branch()] += value(step);
    else if (node(0) != kGround) rhs[node(0)] = value(step);
    else rhs[node(1)] = -value(step);
  }
  double current(const double* x) const override { return drives_ ? 0.0 : x[branch()]; }
  bool currentFromSolution(int& plus, int& minus) const override {
    plus = drives_ ? kGround : branch();
    minus = kGround;
    return true;
  }
  Periodicity periodicity() const override { return waveform_.periodicity(); }
  // Makes the source drive its non-reference terminal (call before branches are numbered).
  void driveNode() { drives_ = true; }
  bool drivesNode() const { return drives_; }
  // u(t) of the step: the value every solution of the step has across the terminals. A switch
  // controlled by this source asks for it before the solve and the right-hand side again (and on
  // every re-solve of the step): time functions are evaluated once per time point.
  double value(const StepContext& step) const {
    if (waveform_.kind() == Waveform::Kind::Signal) return waveform_.value(step.t, step.signals);
    if (step.t != valueTime_) {
      valueAtTime_ = waveform_.value(step.t, step.signals);
      valueTime_ = step.t;
    }
    return valueAtTime_;
  }

 private:
  Waveform waveform_;
  BranchSlots slots_;
  bool drives_ = false;
  mutable double valueTime_ = std::numeric_limits<double>::quiet_NaN();  // NaN: nothing cached
  mutable double valueAtTime_ = 0.0;
};

// I: the current i(t) flows from a through the source to b.
class CurrentSource final : public Element {
 public:
  CurrentSource(std::string name, std::vector<int> nodes, Waveform waveform);
  void declare(Pattern&) override {}
  void stampMatrix(double*, const StepContext&) const override {}
  bool hasRhs() const override { return true; }
  bool rhsFixedByState() const override { return waveform_.kind() == Waveform::Kind::Dc; }
  void stampRhs(double* rhs, const StepContext& step) override {
    // A time function is evaluated once per time point (a step re-solved after a change of device
    // state reuses it); a control signal is read at every solve.
    if (waveform_.kind() == Waveform::Kind::Signal || step.t != valueTime_) {
      value_ = waveform_.value(step.t, step.signals);
      valueTime_ = step.t;
    }
    addSourceCurrent(rhs, node(0), node(1), value_);
  }
  double current(const double*) const override { return value_; }
  Periodicity periodicity() const override { return waveform_.periodicity(); }

 private:
  Waveform waveform_;
  double value_ = 0.0;
  double valueTime_ = std::numeric_limits<double>::quiet_NaN();  // the time of value_ (NaN: none)
};

// E: v(a) − v(b) = gain·(v(c) − v(d)).
class Vcvs final : public Element {
 public:
  Vcvs(std::string name, std::vector<int> nodes, double gain);
  int branchCount() const override { return 1; }
  void declare(Pattern& pattern) override;
  void stampMatrix(double* values, const StepContext&) const override;
  double current(const double* x) const override { return x[branch()]; }
  bool currentFromSolution(int& plus, int& minus) const override { return branchCurrent(plus, minus); }

 private:
  double gain_;
  BranchSlots slots_;
  int kc_ = kNoSlot, kd_ = kNoSlot;
};

// G: i(a→b) = gm·(v(c) − v(d)).
class Vccs final : public Element {
 public:
  Vccs(std::string name, std::vector<int> nodes, double gm);
  void declare(Pattern& pattern) override;
  void stampMatrix(double* values, const StepContext&) const override;
  double current(const double* x) const override {
    return gm_ * (nodeVoltage(x, node(2)) - nodeVoltage(x, node(3)));
  }

 private:
  double gm_;
  int ac_ = kNoSlot, ad_ = kNoSlot, bc_ = kNoSlot, bd_ = kNoSlot;
};

// F: i(a→b) = gain·i(control), control being an element with a branch-current unknown j.
class Cccs final : public Element {
 public:
  Cccs(std::string name, std::vector<int> nodes, double gain, const Element& control);
  void declare(Pattern& pattern) override;
  void stampMatrix(double* values, const StepContext&) const override;
  double current(const double* x) const override { return gain_ * x[control_.branch()]; }

 private:
  double gain_;
  const Element& control_;
  int aj_ = kNoSlot, bj_ = kNoSlot;
};

// H: v(a) − v(b) = r·i(control).
class Ccvs final : public Element {
 public:
  Ccvs(std::string name, std::vector<int> nodes, double r, const Element& control);
  int branchCount() const override { return 1; }
  void declare(Pattern& pattern) override;
  void stampMatrix(double* values, const StepContext&) const override;
  double current(const double* x) const override { return x[branch()]; }
  bool currentFromSolution(int& plus, int& minus) const override { return branchCurrent(plus, minus); }

 private:
  double r_;
  const Element& control_;
  BranchSlots slots_;
  int kj_ = kNoSlot;
};

// Ideal transformer, primary p1–p2, secondary s1–s2: v(p) = (n1/n2)·v(s), i_s = −(n1/n2)·i_p
// (lossless: v_p·i_p + v_s·i_s = 0). The primary current (p1 → p2) is the branch unknown.
class IdealTransformer final : public Element {
 public:
  IdealTransformer(std::string name, std::vector<int> nodes, double n1, double n2);
  int branchCount() const override { return 1; }
  void declare(Pattern& pattern) override;
  void stampMatrix(double* values, const StepContext&) const override;
  double current(const double* x) const override { return x[branch()]; }
  bool currentFromSolution(int& plus, int& minus) const override { return branchCurrent(plus, minus); }

 private:
  double ratio_;  // n1 / n2
  BranchSlots primary_;
  int s1k_ = kNoSlot, s2k_ = kNoSlot, ks1_ = kNoSlot, ks2_ = kNoSlot;
};

}  // namespace pesim
