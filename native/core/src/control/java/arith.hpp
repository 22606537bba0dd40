// Java's arithmetic on values held in doubles (JLS §15): int and long arithmetic wraps in two's
// complement, integer division truncates and throws on a zero divisor, shifts use the low 5 (int)
// or 6 (long) bits of the distance, % on doubles is fmod. Shared by the expression nodes
// (nodes_expr.cpp) and the bytecode interpreter (bytecode_run.cpp), so both give the same results.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "control/java/types.hpp"

namespace pesim::java {

[[noreturn]] void fail(const std::string& message, int line);

enum class Op : std::uint8_t { Add, Sub, Mul, Div, Rem, And, Or, Xor, Shl, Shr, Ushr, Eq, Ne, Lt, Le, Gt, Ge };

inline double wrap32(std::int64_t v) { return static_cast<double>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v))); }

// Integer operation on int (32-bit) or long (64-bit) operands held exactly in doubles.
inline double integral(Op op, bool isLong, double x, double y, int line) {
  auto a = static_cast<std::int64_t>(x), b = static_cast<std::int64_t>(y);
  auto ua = static_cast<std::uint64_t>(a), ub = static_cast<std::uint64_t>(b);
  std::int64_t r = 0;
  switch (op) {
    case Op::Add: r = static_cast<std::int64_t>(ua + ub); break;
    case Op::Sub: r = static_cast<std::int64_t>(ua - ub); break;
    case Op::Mul: r = isLong ? static_cast<std::int64_t>(ua * ub) : a * b; break;
    case Op::Div:
    case Op::Rem:
      if (b == 0) fail("ArithmeticException: / by zero", line);
      if (b == -1) r = op == Op::Div ? static_cast<std::int64_t>(0 - ua) : 0;  // MIN / −1 wraps
      else if (!isLong) {
        // int operands: the 32-bit division (the same quotient and remainder, several times faster)
        const auto a32 = static_cast<std::int32_t>(a), b32 = static_cast<std::int32_t>(b);
        r = op == Op::Div ? a32 / b32 : a32 % b32;
      } else {
        r = op == Op::Div ? a / b : a % b;
      }
      break;
    case Op::And: r = a & b; break;
    case Op::Or: r = a | b; break;
    case Op::Xor: r = a ^ b; break;
    case Op::Shl: r = isLong ? static_cast<std::int64_t>(ua << (b & 63)) : static_cast<std::int64_t>(static_cast<std::uint32_t>(a) << (b & 31)); break;
    case Op::Shr: r = isLong ? a >> (b & 63) : static_cast<std::int64_t>(static_cast<std::int32_t>(a) >> (b & 31)); break;
    case Op::Ushr: r = isLong ? static_cast<std::int64_t>(ua >> (b & 63)) : static_cast<std::int64_t>(static_cast<std::uint32_t>(a) >> (b & 31)); break;
    default: break;
  }
  return isLong ? static_cast<double>(r) : wrap32(r);
}

inline bool compare(Op op, double a, double b) {
  switch (op) {
    case Op::Eq: return a == b;
    case Op::Ne: return a != b;
    case Op::Lt: return a < b;
    case Op::Le: return a <= b;
    case Op::Gt: return a > b;
    case Op::Ge: return a >= b;
    default: return false;
  }
}

// `kind` is the type the operation is carried out in (the promoted operand type; for shifts the
// promoted left operand; Boolean for & | ^ == != on booleans).
inline double apply(Op op, Base kind, double a, double b, int line) {
  if (op >= Op::Eq) return compare(op, a, b) ? 1.0 : 0.0;
  switch (kind) {
    case Base::Int: return integral(op, false, a, b, line);
    case Base::Long: return integral(op, true, a, b, line);
    case Base::Boolean:
      if (op == Op::And) return (a != 0.0) && (b != 0.0);
      if (op == Op::Or) return (a != 0.0) || (b != 0.0);
      return (a != 0.0) != (b != 0.0);
    default: break;
  }
  double r = 0.0;
  switch (op) {
    case Op::Add: r = a + b; break;
    case Op::Sub: r = a - b; break;
    case Op::Mul: r = a * b; break;
    case Op::Div: r = a / b; break;
    case Op::Rem: r = std::fmod(a, b); break;
    default: break;
  }
  return kind == Base::Float ? castTo(Base::Float, r) : r;
}

// Unary - ! ~ + on a value of type `type`.
inline double unaryValue(char op, Base type, double v, int line) {
  switch (op) {
    case '-':
      if (type == Base::Int) return wrap32(-static_cast<std::int64_t>(v));
      return type == Base::Long ? integral(Op::Sub, true, 0.0, v, line) : -v;
    case '!': return v != 0.0 ? 0.0 : 1.0;
    case '~': return type == Base::Int ? wrap32(~static_cast<std::int64_t>(v)) : static_cast<double>(~static_cast<std::int64_t>(v));
    default: return v;
  }
}

// A cast of `v` (of a long when `fromLong`) to `to`: long to int keeps the low 32 bits (JLS
// §5.1.3); from a floating value it saturates.
inline double castValue(Base to, bool fromLong, double v) {
  if (fromLong && to == Base::Int) return wrap32(static_cast<std::int64_t>(v));
  return castTo(to, v);
}

// x++ / ++x (delta ±1) on a variable of type `type`: the value after.
inline double incremented(Base type, double before, double delta, int line) {
  return type == Base::Int || type == Base::Long ? apply(Op::Add, type, before, delta, line) : castTo(type, before + delta);
}

}  // namespace pesim::java
