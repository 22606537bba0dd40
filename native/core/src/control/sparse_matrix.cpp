// SPARSEMATRIX: switching signals of a sparse matrix converter (a current-source rectifier stage
// with six switches and a voltage-source inverter stage with three half bridges), space-vector
// modulated over one pulse period. GeckoCIRCUITS: ReglerSPARSEMATRIX / SparseMatrixCalculator.
//
// Inputs: fp (carrier; a pulse period starts at each local maximum), uN1, uN2, uN3 (line phase
// voltages r, s, t), uNmax (line amplitude), uLmax (output amplitude), fL (output frequency, Hz;
// when ≤ 0 the output angle is phi2), phi2 (output angle, rad).
// Outputs (in this order): s1+, s2+, s3+, s1−, s2−, s3− (rectifier switches of phases r, s, t to
// the positive and negative rail), sA, sB, sC (inverter half bridges, 1 = upper switch on).
//
// At the start of a pulse period (and at the first evaluation) the period length Tp is measured
// (time since the last start; 40 µs before the first measurement), the sectors are found and the
// relative on-times computed:
// - input sector 1..12 from the order and signs of ur, us, ut; rectifier duty da = −u_x/u_y of the
//   sector's two phases (table kRectifierRatio);
// - output sector 1..12 from sin(φ), sin(φ − 2π/3), sin(φ − 4π/3) with φ = 2π·fL·t (or phi2);
// - k = uLmax/(√3·uNmax²), φ' = φ − π/2 reduced below π/3 by steps of π/3, ua = k·cos(φ' + π/6),
//   ub = k·sin(φ'); x1, x2 = ±2 times two phase voltages (table kInverterScale);
//   d1 = ua·x1, d2 = ub·x1, d4 = ub·x2, d5 = ua·x2 (odd output sectors; ua and ub swap for even
//   ones), d3 = 1 − (d1 + d2 + d4 + d5).
// Within the period, the position x = 1000·t_local/Tp (t_local counted in steps of dt from the
// period start) selects each switch state, symmetric about x = 500 on integer grid points
// (GeckoCIRCUITS truncates each edge to an integer of the 1000-point period):
// - rectifier: per input sector each switch is on, off, "centre" (on for D ≤ x < 1000 − D) or
//   "outside" (the complement), D = int(da·500) (table kRectifierPattern);
// - inverter: one half bridge is fixed on or off per output sector, the two others switch on the
//   pairs A = [int(d1·500), int((1 − d5)·500)) and B = [int((d1 + d2)·500), int((d1 + d2 + d3)·500))
//   mirrored about 500 (table kInverterPattern).
// When a sector cannot be determined (the output comparisons are strict: none holds at φ = 0) the
// previous sector, on-times and switch states remain (all 0 before the first sector).
#include <array>
#include <cmath>
#include <limits>

#include "control/multi_output.hpp"

