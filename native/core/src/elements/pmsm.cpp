// Permanent-magnet synchronous machine: dq stator equations behind a constant terminal
// conductance, and the shaft equation advanced after each accepted step (see pmsm.hpp); the PMSM
// descriptor (catalog.hpp).
#include "elements/pmsm.hpp"

#include <cmath>

#include "elements/catalog.hpp"

namespace pesim {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kThird = 2.0 * kPi / 3.0;

// Angle θ_x of phase x (0, 1, 2 = a, b, c) for the rotor's electric angle θ_e.
double phaseAngle(double thetaE, int phase) {
  return phase == 0 ? thetaE : (phase == 1 ? thetaE - kThird : thetaE + kThird);
}

}  // namespace

Pmsm::Pmsm(std::string name, std::vector<int> nodes, const PmsmValues& values)
    : Element(std::move(name), std::move(nodes)), v_(values), omega_(values.omega0), theta_(values.theta0) {
  // Initial currents: i_c = −(i_a + i_b), transformed to the rotor frame.
  const double i[3] = {v_.ia0, v_.ib0, -(v_.ia0 + v_.ib0)};
  for (int x = 0; x < 3; ++x) {
    const double angle = phaseAngle(electricAngle(), x);
    id_ += 2.0 / 3.0 * i[x] * std::cos(angle);
    iq_ -= 2.0 / 3.0 * i[x] * std::sin(angle);
  }
  if (v_.geckoSteps) {
    // MotorPMSM.setzeParameterZustandswerteAufNULL: the initial currents are the history and the
    // sources' values; the present dq currents start at 0.
    idPrev_ = id_;
    iqPrev_ = iq_;
    id_ = iq_ = 0.0;
    sourceA_ = v_.ia0;
    sourceC_ = -(v_.ia0 + v_.ib0);
  }
}

void Pmsm::declare(Pattern& pattern) {
  if (v_.geckoSteps) return;  // current sources only
  for (int x = 0; x < 3; ++x) pairs_[x].declare(pattern, node(static_cast<std::size_t>(x)), node(static_cast<std::size_t>((x + 1) % 3)));
}

void Pmsm::stampMatrix(double* values, const StepContext& step) const {
  if (v_.geckoSteps) return;
  // G·(I − 11ᵀ/3) is a conductance G/3 between each pair of terminals.
  const double g = meanConductance(step.dt) / 3.0;
  for (const ConductanceSlots& pair : pairs_) pair.stamp(values, g);
}

double Pmsm::loadTorque(const StepContext& step) const {
  return v_.loadSignal >= 0 && step.signals != nullptr ? step.signals[v_.loadSignal] : v_.loadTorque;
}

void Pmsm::stampRhs(double* rhs, const StepContext& step) {
  if (v_.geckoSteps) {
    addSourceCurrent(rhs, node(0), node(1), sourceA_);
    addSourceCurrent(rhs, node(2), node(1), sourceC_);
    return;
  }
  const double dt = step.dt;
  const double gd = conductanceD(dt), gq = conductanceQ(dt), gm = meanConductance(dt);
  const double omegaE = v_.polePairs * omega_;
  // i_d = G_d·(u_d + ω_e·Lq·i_q + Ld·i_d/dt), i_q = G_q·(u_q − ω_e·(Ld·i_d + ψ) + Lq·i_q/dt) with the
  // history and speed terms of the previous step; the saliency part (G − Gm)·u is explicit.
  hd_ = gd * (omegaE * v_.lq * iq_ + v_.ld * id_ / dt) + (gd - gm) * ud_;
  hq_ = gq * (-omegaE * (v_.ld * id_ + v_.psi) + v_.lq * iq_ / dt) + (gq - gm) * uq_;
  const double thetaE = electricAngle();
  for (int x = 0; x < 3; ++x) {
    const double angle = phaseAngle(thetaE, x);
    // The source part of the current into terminal x: it leaves node x.
    addSourceCurrent(rhs, node(static_cast<std::size_t>(x)), kGround, hd_ * std::cos(angle) - hq_ * std::sin(angle));
  }
}

void Pmsm::commit(const double* x, const StepContext& step) {
  if (v_.geckoSteps) commitGecko(x, step);
  else commitImplicit(x, step);
}

