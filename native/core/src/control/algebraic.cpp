// Blocks whose output is a function of the present inputs: arithmetic (with POW), comparisons,
// logic, limits, the hysteresis comparator, and the sinks GATE and SCOPE (read by the engine, not
// evaluated).
#include <algorithm>
#include <cmath>
#include <functional>

#include "control/catalog.hpp"
#include "pesim/errors.hpp"

namespace pesim {

namespace {

constexpr double kTrue = 1.0;
constexpr double kFalse = 0.0;
bool isTrue(double value) { return value > 0.5; }

// Any block computing one output from its inputs with a function.
class Function : public Block {
 public:
  using Fn = std::function<double(const double*, std::size_t)>;
  Function(std::string name, std::vector<int> inputs, std::vector<int> outputs, Fn fn)
      : Block(std::move(name), std::move(inputs), std::move(outputs)), fn_(std::move(fn)),
        values_(this->inputs().size()) {}
  void evaluate(ControlContext& ctx) override {
    for (std::size_t i = 0; i < values_.size(); ++i) values_[i] = in(ctx, i);
    out(ctx, fn_(values_.data(), values_.size()));
  }
  bool pure() const override { return true; }  // values_ is scratch, not state

 private:
  Fn fn_;
  std::vector<double> values_;
};

class Hysteresis : public Block {
 public:
  Hysteresis(std::string name, std::vector<int> inputs, std::vector<int> outputs, const Params& p)
      : Block(std::move(name), std::move(inputs), std::move(outputs)),
        h_(p.nonNegative("h", 0.0)), high_(p.number("high", 1.0)), low_(p.number("low", 0.0)),
        state_(low_) {}
  // A second input, when present, is the width h at each step (GeckoCIRCUITS:
  // HysteresisCalculatorExternal); it is used as given, also when negative.
  void evaluate(ControlContext& ctx) override {
    double x = in(ctx, 0);
    double h = inputs().size() > 1 ? in(ctx, 1) : h_;
    if (x > h) state_ = high_;
    else if (x < -h) state_ = low_;
    out(ctx, state_);
  }
  void visitState(StateVisitor& visitor) override { visitor.held(state_); }

