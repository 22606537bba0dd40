// Thermal network assembly and solution (see network.hpp).
#include "thermal/network.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "circuit/params.hpp"
#include "elements/passive.hpp"
#include "elements/sources.hpp"
#include "pesim/errors.hpp"

namespace pesim {

namespace {

// Unknowns up to which the dense LU is used (thermal networks are small).
constexpr int kDenseLimit = 40;

bool knownThermalType(const std::string& type) {
  return type == "RTH" || type == "CTH" || type == "TSRC" || type == "QSRC" || type == "PV";
}

}  // namespace

ThermalNetwork::ThermalNetwork(const std::vector<ElementSpec>& specs,
                               const std::function<const double*(const ElementSpec&)>& power) {
  for (const auto& spec : specs) {
    if (!knownThermalType(spec.type)) {
      throw Error(ErrorCode::UnknownElementType,
                  spec.name + ": unknown thermal element type '" + spec.type + "' (RTH, CTH, TSRC, QSRC, PV)", spec.name);
    }
    if (spec.nodes.size() != 2) {
      throw Error(ErrorCode::NetlistInvalid,
                  spec.name + ": a thermal element has 2 nodes, got " + std::to_string(spec.nodes.size()), spec.name);
    }
    for (const auto& name : spec.nodes) {
      if (name.empty()) throw Error(ErrorCode::NetlistInvalid, spec.name + ": a thermal node name is empty", spec.name);
      if (name == "0" || nodeIndex_.count(name)) continue;
      nodeIndex_.emplace(name, static_cast<int>(nodeNames_.size()));
      nodeNames_.push_back(name);
    }
  }
  checkGrounded(specs);
  std::vector<double> capacity(nodeNames_.size(), 0.0), conductance(nodeNames_.size(), 0.0);
  for (const auto& spec : specs) {
    std::vector<int> nodes{node(spec.nodes[0], spec.name), node(spec.nodes[1], spec.name)};
    Params p(spec.name, spec.params);
    std::unique_ptr<Element> e;
    if (spec.type == "RTH") {
      e = std::make_unique<Resistor>(spec.name, nodes, p.positive("R"));
    } else if (spec.type == "CTH") {
      e = std::make_unique<Capacitor>(spec.name, nodes, p.positive("C"), p.number("T0", 0.0));
    } else if (spec.type == "TSRC") {
      ParameterSet dc;
      dc.numbers["value"] = p.number("T");
      e = std::make_unique<VoltageSource>(spec.name, nodes, Waveform::fromParams(Params(spec.name, dc), -1));
    } else {  // QSRC, PV
      const double* source = power(spec);
      e = std::make_unique<HeatFlowSource>(spec.name, nodes, source);
    }
    elements_.push_back(std::move(e));
    if (spec.type == "RTH" || spec.type == "CTH") {
      const double value = spec.type == "RTH" ? 1.0 / p.positive("R") : p.positive("C");
      for (int n : nodes) {
        if (n != kGround) (spec.type == "RTH" ? conductance : capacity)[static_cast<std::size_t>(n)] += value;
      }
    }
  }
  shortestTau_ = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < capacity.size(); ++i) {
    if (capacity[i] > 0.0 && conductance[i] > 0.0) shortestTau_ = std::min(shortestTau_, capacity[i] / conductance[i]);
  }
  unknowns_ = static_cast<int>(nodeNames_.size());
  for (auto& e : elements_) {
    e->setFirstBranch(unknowns_);
    unknowns_ += e->branchCount();
  }
  // The thermal elements with a right-hand side or a history: capacitors, heat flow sources and
  // temperature sources (a resistor has neither).
  for (auto& e : elements_) {
    const std::size_t a = slot(e->nodes()[0]), b = slot(e->nodes()[1]);
    if (auto* c = dynamic_cast<Capacitor*>(e.get())) {
      nodeTerms_.push_back({c, nullptr, a, b});
      capacitors_.push_back({c, nullptr, a, b});
    } else if (auto* q = dynamic_cast<HeatFlowSource*>(e.get())) {
      nodeTerms_.push_back({nullptr, q->power(), a, b});
    } else if (auto* v = dynamic_cast<VoltageSource*>(e.get())) {
      sources_.push_back(v);
    }
  }
  pattern_ = Pattern(unknowns_);
  for (auto& e : elements_) e->declare(pattern_);
  for (int i = 0; i < unknowns_; ++i) pattern_.entry(i, i);
  factorizer_ = std::make_unique<Factorizer>(pattern_, unknowns_ <= kDenseLimit);
  x_ = Eigen::VectorXd::Zero(unknowns_ + 1);
  rhs_ = Eigen::VectorXd::Zero(unknowns_ + 1);
  zero_ = Eigen::VectorXd::Zero(unknowns_ + 1);
}

