// Independent sources (V, I), controlled sources (E VCVS, G VCCS, F CCCS, H CCVS) and the ideal
// transformer. Voltage-defining elements carry their current as a branch unknown k.
#pragma once

#include "elements/element.hpp"
#include "elements/waveform.hpp"

namespace pesim {

// V: v(a) − v(b) = u(t); branch current flows from a through the source to b.
class VoltageSource : public Element {
 public:
  VoltageSource(std::string name, std::vector<int> nodes, Waveform waveform);
  int branchCount() const override { return 1; }
  void declare(Pattern& pattern) override { slots_.declare(pattern, node(0), node(1), branch()); }
  void stampMatrix(double* values, const StepContext&) const override { slots_.stamp(values); }
  bool hasRhs() const override { return true; }
  void stampRhs(double* rhs, const StepContext& step) override { rhs[branch()] += value(step); }
  double current(const double* x) const override { return x[branch()]; }
  // u(t) of the step: the value every solution of the step has across the terminals.
  double value(const StepContext& step) const { return waveform_.value(step.t, step.signals); }

 private:
  Waveform waveform_;
  BranchSlots slots_;
};

// I: the current i(t) flows from a through the source to b.
class CurrentSource : public Element {
 public:
  CurrentSource(std::string name, std::vector<int> nodes, Waveform waveform);
  void declare(Pattern&) override {}
  void stampMatrix(double*, const StepContext&) const override {}
  bool hasRhs() const override { return true; }
  void stampRhs(double* rhs, const StepContext& step) override {
    value_ = waveform_.value(step.t, step.signals);
    addSourceCurrent(rhs, node(0), node(1), value_);
  }
  double current(const double*) const override { return value_; }

 private:
  Waveform waveform_;
  double value_ = 0.0;
};

// E: v(a) − v(b) = gain·(v(c) − v(d)).
class Vcvs : public Element {
 public:
  Vcvs(std::string name, std::vector<int> nodes, double gain);
  int branchCount() const override { return 1; }
  void declare(Pattern& pattern) override;
  void stampMatrix(double* values, const StepContext&) const override;
  double current(const double* x) const override { return x[branch()]; }

 private:
  double gain_;
  BranchSlots slots_;
  int kc_ = kNoSlot, kd_ = kNoSlot;
};

// G: i(a→b) = gm·(v(c) − v(d)).
class Vccs : public Element {
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
class Cccs : public Element {
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
class Ccvs : public Element {
 public:
  Ccvs(std::string name, std::vector<int> nodes, double r, const Element& control);
  int branchCount() const override { return 1; }
  void declare(Pattern& pattern) override;
  void stampMatrix(double* values, const StepContext&) const override;
  double current(const double* x) const override { return x[branch()]; }

 private:
  double r_;
  const Element& control_;
  BranchSlots slots_;
  int kj_ = kNoSlot;
};

// Ideal transformer, primary p1–p2, secondary s1–s2: v(p) = (n1/n2)·v(s), i_s = −(n1/n2)·i_p
// (lossless: v_p·i_p + v_s·i_s = 0). The primary current (p1 → p2) is the branch unknown.
class IdealTransformer : public Element {
 public:
  IdealTransformer(std::string name, std::vector<int> nodes, double n1, double n2);
  int branchCount() const override { return 1; }
  void declare(Pattern& pattern) override;
  void stampMatrix(double* values, const StepContext&) const override;
  double current(const double* x) const override { return x[branch()]; }

 private:
  double ratio_;  // n1 / n2
  BranchSlots primary_;
  int s1k_ = kNoSlot, s2k_ = kNoSlot, ks1_ = kNoSlot, ks2_ = kNoSlot;
};

}  // namespace pesim