namespace pesim {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kInitialPeriod = 1.0 / 25e3;
constexpr int kPeriodPoints = 1000;
constexpr int kHalf = kPeriodPoints / 2;

// Java's (int) conversion: truncation toward zero, NaN → 0, saturation at the int range.
int javaInt(double x) {
  if (std::isnan(x)) return 0;
  if (x >= static_cast<double>(std::numeric_limits<int>::max())) return std::numeric_limits<int>::max();
  if (x <= static_cast<double>(std::numeric_limits<int>::min())) return std::numeric_limits<int>::min();
  return static_cast<int>(x);
}

enum Phase { R = 0, S = 1, T = 2 };

// Rectifier duty of input sector n (index n − 1): da = −u[first] / u[second].
constexpr std::array<std::array<int, 2>, 6> kRectifierRatio{{{T, R}, {R, T}, {S, T}, {T, S}, {R, S}, {S, R}}};

// Inverter scale of input sector n: x1 = sign·2·u[first], x2 = sign·2·u[second].
struct Scale {
  double sign;
  int first, second;
};
constexpr std::array<Scale, 12> kInverterScale{{{-1, T, S}, {1, R, S}, {1, S, R}, {-1, T, R}, {-1, R, T}, {1, S, T},
                                                {1, T, S}, {-1, R, S}, {-1, S, R}, {1, T, R}, {1, R, T}, {-1, S, T}}};

// Rectifier switch states s1+, s2+, s3+, s1−, s2−, s3− per input sector: '1' on, '0' off,
// 'C' on for D ≤ x < 1000 − D, 'O' on outside that interval.
constexpr std::array<const char*, 12> kRectifierPattern{
    "1000CO", "OC0001", "CO0001", "010C0O", "010O0C", "0OC100",
    "0CO100", "001OC0", "001CO0", "C0O010", "O0C010", "1000OC"};

// Inverter half bridges sA, sB, sC per output sector: '1'/'0' fixed; 'a'/'b' on during the pairs A/B
// (0 outside them); 'A'/'B' the complement (1 outside them).
constexpr std::array<const char*, 12> kInverterPattern{
    "1ab", "BA0", "AB0", "a1b", "b1a", "0BA", "0AB", "ba1", "ab1", "A0B", "B0A", "1ba"};

int inputSector(double ur, double us, double ut, int previous) {
  if (us <= 0 && ut <= us) return 1;
  if (us >= 0 && ur >= us) return 2;
  if (ur >= 0 && us >= ur) return 3;
  if (ur <= 0 && ut <= ur) return 4;
  if (ut <= 0 && ur <= ut) return 5;
  if (ut >= 0 && us >= ut) return 6;
  if (us >= 0 && ut >= us) return 7;
  if (us <= 0 && ur <= us) return 8;
  if (ur <= 0 && us <= ur) return 9;
  if (ur >= 0 && ut >= ur) return 10;
  if (ut >= 0 && ur >= ut) return 11;
  if (ut <= 0 && us <= ut) return 12;
  return previous;
}

int outputSector(double phi, int previous) {
  const double u1 = std::sin(phi), u2 = std::sin(phi - 2 * kPi / 3), u3 = std::sin(phi - 4 * kPi / 3);
  if (u2 < 0 && u3 < u2) return 1;
  if (u2 > 0 && u1 > u2) return 2;
  if (u1 > 0 && u2 > u1) return 3;
  if (u1 < 0 && u3 < u1) return 4;
  if (u3 < 0 && u1 < u3) return 5;
  if (u3 > 0 && u2 > u3) return 6;
  if (u2 > 0 && u3 > u2) return 7;
  if (u2 < 0 && u1 < u2) return 8;
  if (u1 < 0 && u2 < u1) return 9;
  if (u1 > 0 && u3 > u1) return 10;
  if (u3 > 0 && u1 > u3) return 11;
  if (u3 < 0 && u2 < u3) return 12;
  return previous;
}

// On for a ≤ x < b and for 1000 − b ≤ x < 1000 − a (the interval mirrored about the period's
// middle), tested edge by edge in GeckoCIRCUITS' order (which matters only for a > b or b > 500).
bool inPair(double x, int a, int b) {
  if (x < a) return false;
  if (x < b) return true;
  if (x < kPeriodPoints - b) return false;
  return x < kPeriodPoints - a;
}

class SparseMatrixModulator : public Block {
 public:
  using Block::Block;
  void visitState(StateVisitor& visitor) override {
    visitor.held(carrierBefore_);
    visitor.held(carrierLast_);
    visitor.held(newPeriod_);
    visitor.held(tLocal_);
    visitor.held(period_);
    visitor.held(inputSector_);
    visitor.held(outputSector_);
    visitor.held(rectifierDuty_);
    for (double& d : d_) visitor.held(d);
    for (double& s : switches_) visitor.held(s);
  }

  void evaluate(ControlContext& ctx) override {
    const double carrier = in(ctx, 0);
    if (carrierBefore_ < carrierLast_ && carrierLast_ > carrier) newPeriod_ = true;
    carrierBefore_ = carrierLast_;
    carrierLast_ = carrier;
    if (newPeriod_) {
      if (tLocal_ != 0.0) period_ = tLocal_;
      tLocal_ = 0.0;
      startPeriod(ctx);
      newPeriod_ = false;
    }
    const double x = kPeriodPoints * tLocal_ / period_;
    setRectifier(x);
    setInverter(x);
    tLocal_ += ctx.dt;
    for (std::size_t i = 0; i < switches_.size(); ++i) out(ctx, switches_[i], i);
  }

