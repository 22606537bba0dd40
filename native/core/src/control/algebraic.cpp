// Blocks whose output is a function of the present inputs: arithmetic (with POW), comparisons,
// logic, limits, the hysteresis comparator, and the sinks GATE and SCOPE (read by the engine, not
// evaluated).
#include <algorithm>
#include <cmath>
#include <functional>

#include "control/block.hpp"
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

using Unary = double (*)(double);

Unary unaryFunction(const std::string& type) {
  if (type == "ABS") return [](double x) { return std::abs(x); };
  if (type == "SIGN") return [](double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); };
  if (type == "SQRT") return [](double x) { return std::sqrt(x); };
  if (type == "SQR") return [](double x) { return x * x; };
  if (type == "EXP") return [](double x) { return std::exp(x); };
  if (type == "LN") return [](double x) { return std::log(x); };
  if (type == "SIN") return [](double x) { return std::sin(x); };
  if (type == "COS") return [](double x) { return std::cos(x); };
  if (type == "ATAN") return [](double x) { return std::atan(x); };
  // GeckoCIRCUITS ReglerASIN / ReglerACOS / ReglerTAN: java.lang.Math's functions (NaN outside ±1).
  if (type == "ASIN") return [](double x) { return std::asin(x); };
  if (type == "ACOS") return [](double x) { return std::acos(x); };
  if (type == "TAN") return [](double x) { return std::tan(x); };
  if (type == "ROUND") return [](double x) { return std::round(x); };
  if (type == "NOT") return [](double x) { return isTrue(x) ? kFalse : kTrue; };
  return nullptr;
}

// GeckoCIRCUITS ReglerPOW: y = x1^x2 with java.lang.Math.pow, which differs from std::pow only in
// that a NaN exponent gives NaN (std::pow(1, NaN) = 1) and (±1)^±∞ is NaN (std::pow gives 1).
double javaPow(double base, double exponent) {
  if (std::isnan(exponent)) return std::nan("");
  if (std::abs(base) == 1.0 && std::isinf(exponent)) return std::nan("");
  return std::pow(base, exponent);
}

using Binary = bool (*)(double, double);

Binary comparison(const std::string& type) {
  if (type == "GT") return [](double a, double b) { return a > b; };
  if (type == "GE") return [](double a, double b) { return a >= b; };
  if (type == "LT") return [](double a, double b) { return a < b; };
  if (type == "LE") return [](double a, double b) { return a <= b; };
  if (type == "EQ") return [](double a, double b) { return a == b; };
  if (type == "NE") return [](double a, double b) { return a != b; };
  return nullptr;
}

void requireInputs(const std::string& name, const std::string& type, std::size_t got,
                   std::size_t min, std::size_t max) {
  if (got >= min && got <= max) return;
  std::string expected = min == max ? std::to_string(min) : std::to_string(min) + " or more";
  throw Error(ErrorCode::NetlistInvalid,
              name + ": a " + type + " block takes " + expected + " input(s), got " + std::to_string(got), name);
}

}  // namespace

BlockPtr makeAlgebraicBlock(const std::string& type, const std::string& name, const Params& p,
                            std::vector<int> inputs, std::vector<int> outputs) {
  const std::size_t n = inputs.size();
  const std::size_t many = static_cast<std::size_t>(-1);
  auto make = [&](Function::Fn fn) {
    return std::make_unique<Function>(name, std::move(inputs), std::move(outputs), std::move(fn));
  };
  if (type == "GATE" || type == "SCOPE") {
    if (type == "GATE") requireInputs(name, type, n, 1, 1);
    return std::make_unique<Sink>(name, std::move(inputs), std::move(outputs));
  }
  if (type == "GAIN") {
    requireInputs(name, type, n, 1, 1);
    double k = p.number("k");
    return make([k](const double* v, std::size_t) { return k * v[0]; });
  }
  if (type == "ADD") {
    requireInputs(name, type, n, 1, many);
    std::vector<double> signs(n, 1.0);
    if (p.has("signs")) {
      signs = p.array("signs");
      if (signs.size() != n) p.outOfRange("signs", "one sign per input");
    }
    return make([signs](const double* v, std::size_t count) {
      double sum = 0.0;
      for (std::size_t i = 0; i < count; ++i) sum += signs[i] * v[i];
      return sum;
    });
  }
  if (type == "SUB") {
    requireInputs(name, type, n, 2, 2);
    return make([](const double* v, std::size_t) { return v[0] - v[1]; });
  }
  if (type == "MUL") {
    requireInputs(name, type, n, 2, many);
    return make([](const double* v, std::size_t count) {
      double product = 1.0;
      for (std::size_t i = 0; i < count; ++i) product *= v[i];
      return product;
    });
  }
  if (type == "DIV") {
    requireInputs(name, type, n, 2, 2);
    return make([](const double* v, std::size_t) { return v[0] / v[1]; });
  }
  if (type == "POW") {
    requireInputs(name, type, n, 2, 2);
    return make([](const double* v, std::size_t) { return javaPow(v[0], v[1]); });
  }
  if (type == "MIN" || type == "MAX") {
    requireInputs(name, type, n, 1, many);
    bool isMin = type == "MIN";
    return make([isMin](const double* v, std::size_t count) {
      return isMin ? *std::min_element(v, v + count) : *std::max_element(v, v + count);
    });
  }
  if (Unary fn = unaryFunction(type)) {
    requireInputs(name, type, n, 1, 1);
    return make([fn](const double* v, std::size_t) { return fn(v[0]); });
  }
  if (Binary fn = comparison(type)) {
    requireInputs(name, type, n, 2, 2);
    return make([fn](const double* v, std::size_t) { return fn(v[0], v[1]) ? kTrue : kFalse; });
  }
  if (type == "AND" || type == "OR" || type == "XOR") {
    requireInputs(name, type, n, 2, many);
    int kind = type == "AND" ? 0 : (type == "OR" ? 1 : 2);
    return make([kind](const double* v, std::size_t count) {
      std::size_t trues = 0;
      for (std::size_t i = 0; i < count; ++i) trues += isTrue(v[i]) ? 1 : 0;
      bool result = kind == 0 ? trues == count : (kind == 1 ? trues > 0 : trues % 2 == 1);
      return result ? kTrue : kFalse;
    });
  }
  if (type == "LIMIT") {
    requireInputs(name, type, n, 1, 1);
    double lo = p.number("min"), hi = p.number("max");
    if (hi < lo) p.outOfRange("max", "at least 'min'");
    return make([lo, hi](const double* v, std::size_t) { return std::clamp(v[0], lo, hi); });
  }
  if (type == "HYS") {
    if (n != 2) requireInputs(name, type, n, 1, 1);
    return std::make_unique<Hysteresis>(name, std::move(inputs), std::move(outputs), p);
  }
  return nullptr;
}

}  // namespace pesim
