// The electro-thermal coupling of a run: the loss models of the semiconductors that a PV element
// or a LOSS block refers to (and of every device with loss parameters, once there is a thermal
// network or a LOSS block), and the thermal network they heat. After each accepted circuit step:
// device losses at the junction temperatures of the previous step, then one thermal solve with
// those losses (PV sources); the new junction temperatures enter the losses of the next step.
// Circuits without thermal elements and LOSS blocks have no domain (nothing added to the step).
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "losses/device_loss.hpp"
#include "pesim/engine.hpp"
#include "thermal/network.hpp"

namespace pesim {

class ThermalDomain {
 public:
  // Null when the netlist has neither thermal elements nor LOSS blocks.
  static std::unique_ptr<ThermalDomain> build(const Netlist& netlist, const std::vector<SwitchingDevice*>& devices);

  ThermalDomain(const Netlist& netlist, const std::vector<SwitchingDevice*>& devices);

  // Before the first step: remembers device states, solves the initial temperatures.
  void start(const double* x, double dt);
  // After the circuit step ending at t has been accepted; `measuring` inside the window.
  void advance(const double* x, double t, double dt, bool firstOfPhase, bool measuring);

  const DeviceLoss* loss(const std::string& device) const;
  // The thermal network (throws naming `user` when the netlist has no thermal elements).
  const ThermalNetwork& network(const std::string& user) const;
  std::vector<DeviceLossSummary> summaries() const;

 private:
  // A PV element: its slot in power_ and energy_, and the device loss (part) it carries.
  struct LossSource {
    std::size_t slot;
    const double* loss;  // DeviceLoss::partValue
    const DeviceLoss* device;
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

  DeviceLoss* track(const std::string& name, const std::string& user, const Netlist& netlist,
                    const std::vector<SwitchingDevice*>& devices);
  // Reads the junction temperatures of the latest thermal solution into Tracked::tj.
  void refreshJunctions();
  // Keeps the voltages of the devices' nodes in x for the next step's turn-on losses.
  void keepVoltages(const double* x);

  // Circuit steps per thermal step for step size dt (see domain.cpp).
  long stride(double dt);

  Method method_;
  double strideDt_ = 0.0;
  long stride_ = 1;
  long pending_ = 0;          // circuit steps whose losses await the next thermal step
  bool phaseStart_ = true;    // the next thermal step is the first of a phase
  std::vector<double> energy_;  // per heat source: loss energy of the pending steps [J]
  std::vector<Tracked> tracked_;
  std::vector<LossSource> lossSources_;  // all PV elements (each also in its Tracked::feeds)
  std::vector<int> deviceNodes_;  // the circuit nodes of the tracked devices (no ground)
  std::vector<double> xPrev_;     // the previous step's solution, at deviceNodes_ only
  std::vector<double> power_;  // per QSRC/PV, in netlist order (stable: reserved once)
  std::unique_ptr<ThermalNetwork> network_;
};

}  // namespace pesim