 private:
  void startPeriod(const ControlContext& ctx) {
    const std::array<double, 3> u{in(ctx, 1), in(ctx, 2), in(ctx, 3)};
    const double uNmax = in(ctx, 4), uOutMax = in(ctx, 5), fOut = in(ctx, 6), phi2 = in(ctx, 7);
    const double phi = fOut > 0 ? 2 * kPi * fOut * ctx.t : phi2;
    inputSector_ = inputSector(u[R], u[S], u[T], inputSector_);
    outputSector_ = outputSector(phi, outputSector_);
    if (inputSector_ < 1) return;
    const auto& ratio = kRectifierRatio[static_cast<std::size_t>((inputSector_ - 1) % 6)];
    rectifierDuty_ = -u[static_cast<std::size_t>(ratio[0])] / u[static_cast<std::size_t>(ratio[1])];
    const Scale& scale = kInverterScale[static_cast<std::size_t>(inputSector_ - 1)];
    const double x1 = scale.sign * 2 * u[static_cast<std::size_t>(scale.first)];
    const double x2 = scale.sign * 2 * u[static_cast<std::size_t>(scale.second)];
    const double k = uOutMax / (std::sqrt(3.0) * uNmax * uNmax);
    double angle = phi - kPi / 2;
    while (angle >= kPi / 3) angle -= kPi / 3;
    double ua = k * std::cos(angle + kPi / 6), ub = k * std::sin(angle);
    if (outputSector_ < 1) return;
    if (outputSector_ % 2 == 0) std::swap(ua, ub);
    d_ = {ua * x1, ub * x1, 0.0, ub * x2, ua * x2};
    d_[2] = 1 - (d_[0] + d_[1] + d_[3] + d_[4]);
  }

  void setRectifier(double x) {
    if (inputSector_ < 1) return;
    const int edge = javaInt(rectifierDuty_ * kHalf);
    const bool centre = x >= edge && x < kPeriodPoints - edge;
    const char* pattern = kRectifierPattern[static_cast<std::size_t>(inputSector_ - 1)];
    for (std::size_t i = 0; i < 6; ++i) {
      const char c = pattern[i];
      switches_[i] = c == '1' || (c == 'C' && centre) || (c == 'O' && !centre) ? 1.0 : 0.0;
    }
  }

  void setInverter(double x) {
    if (outputSector_ < 1) return;
    const bool a = inPair(x, javaInt(d_[0] * kHalf), javaInt((1 - d_[4]) * kHalf));
    const bool b = inPair(x, javaInt((d_[0] + d_[1]) * kHalf), javaInt((d_[0] + d_[1] + d_[2]) * kHalf));
    const char* pattern = kInverterPattern[static_cast<std::size_t>(outputSector_ - 1)];
    for (std::size_t i = 0; i < 3; ++i) {
      const char c = pattern[i];
      bool on = c == '1' || (c == 'a' && a) || (c == 'b' && b) || (c == 'A' && !a) || (c == 'B' && !b);
      switches_[6 + i] = on ? 1.0 : 0.0;
    }
  }

  double carrierBefore_ = 0.0, carrierLast_ = 0.0;
  bool newPeriod_ = true;
  double tLocal_ = 0.0;
  double period_ = kInitialPeriod;
  int inputSector_ = -1, outputSector_ = -1;
  double rectifierDuty_ = 0.0;
  std::array<double, 5> d_{};
  std::array<double, 9> switches_{};
};

}  // namespace

BlockPtr makeSparseMatrixModulator(const std::string& name, std::vector<int> inputs, std::vector<int> outputs) {
  return std::make_unique<SparseMatrixModulator>(name, std::move(inputs), std::move(outputs));
}

}  // namespace pesim
