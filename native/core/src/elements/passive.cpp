// Resistor, capacitor, inductor and coupling stamps (see passive.hpp for the equations).
#include "elements/passive.hpp"

#include <cmath>

namespace pesim {

Resistor::Resistor(std::string name, std::vector<int> nodes, double r)
    : Element(std::move(name), std::move(nodes)), g_(1.0 / r) {}

Capacitor::Capacitor(std::string name, std::vector<int> nodes, double c, double v0)
    : Element(std::move(name), std::move(nodes)), c_(c), v_(v0), vPrev_(v0) {}

void Capacitor::stampMatrix(double* values, const StepContext& step) const {
  slots_.stamp(values, step.k.a0 * c_ / step.dt);
}

Inductor::Inductor(std::string name, std::vector<int> nodes, double l, double i0)
    : Element(std::move(name), std::move(nodes)), l_(l), i_(i0), iPrev_(i0) {}

void Inductor::declare(Pattern& pattern) {
  slots_.declare(pattern, node(0), node(1), branch());
  selfSlot_ = pattern.entry(branch(), branch());
}

void Inductor::stampMatrix(double* values, const StepContext& step) const {
  slots_.stamp(values);
  addAt(values, selfSlot_, -step.k.a0 * l_ / step.dt);
}

Coupling::Coupling(std::string name, Inductor& first, Inductor& second, double k)
    : Element(std::move(name), {}),
      first_(first),
      second_(second),
      m_(k * std::sqrt(first.inductance() * second.inductance())) {}

void Coupling::declare(Pattern& pattern) {
  slot12_ = pattern.entry(first_.branch(), second_.branch());
  slot21_ = pattern.entry(second_.branch(), first_.branch());
}

void Coupling::stampMatrix(double* values, const StepContext& step) const {
  addAt(values, slot12_, -step.k.a0 * m_ / step.dt);
  addAt(values, slot21_, -step.k.a0 * m_ / step.dt);
}

void Coupling::stampRhs(double* rhs, const StepContext& step) {
  double scale = m_ / step.dt;
  rhs[first_.branch()] +=
      scale * (step.k.a1 * second_.historyCurrent() + step.k.a2 * second_.previousCurrent());
  rhs[second_.branch()] +=
      scale * (step.k.a1 * first_.historyCurrent() + step.k.a2 * first_.previousCurrent());
}

}  // namespace pesim
