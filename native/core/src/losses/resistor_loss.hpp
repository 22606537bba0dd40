// The loss of a resistor that a PV element or a LOSS block names (GeckoCIRCUITS lets a Pv couple to
// a power-circuit resistor: LossCalculatorResistor): the power v·i of the step just solved, the
// product of the resistor's current and voltage as GeckoCIRCUITS forms it. All of it counts as
// the total: GeckoCIRCUITS does not split a resistor's loss (it is no LossCalculationSplittable), so
// its conduction and switching parts read 0 (ThermPvChip keeps them at 0).
#pragma once

#include "steady/state_visitor.hpp"

#include <string>

#include "elements/element.hpp"
#include "losses/device_loss.hpp"

namespace pesim {

class ResistorLoss {
 public:
  explicit ResistorLoss(const Element& resistor) : resistor_(resistor) {}

  const std::string& name() const { return resistor_.name(); }
  // The loss of the step whose solution is x.
  void update(const double* x) { total_ = resistor_.current(x) * resistor_.voltage(x); }
  // Where the loss power of one part is kept (stable for the object's life), as DeviceLoss::partValue.
  const double* partValue(LossPart p) const { return p == LossPart::Total ? &total_ : &unsplit_; }
  void visitState(StateVisitor& visitor) { visitor.held(total_); }

 private:
  const Element& resistor_;
  double total_ = 0.0;
  double unsplit_ = 0.0;  // the conduction and switching parts: always 0
};

}  // namespace pesim
