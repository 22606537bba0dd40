// java.lang.Math and friends for Java blocks (see builtins.hpp). Semantics of java.lang.Math:
// round(x) = floor(x + 0.5) (NaN → 0), signum, rint (ties to even), floorDiv/floorMod, and
// random() from a xorshift64* generator seeded per block and run, so runs are reproducible.
#include "control/java/builtins.hpp"
#include "control/java/bytecode.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>

#include "control/java/nodes.hpp"

namespace pesim::java {

namespace {

enum class Fn {
  Abs, Max, Min, Sqrt, Cbrt, Pow, Exp, Expm1, Log, Log10, Log1p, Sin, Cos, Tan, Asin, Acos, Atan, Atan2,
  Sinh, Cosh, Tanh, Floor, Ceil, Rint, Round, Signum, Hypot, ToRadians, ToDegrees, Random, IEEERemainder,
  FloorDiv, FloorMod, IsNaN, IsInfinite, IsFinite
};

struct FnInfo {
  Fn fn;
  int arity;
};

const std::map<std::string, FnInfo>& functions() {
  static const std::map<std::string, FnInfo> kFunctions = {
      {"abs", {Fn::Abs, 1}}, {"max", {Fn::Max, 2}}, {"min", {Fn::Min, 2}}, {"sqrt", {Fn::Sqrt, 1}},
      {"cbrt", {Fn::Cbrt, 1}}, {"pow", {Fn::Pow, 2}}, {"exp", {Fn::Exp, 1}}, {"expm1", {Fn::Expm1, 1}},
      {"log", {Fn::Log, 1}}, {"log10", {Fn::Log10, 1}}, {"log1p", {Fn::Log1p, 1}}, {"sin", {Fn::Sin, 1}},
      {"cos", {Fn::Cos, 1}}, {"tan", {Fn::Tan, 1}}, {"asin", {Fn::Asin, 1}}, {"acos", {Fn::Acos, 1}},
      {"atan", {Fn::Atan, 1}}, {"atan2", {Fn::Atan2, 2}}, {"sinh", {Fn::Sinh, 1}}, {"cosh", {Fn::Cosh, 1}},
      {"tanh", {Fn::Tanh, 1}}, {"floor", {Fn::Floor, 1}}, {"ceil", {Fn::Ceil, 1}}, {"rint", {Fn::Rint, 1}},
      {"round", {Fn::Round, 1}}, {"signum", {Fn::Signum, 1}}, {"hypot", {Fn::Hypot, 2}},
      {"toRadians", {Fn::ToRadians, 1}}, {"toDegrees", {Fn::ToDegrees, 1}}, {"random", {Fn::Random, 0}},
      {"IEEEremainder", {Fn::IEEERemainder, 2}}, {"floorDiv", {Fn::FloorDiv, 2}}, {"floorMod", {Fn::FloorMod, 2}},
      {"isNaN", {Fn::IsNaN, 1}}, {"isInfinite", {Fn::IsInfinite, 1}}, {"isFinite", {Fn::IsFinite, 1}},
  };
  return kFunctions;
}

// "Math.sqrt" or "sqrt" (static import) → function; "Double.isNaN" → its test.
std::optional<FnInfo> lookup(const std::string& name) {
  std::string owner, member = name;
  auto dot = name.rfind('.');
  if (dot != std::string::npos) {
    owner = name.substr(0, dot);
    member = name.substr(dot + 1);
  }
  bool isTest = member == "isNaN" || member == "isInfinite" || member == "isFinite";
  if (isTest ? owner != "Double" && owner != "Float" : owner != "" && owner != "Math" && owner != "StrictMath" && owner != "java.lang.Math") {
    return std::nullopt;
  }
  auto it = functions().find(member);
  if (it == functions().end()) return std::nullopt;
  return it->second;
}

double xorshift(std::uint64_t& s) {
  s ^= s >> 12;
  s ^= s << 25;
  s ^= s >> 27;
  return static_cast<double>((s * 2685821657736338717ULL) >> 11) * 0x1.0p-53;
}

class MathCall : public Expr {
 public:
  MathCall(Fn fn, std::vector<ExprPtr> args, Type t, int line) : Expr(t, line), fn_(fn), args_(std::move(args)) {}
  double number(Exec& ex) const override {
    double a = args_.empty() ? 0.0 : args_[0]->number(ex);
    double b = args_.size() > 1 ? args_[1]->number(ex) : 0.0;
    return value(ex, a, b);
  }
  // A library function assigns, allocates and calls nothing of the code's (Math.random only
  // advances the generator's state).
  bool sideEffectFree() const override {
    for (const auto& a : args_) {
      if (!a->sideEffectFree()) return false;
    }
    return true;
  }
  // The arguments lowered, the function applied by the bytecode (Native) on their values.
  Reg lowerNumber(Lowering& lw, Reg want) const override {
    Instr i;
    i.code = Code::Native;
    i.line = line();
    i.a = args_.empty() ? kNoReg : lw.number(*args_[0]);
    i.b = args_.size() > 1 ? lw.number(*args_[1]) : kNoReg;
    i.node = this;
    i.fn = [](const Expr& node, Exec& ex, double a, double b) { return static_cast<const MathCall&>(node).value(ex, a, b); };
    i.d = want != kNoReg ? want : lw.temp();
    lw.emit(i);
    return i.d;
  }