void Pmsm::commitImplicit(const double* x, const StepContext& step) {
  const double thetaE = electricAngle();
  double ud = 0.0, uq = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double u = nodeVoltage(x, node(static_cast<std::size_t>(k)));
    const double angle = phaseAngle(thetaE, k);
    ud += 2.0 / 3.0 * u * std::cos(angle);
    uq -= 2.0 / 3.0 * u * std::sin(angle);
  }
  const double gm = meanConductance(step.dt);
  id_ = gm * ud + hd_;
  iq_ = gm * uq + hq_;
  ud_ = ud;
  uq_ = uq;
  advanceShaft(loadTorque(step), step.dt);
}

void Pmsm::advanceShaft(double load, double dt) {
  torque_ = 1.5 * v_.polePairs * iq_ * (v_.psi + (v_.ld - v_.lq) * id_);
  omega_ = (torque_ - load + v_.inertia * omega_ / dt) / (v_.inertia / dt + v_.friction);
  theta_ += omega_ * dt;
}

// MotorPMSM.calculateMotorEquations, then the shaft and AbstractThreePhaseMotor.updateSourceParameters.
void Pmsm::commitGecko(const double* x, const StepContext& step) {
  const double dt = step.dt;
  const double load = stepped_ ? loadTorque(step) : v_.loadTorque;
  const double uab = ud_, ubc = uq_;  // the terminal voltages of the step before
  const double sqrt3 = std::sqrt(3.0);
  double c = std::cos(electricAngle()), s = std::sin(electricAngle());
  const double ud = (2.0 * uab * c + ubc * (c + sqrt3 * s)) / 3.0;
  const double uq = -(2.0 * uab * s + ubc * (s - sqrt3 * c)) / 3.0;
  const double omegaE = v_.polePairs * omega_;
  const double udi = omegaE * v_.lq * iq_;
  const double uqi = omegaE * (v_.ld * id_ + v_.psi);
  id_ = (ud + udi + v_.ld * idPrev_ / dt) / (v_.rs + v_.ld / dt);
  iq_ = (uq - uqi + v_.lq * iqPrev_ / dt) / (v_.rs + v_.lq / dt);
  advanceShaft(load, dt);
  c = std::cos(electricAngle());
  s = std::sin(electricAngle());
  sourceA_ = id_ * c - iq_ * s;
  sourceC_ = id_ * std::cos(electricAngle() + kThird) - iq_ * std::sin(electricAngle() + kThird);
  idPrev_ = id_;
  iqPrev_ = iq_;
  ud_ = nodeVoltage(x, node(0)) - nodeVoltage(x, node(1));
  uq_ = nodeVoltage(x, node(1)) - nodeVoltage(x, node(2));
  stepped_ = true;
}

double Pmsm::phaseCurrent(int phase) const {
  if (v_.geckoSteps) return phase == 0 ? sourceA_ : phase == 2 ? sourceC_ : -(sourceA_ + sourceC_);
  const double angle = phaseAngle(electricAngle(), phase);
  return id_ * std::cos(angle) - iq_ * std::sin(angle);
}

namespace {

// PMSM parameters with GeckoCIRCUITS' defaults (MotorPMSM, AbstractMotor); the load torque is a
// number or the name of a control signal.
PmsmValues pmsmValues(const Params& p, const ElementEnvironment& env, const std::string& owner) {
  PmsmValues v;
  v.rs = p.nonNegative("Rs", 0.5);
  v.ld = p.positive("Ld", 0.002);
  v.lq = p.positive("Lq", 0.002);
  v.psi = p.number("psi", 0.15);
  v.polePairs = p.positive("polePairs", 1.0);
  v.inertia = p.positive("J", 1.0);
  v.friction = p.nonNegative("friction", 0.1);
  std::string signal = p.text("loadSignal", "");
  if (!signal.empty()) v.loadSignal = env.signal(signal, owner);
  v.loadTorque = p.number("loadTorque", 0.0);
  v.omega0 = p.number("omega0", 0.0);
  v.theta0 = p.number("theta0", 0.0);
  v.ia0 = p.number("ia0", 0.0);
  v.ib0 = p.number("ib0", 0.0);
  v.geckoSteps = env.geckoTiming;
  return v;
}

void pmsm(const ElementArgs& a, BuiltElement& built) {
  const auto& n = a.nodes;
  built.element = std::make_unique<Pmsm>(a.spec.name, n, pmsmValues(a.p, a.env, a.spec.name));
  built.connectivity.conducting = {{n[0], n[1]}, {n[1], n[2]}};
}

const ElementDescriptor kMachineElements[] = {
    {"PMSM", 3, false, pmsm},
};

}  // namespace

ElementFamily machineElements() { return elementFamily(kMachineElements); }

}  // namespace pesim
