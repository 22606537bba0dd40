// Semiconductor loss model (see device_loss.hpp).
#include "losses/device_loss.hpp"

#include <algorithm>
#include <cmath>

#include "pesim/errors.hpp"

namespace pesim {

LossPart lossPart(const std::string& text, const std::string& owner) {
  if (text == "total") return LossPart::Total;
  if (text == "conduction") return LossPart::Conduction;
  if (text == "switching") return LossPart::Switching;
  throw Error(ErrorCode::ParameterOutOfRange,
              owner + ": part must be \"total\", \"conduction\" or \"switching\", got \"" + text + "\"", owner);
}

DeviceLoss::DeviceLoss(const SwitchingDevice& device, double kOn, double kOff, double uSwNorm, int paralleled)
    : device_(device), a_(device.nodes()[0]), b_(device.nodes()[1]), ron_(device.onResistance()),
      roff_(device.offResistance()), vf_(device.forwardVoltage()), kOn_(kOn), kOff_(kOff), uSwNorm_(uSwNorm),
      n_(paralleled) {}

DeviceLoss::DeviceLoss(const SwitchingDevice& device, std::shared_ptr<const DetailedLossModel> model, int paralleled)
    : device_(device), a_(device.nodes()[0]), b_(device.nodes()[1]), ron_(device.onResistance()),
      roff_(device.offResistance()), vf_(device.forwardVoltage()), detailed_(std::move(model)),
      conductionCursor_(detailed_->conduction), n_(paralleled) {}

void DeviceLoss::start(const double* x) {
  const double v = voltage(x);
  iPrev_ = device_.on() ? (v - vf_) / ron_ : (v - vf_) / roff_;
  vPrev_ = v;
  // No loss and no change of state yet.
  switched_ = false;
  conduction_ = switching_ = total_ = 0.0;
}

void DeviceLoss::startFromGeckoHistory(const double* x, double dt, double tj) {
  start(x);
  constexpr double kGeckoInitialCurrent = -1.0;  // AbstractLossCalculatorSwitch._oldCurrent
  conduction_ = conductionLoss(iPrev_, tj);
  if (std::fabs(iPrev_) / n_ < kEventCurrent) {
    switching_ = switchingEnergy(false, kGeckoInitialCurrent * n_, voltage(x), tj) / dt;
  }
  total_ = conduction_ + switching_;
}

// A turn-on sees the current after and the voltage before the event, a turn-off the current
// before and the voltage after it (the caller passes those).
double DeviceLoss::switchingEnergy(bool on, double i, double v, double tj) const {
  const double t = std::isnan(tj) ? kUncoupledJunction : tj;
  return on ? n_ * turnOnEnergy(i / n_, v, t) : n_ * turnOffEnergy(i / n_, v, t);
}

double DeviceLoss::turnOnEnergy(double i, double v, double tj) const {
  if (detailed_) return std::max(0.0, detailed_->turnOn.lookup(tj, i)) * std::fabs(v);
  return kOn_ * std::fabs(i) * std::fabs(v) / uSwNorm_;
}

double DeviceLoss::turnOffEnergy(double i, double v, double tj) const {
  if (detailed_) return std::max(0.0, detailed_->turnOff.lookup(tj, i)) * std::fabs(v);
  return kOff_ * std::fabs(i) * std::fabs(v) / uSwNorm_;
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