 private:
  double value(Exec& ex, double a, double b) const {
    Base kind = type().base;
    switch (fn_) {
      case Fn::Abs: return kind == Base::Int && a == -2147483648.0 ? a : castTo(kind, std::fabs(a));  // abs(MIN_VALUE) overflows to itself
      case Fn::Max: return std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::quiet_NaN() : std::max(a, b);
      case Fn::Min: return std::isnan(a) || std::isnan(b) ? std::numeric_limits<double>::quiet_NaN() : std::min(a, b);
      case Fn::Sqrt: return std::sqrt(a);
      case Fn::Cbrt: {
        // One Newton step on the C library's root: exact cubes give their exact root, as StrictMath.cbrt.
        const double r = std::cbrt(a);
        if (r == 0.0 || !std::isfinite(r)) return r;
        const double refined = r - (r * r * r - a) / (3.0 * r * r);
        return std::fabs(refined * refined * refined - a) < std::fabs(r * r * r - a) ? refined : r;
      }
      case Fn::Pow: return std::pow(a, b);
      case Fn::Exp: return std::exp(a);
      case Fn::Expm1: return std::expm1(a);
      case Fn::Log: return std::log(a);
      case Fn::Log10: return std::log10(a);
      case Fn::Log1p: return std::log1p(a);
      case Fn::Sin: return std::sin(a);
      case Fn::Cos: return std::cos(a);
      case Fn::Tan: return std::tan(a);
      case Fn::Asin: return std::asin(a);
      case Fn::Acos: return std::acos(a);
      case Fn::Atan: return std::atan(a);
      case Fn::Atan2: return std::atan2(a, b);
      case Fn::Sinh: return std::sinh(a);
      case Fn::Cosh: return std::cosh(a);
      case Fn::Tanh: return std::tanh(a);
      case Fn::Floor: return std::floor(a);
      case Fn::Ceil: return std::ceil(a);
      case Fn::Rint: return std::nearbyint(a);
      case Fn::Round: return castTo(kind, std::floor(a + 0.5));
      case Fn::Signum: return a > 0 ? 1.0 : a < 0 ? -1.0 : a;
      case Fn::Hypot: return std::hypot(a, b);
      case Fn::ToRadians: return a / 180.0 * M_PI;
      case Fn::ToDegrees: return a * 180.0 / M_PI;
      case Fn::Random: return xorshift(ex.random);
      case Fn::IEEERemainder: return std::remainder(a, b);
      case Fn::FloorDiv:
      case Fn::FloorMod: {
        if (b == 0) fail("ArithmeticException: / by zero", line());
        double q = std::floor(a / b);
        return fn_ == Fn::FloorDiv ? castTo(kind, q) : castTo(kind, a - q * b);
      }
      case Fn::IsNaN: return std::isnan(a) ? 1.0 : 0.0;
      case Fn::IsInfinite: return std::isinf(a) ? 1.0 : 0.0;
      case Fn::IsFinite: return std::isfinite(a) ? 1.0 : 0.0;
    }
    return 0.0;
  }

  Fn fn_;
  std::vector<ExprPtr> args_;
};

}  // namespace

std::optional<Type> libraryResult(const std::string& name, const std::vector<Type>& arguments) {
  auto info = lookup(name);
  if (!info || static_cast<int>(arguments.size()) != info->arity) return std::nullopt;
  for (const Type& t : arguments) if (!t.isNumeric()) return std::nullopt;
  switch (info->fn) {
    case Fn::Abs: return scalar(promote(arguments[0].base, Base::Int));
    case Fn::Max:
    case Fn::Min: return scalar(promote(arguments[0].base, arguments[1].base));
    case Fn::Round: return scalar(arguments[0].base == Base::Float ? Base::Int : Base::Long);
    case Fn::Signum: return scalar(arguments[0].base == Base::Float ? Base::Float : Base::Double);
    case Fn::FloorDiv:
    case Fn::FloorMod: {
      Base b = promote(arguments[0].base, arguments[1].base);
      if (b != Base::Int && b != Base::Long) return std::nullopt;
      return scalar(b);
    }
    case Fn::IsNaN:
    case Fn::IsInfinite:
    case Fn::IsFinite: return scalar(Base::Boolean);
    default: return scalar(Base::Double);
  }
}

std::optional<LibraryConstant> libraryConstant(const std::string& name) {
  const double inf = std::numeric_limits<double>::infinity();
  static const std::map<std::string, LibraryConstant> kConstants = {
      {"Math.PI", {scalar(Base::Double), M_PI}},
      {"Math.E", {scalar(Base::Double), M_E}},
      {"PI", {scalar(Base::Double), M_PI}},
      {"E", {scalar(Base::Double), M_E}},
      {"Double.MAX_VALUE", {scalar(Base::Double), std::numeric_limits<double>::max()}},
      {"Double.MIN_VALUE", {scalar(Base::Double), std::numeric_limits<double>::denorm_min()}},
      {"Double.POSITIVE_INFINITY", {scalar(Base::Double), inf}},
      {"Double.NEGATIVE_INFINITY", {scalar(Base::Double), -inf}},
      {"Double.NaN", {scalar(Base::Double), std::numeric_limits<double>::quiet_NaN()}},
      {"Integer.MAX_VALUE", {scalar(Base::Int), 2147483647.0}},
      {"Integer.MIN_VALUE", {scalar(Base::Int), -2147483648.0}},
      {"Long.MAX_VALUE", {scalar(Base::Long), 9223372036854775807.0}},
      {"Long.MIN_VALUE", {scalar(Base::Long), -9223372036854775808.0}},
  };
  auto it = kConstants.find(name);
  if (it == kConstants.end()) return std::nullopt;
  return it->second;
}

ExprPtr callMath(const std::string& name, std::vector<ExprPtr> arguments, Type type, int line) {
  return std::make_unique<MathCall>(lookup(name)->fn, std::move(arguments), type, line);
}

}  // namespace pesim::java
