// Semiconductor loss model (see device_loss.hpp).
#include "losses/device_loss.hpp"

#include <algorithm>
#include <cmath>

#include "pesim/errors.hpp"

namespace pesim {

namespace {

// GeckoCIRCUITS LossCalculatorDetailed: the junction temperature of a device without a thermal
// model (the constant there is named DEFAULT_REFERENCE_VOLTAGE but is used as a temperature).
constexpr double kUncoupledJunction = 100.0;

}  // namespace

LossPart lossPart(const std::string& text, const std::string& owner) {
  if (text == "total") return LossPart::Total;
  if (text == "conduction") return LossPart::Conduction;
  if (text == "switching") return LossPart::Switching;
  throw Error(ErrorCode::ParameterOutOfRange,
              owner + ": part must be \"total\", \"conduction\" or \"switching\", got \"" + text + "\"", owner);
}

DeviceLoss::DeviceLoss(const SwitchingDevice& device, double kOn, double kOff, double uSwNorm, int paralleled)
    : device_(device), a_(device.nodes()[0]), b_(device.nodes()[1]), kOn_(kOn), kOff_(kOff), uSwNorm_(uSwNorm), n_(paralleled) {}

DeviceLoss::DeviceLoss(const SwitchingDevice& device, std::shared_ptr<const DetailedLossModel> model, int paralleled)
    : device_(device), a_(device.nodes()[0]), b_(device.nodes()[1]), detailed_(std::move(model)), n_(paralleled) {}

void DeviceLoss::start(const double* x) {
  wasOn_ = device_.on();
  iPrev_ = current(x);
  vPrev_ = voltage(x);
  iNow_ = iPrev_;
}

double DeviceLoss::conductionPerDevice(double i, double tj) const {
  if (detailed_) return detailed_->conduction.lookup(tj, i) * std::fabs(i);
  // LossCalculationSimple.calcConductionLoss: |i·uf| + i²·Ron.
  return std::fabs(i) * device_.forwardVoltage() + i * i * device_.onResistance();
}

double DeviceLoss::turnOnEnergy(double i, double v, double tj) const {
  if (detailed_) return std::max(0.0, detailed_->turnOn.lookup(tj, i)) * std::fabs(v);
  return kOn_ * std::fabs(i) * std::fabs(v) / uSwNorm_;
}

double DeviceLoss::turnOffEnergy(double i, double v, double tj) const {
  if (detailed_) return std::max(0.0, detailed_->turnOff.lookup(tj, i)) * std::fabs(v);
  return kOff_ * std::fabs(i) * std::fabs(v) / uSwNorm_;
}

void DeviceLoss::update(const double* x, double dt, double tj) {
  const double t = std::isnan(tj) ? kUncoupledJunction : tj;
  const bool on = device_.on();
  const double i = current(x);
  const double v = voltage(x);
  // Per device of a parallel group: the current divides, the losses add up (LossProperties).
  conduction_ = on ? n_ * conductionPerDevice(i / n_, t) : 0.0;
  double energy = 0.0;
  switched_ = on != wasOn_;
  if (on && !wasOn_) energy = n_ * turnOnEnergy(i / n_, vPrev_, t);
  if (!on && wasOn_) energy = n_ * turnOffEnergy(iPrev_ / n_, v, t);
  switching_ = energy / dt;
  wasOn_ = on;
  iPrev_ = i;
  vPrev_ = v;
  iNow_ = i;
}

void DeviceLoss::accumulate(double dt, double tj) {
  conductionEnergy_ += conduction_ * dt;
  switchingEnergy_ += switching_ * dt;
  if (switched_) ++events_;
  charge_ += iNow_ * dt;
  squares_ += iNow_ * iNow_ * dt;
  if (!std::isnan(tj)) {
    tjIntegral_ += tj * dt;
    tjMax_ = std::max(tjMax_, tj);
  }
  duration_ += dt;
}

DeviceLossSummary DeviceLoss::summary(bool hasJunction) const {
  DeviceLossSummary s;
  s.device = name();
  s.switchingEvents = events_;
  s.hasJunction = hasJunction;
  if (duration_ <= 0.0) return s;
  s.conductionLoss = conductionEnergy_ / duration_;
  s.switchingLoss = switchingEnergy_ / duration_;
  s.totalLoss = s.conductionLoss + s.switchingLoss;
  s.averageCurrent = charge_ / duration_;
  s.rmsCurrent = std::sqrt(squares_ / duration_);
  if (hasJunction) {
    s.junctionTemperature = tjIntegral_ / duration_;
    s.maxJunctionTemperature = tjMax_;
  }
  return s;
}

}  // namespace pesim