 private:
  double h_, high_, low_, state_;
};

// Sinks: their input is read elsewhere (GATE by the switch, SCOPE by the recorder).
class Sink : public Block {
 public:
  using Block::Block;
  void evaluate(ControlContext&) override {}
  bool evaluates() const override { return false; }
};

// Functions of one input (GeckoCIRCUITS ReglerASIN / ReglerACOS / ReglerTAN: java.lang.Math's
// functions, NaN outside ±1, as std::asin, std::acos).
double absolute(double x) { return std::abs(x); }
double signum(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }
double squareRoot(double x) { return std::sqrt(x); }
double square(double x) { return x * x; }
double exponential(double x) { return std::exp(x); }
double naturalLog(double x) { return std::log(x); }
double sine(double x) { return std::sin(x); }
double cosine(double x) { return std::cos(x); }
double arcTangent(double x) { return std::atan(x); }
double arcSine(double x) { return std::asin(x); }
double arcCosine(double x) { return std::acos(x); }
double tangent(double x) { return std::tan(x); }
// ROUND is GeckoCIRCUITS RoundCalculator, java.lang.Math.round: the closest integer with ties
// rounded up (−2.5 → −2, where std::round gives −3), NaN → 0, saturated to the long range ±2^63.
// floor(x + 0.5) would round 0.49999999999999994 up (the sum rounds to 1.0); x − ⌊x⌋ is exact.
double rounded(double x) {
  if (std::isnan(x)) return 0.0;
  constexpr double kLongLimit = 9223372036854775808.0;  // 2^63: (double) Long.MAX_VALUE
  const double below = std::floor(x);
  const double result = x - below >= 0.5 ? below + 1.0 : below;
  return std::clamp(result, -kLongLimit, kLongLimit) + 0.0;  // + 0.0: a long has no −0
}
double floored(double x) { return std::floor(x); }  // FLOOR: the largest integer ≤ x
double negation(double x) { return isTrue(x) ? kFalse : kTrue; }

// GeckoCIRCUITS ReglerPOW: y = x1^x2 with java.lang.Math.pow, which differs from std::pow only in
// that a NaN exponent gives NaN (std::pow(1, NaN) = 1) and (±1)^±∞ is NaN (std::pow gives 1).
double javaPow(double base, double exponent) {
  if (std::isnan(exponent)) return std::nan("");
  if (std::abs(base) == 1.0 && std::isinf(exponent)) return std::nan("");
  return std::pow(base, exponent);
}

bool greater(double a, double b) { return a > b; }
bool greaterOrEqual(double a, double b) { return a >= b; }
bool less(double a, double b) { return a < b; }
bool lessOrEqual(double a, double b) { return a <= b; }
bool equal(double a, double b) { return a == b; }
bool notEqual(double a, double b) { return a != b; }

constexpr std::size_t kMany = static_cast<std::size_t>(-1);

void requireInputs(const BlockArgs& a, std::size_t min, std::size_t max) {
  const std::size_t got = a.inputs.size();
  if (got >= min && got <= max) return;
  std::string expected = min == max ? std::to_string(min) : std::to_string(min) + " or more";
  throw Error(ErrorCode::NetlistInvalid,
              a.name + ": a " + a.type + " block takes " + expected + " input(s), got " + std::to_string(got), a.name);
}

BlockPtr functionBlock(BlockArgs& a, Function::Fn fn) {
  return std::make_unique<Function>(a.name, std::move(a.inputs), std::move(a.outputs), std::move(fn));
}

template <double (*F)(double)>
BlockPtr unary(BlockArgs& a) {
  requireInputs(a, 1, 1);
  return functionBlock(a, [](const double* v, std::size_t) { return F(v[0]); });
}

template <bool (*F)(double, double)>
BlockPtr comparison(BlockArgs& a) {
  requireInputs(a, 2, 2);
  return functionBlock(a, [](const double* v, std::size_t) { return F(v[0], v[1]) ? kTrue : kFalse; });
}

// GATE, SCOPE.
BlockPtr sink(BlockArgs& a) {
  if (a.type == "GATE") requireInputs(a, 1, 1);
  return std::make_unique<Sink>(a.name, std::move(a.inputs), std::move(a.outputs));
}

BlockPtr gain(BlockArgs& a) {
  requireInputs(a, 1, 1);
  double k = a.params.number("k");
  return functionBlock(a, [k](const double* v, std::size_t) { return k * v[0]; });
}

BlockPtr sum(BlockArgs& a) {
  requireInputs(a, 1, kMany);
  const std::size_t n = a.inputs.size();
  std::vector<double> signs(n, 1.0);
  if (a.params.has("signs")) {
    signs = a.params.array("signs");
    if (signs.size() != n) a.params.outOfRange("signs", "one sign per input");
  }
  return functionBlock(a, [signs](const double* v, std::size_t count) {
    double total = 0.0;
    for (std::size_t i = 0; i < count; ++i) total += signs[i] * v[i];
    return total;
  });
}

BlockPtr difference(BlockArgs& a) {
  requireInputs(a, 2, 2);
  return functionBlock(a, [](const double* v, std::size_t) { return v[0] - v[1]; });
}

BlockPtr product(BlockArgs& a) {
  requireInputs(a, 2, kMany);
  return functionBlock(a, [](const double* v, std::size_t count) {
    double result = 1.0;
    for (std::size_t i = 0; i < count; ++i) result *= v[i];
    return result;
  });
}

BlockPtr quotient(BlockArgs& a) {
  requireInputs(a, 2, 2);
  return functionBlock(a, [](const double* v, std::size_t) { return v[0] / v[1]; });
}

BlockPtr power(BlockArgs& a) {
  requireInputs(a, 2, 2);
  return functionBlock(a, [](const double* v, std::size_t) { return javaPow(v[0], v[1]); });
}

BlockPtr minimum(BlockArgs& a) {
  requireInputs(a, 1, kMany);
  return functionBlock(a, [](const double* v, std::size_t count) { return *std::min_element(v, v + count); });
}

BlockPtr maximum(BlockArgs& a) {
  requireInputs(a, 1, kMany);
  return functionBlock(a, [](const double* v, std::size_t count) { return *std::max_element(v, v + count); });
}

// AND, OR, XOR of the inputs' truth values.
template <int Kind>
BlockPtr logic(BlockArgs& a) {
  requireInputs(a, 2, kMany);
  return functionBlock(a, [](const double* v, std::size_t count) {
    std::size_t trues = 0;
    for (std::size_t i = 0; i < count; ++i) trues += isTrue(v[i]) ? 1 : 0;
    bool result = Kind == 0 ? trues == count : (Kind == 1 ? trues > 0 : trues % 2 == 1);
    return result ? kTrue : kFalse;
  });
}

BlockPtr limit(BlockArgs& a) {
  requireInputs(a, 1, 1);
  double lo = a.params.number("min"), hi = a.params.number("max");
  if (hi < lo) a.params.outOfRange("max", "at least 'min'");
  return functionBlock(a, [lo, hi](const double* v, std::size_t) { return std::clamp(v[0], lo, hi); });
}

BlockPtr hysteresis(BlockArgs& a) {
  if (a.inputs.size() != 2) requireInputs(a, 1, 1);
  return std::make_unique<Hysteresis>(a.name, std::move(a.inputs), std::move(a.outputs), a.params);
}

const BlockDescriptor kAlgebraicBlocks[] = {
    {"GATE", true, 0, sink},
    {"SCOPE", true, 0, sink},
    {"GAIN", true, 1, gain},
    {"ADD", true, 1, sum},
    {"SUB", true, 1, difference},
    {"MUL", true, 1, product},
    {"DIV", true, 1, quotient},
    {"POW", true, 1, power},
    {"MIN", true, 1, minimum},
    {"MAX", true, 1, maximum},
    {"ABS", true, 1, unary<absolute>},
    {"SIGN", true, 1, unary<signum>},
    {"SQRT", true, 1, unary<squareRoot>},
    {"SQR", true, 1, unary<square>},
    {"EXP", true, 1, unary<exponential>},
    {"LN", true, 1, unary<naturalLog>},
    {"SIN", true, 1, unary<sine>},
    {"COS", true, 1, unary<cosine>},
    {"ATAN", true, 1, unary<arcTangent>},
    {"ASIN", true, 1, unary<arcSine>},
    {"ACOS", true, 1, unary<arcCosine>},
    {"TAN", true, 1, unary<tangent>},
    {"ROUND", true, 1, unary<rounded>},
    {"FLOOR", true, 1, unary<floored>},
    {"NOT", true, 1, unary<negation>},
    {"GT", true, 1, comparison<greater>},
    {"GE", true, 1, comparison<greaterOrEqual>},
    {"LT", true, 1, comparison<less>},
    {"LE", true, 1, comparison<lessOrEqual>},
    {"EQ", true, 1, comparison<equal>},
    {"NE", true, 1, comparison<notEqual>},
    {"AND", true, 1, logic<0>},
    {"OR", true, 1, logic<1>},
    {"XOR", true, 1, logic<2>},
    {"LIMIT", true, 1, limit},
    {"HYS", true, 1, hysteresis},
};

}  // namespace

BlockFamily algebraicBlocks() { return blockFamily(kAlgebraicBlocks); }

}  // namespace pesim