// Every thermal node needs a path to the reference through RTH, CTH or TSRC; heat flow sources
// alone leave its temperature undetermined.
void ThermalNetwork::checkGrounded(const std::vector<ElementSpec>& specs) const {
  std::vector<int> parent(nodeNames_.size() + 1);
  std::iota(parent.begin(), parent.end(), 0);
  const int reference = static_cast<int>(nodeNames_.size());
  auto slot = [&](const std::string& name) { return name == "0" ? reference : nodeIndex_.at(name); };
  auto root = [&](int i) {
    while (parent[static_cast<std::size_t>(i)] != i) i = parent[static_cast<std::size_t>(i)];
    return i;
  };
  for (const auto& spec : specs) {
    if (spec.type == "QSRC" || spec.type == "PV") continue;
    parent[static_cast<std::size_t>(root(slot(spec.nodes[0])))] = root(slot(spec.nodes[1]));
  }
  for (std::size_t i = 0; i < nodeNames_.size(); ++i) {
    if (root(static_cast<int>(i)) == root(reference)) continue;
    throw Error(ErrorCode::SingularMatrix,
                "thermal node '" + nodeNames_[i] +
                    "' has no path to the thermal reference '0' through RTH, CTH or TSRC elements: its temperature is not determined",
                "", nodeNames_[i]);
  }
}

int ThermalNetwork::node(const std::string& name, const std::string& user) const {
  if (name == "0") return kGround;
  auto it = nodeIndex_.find(name);
  if (it == nodeIndex_.end()) {
    throw Error(ErrorCode::UnknownReference, user + ": thermal node '" + name + "' is not a node of any thermal element", user, name);
  }
  return it->second;
}

const Element* ThermalNetwork::element(const std::string& name) const {
  for (const auto& e : elements_) {
    if (e->name() == name) return e.get();
  }
  return nullptr;
}

const Factorization& ThermalNetwork::remember(double dt, bool backwardEuler, const Factorization& lu) {
  last_ = &lu;
  lastDt_ = dt;
  lastBackwardEuler_ = backwardEuler;
  return lu;
}

const Factorization& ThermalNetwork::factorize(double dt, const Coefficients& k, bool backwardEuler) {
  for (const auto& c : cache_) {
    if (c.dt == dt && c.backwardEuler == backwardEuler) return remember(dt, backwardEuler, *c.lu);
  }
  std::vector<double> values(pattern_.entries().size(), 0.0);
  StepContext ctx{0.0, dt, k, nullptr};
  for (auto& e : elements_) e->stampMatrix(values.data(), ctx);
  auto lu = factorizer_->factorize(values);
  if (!lu) throw Error(ErrorCode::SingularMatrix, "the thermal network's equations have no unique solution");
  cache_.push_back({dt, backwardEuler, std::move(lu)});
  return remember(dt, backwardEuler, *cache_.back().lu);
}

void ThermalNetwork::solve(const StepContext& ctx, bool backwardEuler) {
  if (unknowns_ == 0) return;
  rhs_ = zero_;  // an inline copy: setZero of a run-time length is a memset call
  double* rhs = rhs_.data();
  if (ctx.dt != tunedDt_ || ctx.k.a0 != tunedA0_) {
    tunedDt_ = ctx.dt;
    tunedA0_ = ctx.k.a0;
    for (const NodeTerm& term : capacitors_) term.capacitor->tune(ctx);
  }
  for (const NodeTerm& term : nodeTerms_) {
    // A source j from a to b, as Capacitor::stampRhs (j = −ieq) and HeatFlowSource::stampRhs.
    const double j = term.capacitor != nullptr ? -term.capacitor->companion(ctx) : -*term.power;
    rhs[term.a] -= j;
    rhs[term.b] += j;
  }
  for (VoltageSource* source : sources_) source->stampRhs(rhs, ctx);
  factorization(ctx.dt, ctx.k, backwardEuler).solve(rhs_.data(), x_.data());
}

void ThermalNetwork::initialize(double dt) {
  // As the circuit's initial solve: a backward-Euler step 1000 times shorter than dt, in which
  // the capacitors hold their initial temperature difference.
  StepContext ctx{0.0, dt * 1e-3, backwardEulerCoefficients(), nullptr};
  solve(ctx, true);
}

void ThermalNetwork::advance(double t, double dt, const Coefficients& k, bool backwardEuler) {
  StepContext ctx{t, dt, k, nullptr};
  solve(ctx, backwardEuler);
  const double* x = x_.data();
  for (const NodeTerm& term : capacitors_) term.capacitor->commitAt(x, term.a, term.b);
}

}  // namespace pesim
