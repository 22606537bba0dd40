// Park transforms between three-phase quantities and a frame rotating at angle θ (radians, an
// input), amplitude-invariant (a balanced set of amplitude X gives d = X at θ = its phase angle).
// GeckoCIRCUITS: ReglerABCDQ / ABCDQCalculator and ReglerDQABC / DQABCDCalculator.
//   ABCDQ (a, b, c, θ → d, q):
//     d =  2/3·[a·cos θ + b·cos(θ − 2π/3) + c·cos(θ + 2π/3)]
//     q = −2/3·[a·sin θ + b·sin(θ − 2π/3) + c·sin(θ + 2π/3)]
//   DQABC (d, q, θ → a, b, c):
//     a = d·cos θ − q·sin θ,  c = d·cos(θ + 2π/3) − q·sin(θ + 2π/3),  b = −(a + c)
// (GeckoCIRCUITS writes 2π/3 as π·0.6666666666666; the exact value is used here, a relative
// difference below 1e-13.) DQABC after ABCDQ returns a, b, c when a + b + c = 0.
#include <cmath>

#include "control/multi_output.hpp"

namespace pesim {

namespace {

constexpr double kSqrt3 = 1.7320508075688772;
constexpr double kTwoPiThirds = 2.0943951023931957;

class ParkTransform : public Block {
 public:
  using Block::Block;
  void evaluate(ControlContext& ctx) override {
    double a = in(ctx, 0), b = in(ctx, 1), c = in(ctx, 2), theta = in(ctx, 3);
    double s = std::sin(theta), co = std::cos(theta);
    out(ctx, (2.0 * (a - b) * co + (b - c) * (co + kSqrt3 * s)) / 3.0, 0);
    out(ctx, -(2.0 * (a - b) * s + (b - c) * (s - kSqrt3 * co)) / 3.0, 1);
  }
};

class InverseParkTransform : public Block {
 public:
  using Block::Block;
  void evaluate(ControlContext& ctx) override {
    double d = in(ctx, 0), q = in(ctx, 1), theta = in(ctx, 2);
    double a = d * std::cos(theta) - q * std::sin(theta);
    double c = d * std::cos(theta + kTwoPiThirds) - q * std::sin(theta + kTwoPiThirds);
    out(ctx, a, 0);
    out(ctx, -(a + c), 1);
    out(ctx, c, 2);
  }
};

}  // namespace

BlockPtr makeParkTransform(const std::string& name, std::vector<int> inputs, std::vector<int> outputs) {
  return std::make_unique<ParkTransform>(name, std::move(inputs), std::move(outputs));
}

BlockPtr makeInverseParkTransform(const std::string& name, std::vector<int> inputs, std::vector<int> outputs) {
  return std::make_unique<InverseParkTransform>(name, std::move(inputs), std::move(outputs));
}

}  // namespace pesim
