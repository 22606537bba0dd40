// Permanent-magnet synchronous machine (GeckoCIRCUITS: MotorPMSM / AbstractThreePhaseMotor /
// AbstractMotor): three star-connected stator terminals a, b, c (no star-point terminal), dq stator
// equations in the rotor frame and the mechanical equation of the shaft.
//
//   u_d = Rs·i_d + Ld·di_d/dt − ω_e·Lq·i_q
//   u_q = Rs·i_q + Lq·di_q/dt + ω_e·(Ld·i_d + ψ)
//   T_e = 1.5·p·i_q·(ψ + (Ld − Lq)·i_d)
//   J·dω_m/dt = T_e − T_load − f·ω_m,   dθ_m/dt = ω_m,   ω_e = p·ω_m,   θ_e = p·θ_m
//
// Park transform as GeckoCIRCUITS (d axis on phase a at θ_e = 0):
//   u_d = ⅔·Σ u_x·cos θ_x,  u_q = −⅔·Σ u_x·sin θ_x,  i_x = i_d·cos θ_x − i_q·sin θ_x,
//   θ_x = θ_e, θ_e − 2π/3, θ_e + 2π/3 for x = a, b, c.
// so a phase-a flux ψ·cos θ_e and the no-load phase EMF −ω_e·ψ·sin θ_e.
//
// Discretisation (backward Euler, as GeckoCIRCUITS' motor models): i_d = G_d·u_d + h_d with
// G_d = 1/(Rs + Ld/dt) and the speed voltages (ω_e·L·i, ω_e·ψ) taken from the previous step, as the
// rotor angle of the transform. Seen from the terminals, equal conductances G on d and q are the
// constant matrix G·(I − 11ᵀ/3), i.e. a conductance G/3 between each pair of terminals, whatever
// the angle: the factorisation stays valid while the rotor turns. A salient machine (Ld ≠ Lq)
// stamps the mean conductance Gm = (G_d + G_q)/2 and adds the rest, (G_d − Gm)·u_d and
// (G_q − Gm)·u_q, from the previous step's stator voltages as part of the source term. The
// mechanical state is advanced after each accepted step (commit) with the torque of that step.
//
// With GeckoCIRCUITS' timing the machine is stepped as GeckoCIRCUITS steps it instead (MotorPMSM,
// AbstractThreePhaseMotor, AbstractMotor.doCalculation, called after each step's solve by
// NetListLK.berechneSubCircuitAlsDifferentialgleichung): explicitly, as two current sources a → b
// (i_a) and c → b (i_c) holding the currents of the previous step. After a step's solve the dq
// equations are advanced with the terminal voltages of the step before (GeckoCIRCUITS reads the
// voltages across its sources before it stores the new ones), the speed voltages of the previous
// currents and speed, then the shaft, then the new phase currents at the new angle. The load torque
// of the first step is `loadTorque`; later ones come from the control as GeckoCIRCUITS hands them
// over (SimulationsKern.dataTransferLK_Control, two steps behind).
#pragma once

#include <string>
#include <vector>

#include "elements/element.hpp"

namespace pesim {

struct PmsmValues {
  double rs = 0.0;            // stator resistance per phase, Ω
  double ld = 0.0, lq = 0.0;  // d- and q-axis stator inductances, H
  double psi = 0.0;           // permanent-magnet flux linkage, Wb
  double polePairs = 1.0;
  double inertia = 1.0;       // J, kg·m²
  double friction = 0.0;      // viscous friction f, N·m·s
  double loadTorque = 0.0;    // constant load torque, N·m (when no signal is given)
  int loadSignal = -1;        // control signal giving the load torque, or −1
  double omega0 = 0.0;        // initial mechanical speed, rad/s
  double theta0 = 0.0;        // initial mechanical rotor angle, rad
  double ia0 = 0.0, ib0 = 0.0;  // initial stator currents of phases a and b, A
  bool geckoSteps = false;      // GeckoCIRCUITS' explicit stepping (above)
};

class Pmsm final : public Element {
 public:
  Pmsm(std::string name, std::vector<int> nodes, const PmsmValues& values);

  void declare(Pattern& pattern) override;
  bool reactive() const override { return true; }
  void stampMatrix(double* values, const StepContext& step) const override;
  bool hasRhs() const override { return true; }
  void stampRhs(double* rhs, const StepContext& step) override;
  bool hasHistory() const override { return true; }
  void commit(const double* x, const StepContext& step) override;
  // Current into terminal a (phase a), A.
  double current(const double*) const override { return phaseCurrent(0); }
  // The rotor angle grows with every turn: it is held, not solved for (the electrical state repeats
  // while the angle advances).
  void visitState(StateVisitor& visitor) override {
    visitor.real(id_);
    visitor.real(iq_);
    visitor.real(ud_);
    visitor.real(uq_);
    visitor.real(omega_);
    visitor.held(theta_);
    visitor.real(torque_);
    visitor.real(sourceA_);
    visitor.real(sourceC_);
    visitor.held(stepped_);
  }

  // Machine quantities after the last accepted step.
  double phaseCurrent(int phase) const;
  double speed() const { return omega_; }          // mechanical, rad/s
  double rotorAngle() const { return theta_; }     // mechanical, rad
  double electricTorque() const { return torque_; }

 private:
  double conductanceD(double dt) const { return 1.0 / (v_.rs + v_.ld / dt); }
  double conductanceQ(double dt) const { return 1.0 / (v_.rs + v_.lq / dt); }
  double meanConductance(double dt) const { return 0.5 * (conductanceD(dt) + conductanceQ(dt)); }
  double electricAngle() const { return v_.polePairs * theta_; }
  double loadTorque(const StepContext& step) const;
  void commitImplicit(const double* x, const StepContext& step);
  void commitGecko(const double* x, const StepContext& step);
  // The shaft over one step (backward Euler, AbstractMotor.calculateMechanicalParameters).
  void advanceShaft(double loadTorque, double dt);

  PmsmValues v_;
  double id_ = 0.0, iq_ = 0.0;  // rotor-frame stator currents after the last step
  double ud_ = 0.0, uq_ = 0.0;  // rotor-frame stator voltages after the last step
  double omega_, theta_;        // mechanical speed and angle
  double torque_ = 0.0;         // electric torque T_e of the last step
  double hd_ = 0.0, hq_ = 0.0;  // source terms of the step being solved (rotor frame)
  // GeckoCIRCUITS' stepping: ud_/uq_ hold u_ab and u_bc of the last step, id_/iq_ the dq
  // currents (0 before the first step, as GeckoCIRCUITS' fields), idPrev_/iqPrev_ their history.
  double idPrev_ = 0.0, iqPrev_ = 0.0;
  double sourceA_ = 0.0, sourceC_ = 0.0;  // i_a (a → b) and i_c (c → b) of the sources
  bool stepped_ = false;                  // a step has been committed
  ConductanceSlots pairs_[3];   // the pairs ab, bc, ca
};

}  // namespace pesim
