// Blocks whose output is a function of the present inputs: arithmetic (with POW), comparisons,
// logic, limits, the hysteresis comparator, and the sinks GATE and SCOPE (read by the engine, not
// evaluated).
#include <algorithm>
#include <cmath>

#include "control/catalog.hpp"
#include "math/sine.hpp"
#include "pesim/errors.hpp"

namespace pesim {

namespace {

constexpr double kTrue = 1.0;
constexpr double kFalse = 0.0;
// GeckoCIRCUITS' logic calculators (control/calculators/*Calculator.java) compare with the threshold
// 0.5 in two ways: AND of two inputs and OR take `x > 0.5` as true; AND of three or more inputs,
// XOR and NOT take `x < 0.5` as false, so there exactly 0.5 (and NaN, for AND) counts as true.
constexpr double kThreshold = 0.5;
bool above(double value) { return value > kThreshold; }
bool notBelow(double value) { return !(value < kThreshold); }

// Any block computing one output from its inputs with a function fn(values, count). Fn is the
// function's own (lambda) type, so that each kind of block calls it inline, not through a pointer.
template <class Fn>
class Function final : public Block {
 public:
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

// HYS as GeckoCIRCUITS' HysteresisCalculatorInternal/External: high when x > h, low when x < −h,
// otherwise unchanged, except that x = h exactly sets the output by the sign of x (high, low, or
// the middle (high + low) / 2 for 0). h may be negative. The output starts at `initial` (default
// low; GeckoCIRCUITS starts at 0, the reader of .ipes files says so).
class Hysteresis : public Block {
 public:
  Hysteresis(std::string name, std::vector<int> inputs, std::vector<int> outputs, const Params& p)
      : Block(std::move(name), std::move(inputs), std::move(outputs)),
        h_(p.number("h", 0.0)), high_(p.number("high", 1.0)), low_(p.number("low", 0.0)),
        state_(p.number("initial", low_)) {}
  // A second input, when present, is the width h at each step (HysteresisCalculatorExternal).
  void evaluate(ControlContext& ctx) override {
    double x = in(ctx, 0);
    double h = inputs().size() > 1 ? in(ctx, 1) : h_;
    if (x > h) state_ = high_;
    else if (x < -h) state_ = low_;
    else if (x == h) state_ = x > 0.0 ? high_ : (x < 0.0 ? low_ : 0.5 * (high_ + low_));
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
// SIGN is SignumCalculator, Math.signum: ±1, and the input itself when it is ±0 or NaN.
double signum(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : x); }
double squareRoot(double x) { return std::sqrt(x); }
double square(double x) { return x * x; }
double exponential(double x) { return std::exp(x); }
double naturalLog(double x) { return std::log(x); }
// SIN and COS: the time loop's sine (math/sine.hpp, within about 1 ulp, as java.lang.Math.sin).
double sine(double x) { return math::sin(x); }
double cosine(double x) { return math::cos(x); }
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
double negation(double x) { return x < kThreshold ? kTrue : kFalse; }  // NotCalculator: NaN → 0

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

// java.lang.Math.max/min (MaxCalculatorMultiInputs, MinCalculatorMultiInputs fold them left to
// right): NaN when either is NaN, and +0 above −0.
double javaMax(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::nan("");
  if (a == 0.0 && b == 0.0) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
double javaMin(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::nan("");
  if (a == 0.0 && b == 0.0) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

// DIV is DivCalculator: 0/0 (any NaN quotient) gives 0, as an unconnected input would; a quotient
// that overflows to ±∞ (x/0) gives signum(x)·1e40.
double geckoQuotient(double x, double y) {
  constexpr double kLarge = 1e40;
  const double q = x / y;
  if (std::isnan(q)) return 0.0;
  if (std::isinf(q)) return signum(x) * kLarge;
  return q;
}

constexpr std::size_t kMany = static_cast<std::size_t>(-1);

void requireInputs(const BlockArgs& a, std::size_t min, std::size_t max) {
  const std::size_t got = a.inputs.size();
  if (got >= min && got <= max) return;
  std::string expected = min == max ? std::to_string(min) : std::to_string(min) + " or more";
  throw Error(ErrorCode::NetlistInvalid,
              a.name + ": a " + a.type + " block takes " + expected + " input(s), got " + std::to_string(got), a.name);
}

template <class Fn>
BlockPtr functionBlock(BlockArgs& a, Fn fn) {
  return std::make_unique<Function<Fn>>(a.name, std::move(a.inputs), std::move(a.outputs), std::move(fn));
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
  return functionBlock(a, [](const double* v, std::size_t) { return geckoQuotient(v[0], v[1]); });
}

BlockPtr power(BlockArgs& a) {
  requireInputs(a, 2, 2);
  return functionBlock(a, [](const double* v, std::size_t) { return javaPow(v[0], v[1]); });
}

BlockPtr minimum(BlockArgs& a) {
  requireInputs(a, 1, kMany);
  return functionBlock(a, [](const double* v, std::size_t count) {
    double result = v[0];
    for (std::size_t i = 1; i < count; ++i) result = javaMin(result, v[i]);
    return result;
  });
}

BlockPtr maximum(BlockArgs& a) {
  requireInputs(a, 1, kMany);
  return functionBlock(a, [](const double* v, std::size_t count) {
    double result = v[0];
    for (std::size_t i = 1; i < count; ++i) result = javaMax(result, v[i]);
    return result;
  });
}

// How many of the inputs are true by `truth`.
template <bool (*Truth)(double)>
std::size_t countTrue(const double* v, std::size_t count) {
  std::size_t trues = 0;
  for (std::size_t i = 0; i < count; ++i) trues += Truth(v[i]) ? 1 : 0;
  return trues;
}

// AND: AndTwoPortCalculator (both > 0.5), AndMultiInputCalculator (none < 0.5).
BlockPtr conjunction(BlockArgs& a) {
  requireInputs(a, 2, kMany);
  return functionBlock(a, [](const double* v, std::size_t count) {
    const bool all = count == 2 ? countTrue<above>(v, count) == count : countTrue<notBelow>(v, count) == count;
    return all ? kTrue : kFalse;
  });
}

// OR: OrCalculatorTwoInputs / OrCalculatorMultipleInputs, any input > 0.5.
BlockPtr disjunction(BlockArgs& a) {
  requireInputs(a, 2, kMany);
  return functionBlock(a, [](const double* v, std::size_t count) { return countTrue<above>(v, count) > 0 ? kTrue : kFalse; });
}

// XOR: XORCalculator, exactly one of two inputs ≥ 0.5; for more inputs an odd number of them.
BlockPtr exclusiveOr(BlockArgs& a) {
  requireInputs(a, 2, kMany);
  return functionBlock(a, [](const double* v, std::size_t count) { return countTrue<notBelow>(v, count) % 2 == 1 ? kTrue : kFalse; });
}

// EQ: EqualCalculatorTwoInputs / EqualCalculatorMultiInput, 1 when every input equals the first.
BlockPtr equality(BlockArgs& a) {
  requireInputs(a, 2, kMany);
  return functionBlock(a, [](const double* v, std::size_t count) {
    for (std::size_t i = 1; i < count; ++i) {
      if (!equal(v[i], v[0])) return kFalse;
    }
    return kTrue;
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
    {"EQ", true, 1, equality},
    {"NE", true, 1, comparison<notEqual>},
    {"AND", true, 1, conjunction},
    {"OR", true, 1, disjunction},
    {"XOR", true, 1, exclusiveOr},
    {"LIMIT", true, 1, limit},
    {"HYS", true, 1, hysteresis},
};

}  // namespace

BlockFamily algebraicBlocks() { return blockFamily(kAlgebraicBlocks); }

}  // namespace pesim
