// Type names, numeric promotion, casts and Java's text of numbers (see types.hpp).
#include "control/java/types.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace pesim::java {

namespace {

std::string boxedName(Base b) {
  switch (b) {
    case Base::Boolean: return "Boolean";
    case Base::Int: return "Integer";
    case Base::Long: return "Long";
    case Base::Float: return "Float";
    case Base::Double: return "Double";
    case Base::Char: return "Character";
    default: return "";
  }
}

}  // namespace

std::string typeName(const Type& t) {
  std::string name;
  switch (t.base) {
    case Base::Void: name = "void"; break;
    case Base::Boolean: name = "boolean"; break;
    case Base::Int: name = "int"; break;
    case Base::Long: name = "long"; break;
    case Base::Float: name = "float"; break;
    case Base::Double: name = "double"; break;
    case Base::String: name = "String"; break;
    case Base::List: name = "List<" + (t.item == Base::String ? std::string("String") : boxedName(t.item)) + ">"; break;
    case Base::Char: name = "char"; break;
    case Base::Builder: name = "StringBuilder"; break;
    case Base::Exception: name = "Exception"; break;
    case Base::Writer: name = "PrintWriter"; break;
    case Base::Map:
      name = "Map<" + (t.key == Base::String ? std::string("String") : boxedName(t.key)) + ", " +
             (t.item == Base::String ? std::string("String") : boxedName(t.item)) + ">";
      break;
  }
  if (t.boxed && t.dims == 0 && !boxedName(t.base).empty()) name = boxedName(t.base);
  for (int i = 0; i < t.dims; ++i) name += "[]";
  return name;
}

Base promote(Base a, Base b) {
  if (a == Base::Double || b == Base::Double) return Base::Double;
  if (a == Base::Float || b == Base::Float) return Base::Float;
  if (a == Base::Long || b == Base::Long) return Base::Long;
  return Base::Int;
}

double castTo(Base to, double v) {
  switch (to) {
    case Base::Int: {
      if (std::isnan(v)) return 0.0;
      if (v >= 2147483647.0) return 2147483647.0;
      if (v <= -2147483648.0) return -2147483648.0;
      return std::trunc(v);
    }
    case Base::Long: {
      if (std::isnan(v)) return 0.0;
      if (v >= 9223372036854775807.0) return 9223372036854775807.0;
      if (v <= -9223372036854775808.0) return -9223372036854775808.0;
      return std::trunc(v);
    }
    case Base::Float: return static_cast<double>(static_cast<float>(v));
    case Base::Char: {
      // Narrowing to char keeps the low 16 bits of the int (or long) value (JLS §5.1.3).
      const double i = std::isnan(v) ? 0.0 : std::trunc(std::fabs(v) >= 9.2e18 ? 0.0 : v);
      return static_cast<double>(static_cast<std::uint16_t>(static_cast<std::int64_t>(i)));
    }
    case Base::Boolean: return v != 0.0 ? 1.0 : 0.0;
    default: return v;
  }
}

namespace {

// Java's Double.toString (JLS / java.lang.Double): the shortest digits that read back to the same
// value, as d.ddd in [1e-3, 1e7) and d.dddE±n otherwise; always one digit after the point.
std::string doubleText(double v, bool isFloat) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0.0) return std::signbit(v) ? "-0.0" : "0.0";
  char buf[64];
  std::to_chars_result r = isFloat ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v), std::chars_format::scientific)
                                   : std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string sci(buf, r.ptr);
  if (sci.find('.') == std::string::npos) {
    // One shortest digit: Java writes two, the two-digit decimal nearest the value (4.9E-324, not 5.0E-324).
    r = isFloat ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v), std::chars_format::scientific, 1)
                : std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, 1);
    sci.assign(buf, r.ptr);
  }
  std::size_t e = sci.find('e');
  std::string mantissa = sci.substr(0, e);
  int exponent = std::stoi(sci.substr(e + 1));
  bool negative = mantissa[0] == '-';
  if (negative) mantissa.erase(0, 1);
  std::string digits;
  for (char c : mantissa) if (c != '.') digits += c;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string out;
  double magnitude = std::fabs(v);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    if (exponent >= 0) {
      std::string whole = digits.substr(0, std::min<std::size_t>(digits.size(), static_cast<std::size_t>(exponent) + 1));
      while (whole.size() < static_cast<std::size_t>(exponent) + 1) whole += '0';
      std::string fraction = digits.size() > static_cast<std::size_t>(exponent) + 1 ? digits.substr(static_cast<std::size_t>(exponent) + 1) : "0";
      out = whole + "." + fraction;
    } else {
      out = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    }
  } else {
    out = digits.substr(0, 1) + "." + (digits.size() > 1 ? digits.substr(1) : "0") + "E" + std::to_string(exponent);
  }
  return negative ? "-" + out : out;
}

}  // namespace

std::string charText(double v) {
  // The UTF-8 encoding of the UTF-16 code unit (a lone surrogate as its three bytes).
  auto c = static_cast<std::uint32_t>(v);
  std::string s;
  if (c < 0x80) {
    s += static_cast<char>(c);
  } else if (c < 0x800) {
    s += static_cast<char>(0xC0 | (c >> 6));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    s += static_cast<char>(0xE0 | (c >> 12));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  }
  return s;
}

std::string javaText(Base type, double v) {
  switch (type) {
    case Base::Boolean: return v != 0.0 ? "true" : "false";
    case Base::Int:
    case Base::Long: {
      // 2^63 (Long.MAX_VALUE held in a double) prints as Long.MAX_VALUE.
      if (v >= 9223372036854775807.0) return "9223372036854775807";
      char buf[32];
      std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
      return buf;
    }
    case Base::Float: return doubleText(v, true);
    case Base::Char: return charText(v);
    default: return doubleText(v, false);
  }
}

}  // namespace pesim::java
