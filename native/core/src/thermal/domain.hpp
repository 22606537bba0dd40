// The electro-thermal coupling of a run: the loss models of the semiconductors that a PV element
// or a LOSS block refers to (and of every device with loss parameters, once there is a thermal
// network or a LOSS block), the losses of the resistors they refer to (v·i, ResistorLoss), and
// the thermal network they heat. After each accepted circuit step:
// device losses at the junction temperatures of the previous step, then one thermal solve with
// those losses (PV sources); the new junction temperatures enter the losses of the next step.
// Circuits without thermal elements and LOSS blocks have no domain (nothing added to the step).
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "losses/device_loss.hpp"
#include "losses/resistor_loss.hpp"
#include "pesim/engine.hpp"
#include "thermal/network.hpp"

namespace pesim {

class ThermalDomain {
 public:
  // Null when the netlist has neither thermal elements nor LOSS blocks. `devices`: the elements a
  // loss model can belong to; `resistors`: the circuit's resistors (netlist type R).
  static std::unique_ptr<ThermalDomain> build(const Netlist& netlist, const std::vector<SwitchingDevice*>& devices,
                                              const std::vector<const Element*>& resistors);

  ThermalDomain(const Netlist& netlist, const std::vector<SwitchingDevice*>& devices,
                const std::vector<const Element*>& resistors);

  // Before the first step (which ends at t): remembers device states, solves the initial
  // temperatures; with GeckoCIRCUITS' timing, also GeckoCIRCUITS' thermal step at t (startGecko).
  void start(const double* x, double t, double dt);
  // The arrays of a domain that continues another run's (whose state the caller then copies in):
  // as start() without any step.
  void resume(const double* x, double dt);
  // After the circuit step ending at t has been accepted; `measuring` inside the window.
  void advance(const double* x, double t, double dt, bool firstOfPhase, bool measuring);

 private:
  // The network's matrices for dt, the junction temperatures, no late losses.
  void prepare(double dt);
  void startGecko(const double* x, double t, double dt);

 public:

  // Where the loss power [W] of one part of a tracked device or resistor is kept (stable for the
  // domain's life), or null when `name` is neither.
  const double* lossPower(const std::string& name, LossPart part) const;
  // The thermal network (throws naming `user` when the netlist has no thermal elements).
  const ThermalNetwork& network(const std::string& user) const;
  std::vector<DeviceLossSummary> summaries() const;
  // Forgets the window statistics gathered so far (summaries() starts again).
  void clearWindowStatistics() {
    for (auto& t : tracked_) t.loss->clearWindow();
  }
  // The domain's state; the temperatures are unknowns of the steady-state analysis only when
  // `temperatures` is set, otherwise they are carried on from period to period.
  void visitState(StateVisitor& visitor, bool temperatures);
  // The period [s] of the circuit's sources (0: none): the thermal step then divides it, so that
  // every period has its thermal steps at the same places (see stride in domain.cpp).
  void alignToPeriod(double period);

 private:
  // A PV element: its slot in power_ and energy_, and the device or resistor loss (part) it carries.
  struct LossSource {
    std::size_t slot;
    const double* loss;  // DeviceLoss::partValue or ResistorLoss::partValue
    const DeviceLoss* device;      // null for a resistor's loss
    const ResistorLoss* resistor;  // null for a device's loss
  };
  struct Tracked {
    std::unique_ptr<DeviceLoss> loss;
    int junction = kGround;  // thermal node of the first PV that the device heats
    bool coupled = false;
    // The junction temperature of the last thermal solution (NaN when not coupled), refreshed
    // after each thermal step: it stays the same for the circuit steps in between.
    double tj = std::numeric_limits<double>::quiet_NaN();
    std::vector<LossSource> feeds;  // the PV elements carrying this device's loss
  };

  struct TrackedResistor {
    std::unique_ptr<ResistorLoss> loss;
  };

  DeviceLoss* track(const std::string& name, const std::string& user, const Netlist& netlist,
                    const std::vector<SwitchingDevice*>& devices);
  // The loss of resistor `name` (tracked when first named), or null when it is no resistor.
  ResistorLoss* trackResistor(const std::string& name, const std::vector<const Element*>& resistors);
  // A PV element's source: the loss (part) of the device or resistor it names.
  LossSource lossSource(const ElementSpec& pv, std::size_t slot, const Netlist& netlist,
                        const std::vector<SwitchingDevice*>& devices, const std::vector<const Element*>& resistors);
  // Reads the junction temperatures of the latest thermal solution into Tracked::tj.
  void refreshJunctions();

  // Circuit steps per thermal step for step size dt (see domain.cpp).
  long stride(double dt);

  Method method_;
  double strideDt_ = 0.0;
  long stride_ = 1;
  double period_ = 0.0;  // [s] the sources' period the thermal step divides (0: none)
  long pending_ = 0;          // circuit steps whose losses await the next thermal step
  bool phaseStart_ = true;    // the next thermal step is the first of a phase
  std::vector<double> energy_;  // per heat source: loss energy of the pending steps [J]
  // With GeckoCIRCUITS' timing the network takes each step's losses one circuit step late, as
  // GeckoCIRCUITS solves its thermal network before the step's losses are known (checked by running
  // it: a turn-on's energy shows in the junction temperature one step after the event), and the
  // losses start from GeckoCIRCUITS' loss history (DeviceLoss::startFromGeckoHistory).
  bool lossesOneStepLate_;
  std::vector<double> lateEnergy_;  // per heat source: the previous step's, when one step late [J]
  std::vector<Tracked> tracked_;
  std::vector<TrackedResistor> resistors_;
  std::vector<LossSource> lossSources_;  // all PV elements (each also in its Tracked::feeds)
  std::vector<double> power_;  // per QSRC/PV, in netlist order (stable: reserved once)
  std::unique_ptr<ThermalNetwork> network_;
};

}  // namespace pesim
