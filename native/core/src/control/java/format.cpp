// java.util.Formatter (see format.hpp).
#include "control/java/format.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "control/java/nodes.hpp"

namespace pesim::java {

namespace {

struct Spec {
  bool left = false, alternate = false, plus = false, space = false, zero = false, group = false, paren = false;
  int width = -1;
  int precision = -1;
  char conversion = 's';
  std::string text;  // the specifier as written, for messages
};

// The shortest decimal digits of |v| > 0 and the exponent of the first: |v| = 0.d1d2... × 10^(exp+1).
void shortestDigits(double v, std::string& digits, int& exponent) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
  std::string sci(buf, r.ptr);
  const std::size_t e = sci.find('e');
  digits.clear();
  for (std::size_t i = 0; i < e; ++i) if (sci[i] != '.') digits += sci[i];
  exponent = std::stoi(sci.substr(e + 1));
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
}

// Keeps `keep` significant digits, rounding half-up (the digits may become "" for 0, or gain one).
void roundDigits(std::string& digits, int& exponent, int keep) {
  if (keep >= static_cast<int>(digits.size())) return;
  if (keep < 0) {
    digits.clear();
    return;
  }
  const bool up = digits[static_cast<std::size_t>(keep)] >= '5';
  digits.resize(static_cast<std::size_t>(keep));
  if (!up) return;
  int i = keep - 1;
  for (; i >= 0; --i) {
    if (digits[static_cast<std::size_t>(i)] == '9') {
      digits[static_cast<std::size_t>(i)] = '0';
    } else {
      ++digits[static_cast<std::size_t>(i)];
      break;
    }
  }
  if (i < 0) {
    digits.insert(digits.begin(), '1');
    ++exponent;
  }
}

std::string groupThousands(const std::string& whole) {
  std::string out;
  const std::size_t n = whole.size();
  for (std::size_t i = 0; i < n; ++i) {
    out += whole[i];
    if (i + 1 < n && (n - 1 - i) % 3 == 0) out += ',';
  }
  return out;
}

// Fixed notation of |v| with `precision` fraction digits.
std::string fixed(double v, int precision, bool group) {
  std::string digits;
  int exponent = 0;
  if (v != 0.0) {
    shortestDigits(v, digits, exponent);
    roundDigits(digits, exponent, exponent + 1 + precision);
  }
  std::string whole, fraction;
  if (digits.empty()) {
    whole = "0";
  } else {
    for (int i = 0; i <= exponent; ++i) whole += i < static_cast<int>(digits.size()) ? digits[static_cast<std::size_t>(i)] : '0';
    if (whole.empty()) whole = "0";
  }
  for (int k = 1; k <= precision; ++k) {
    const int i = exponent + k;  // digit index of 10^-k
    fraction += !digits.empty() && i >= 0 && i < static_cast<int>(digits.size()) ? digits[static_cast<std::size_t>(i)] : '0';
  }
  if (group) whole = groupThousands(whole);
  return precision > 0 ? whole + "." + fraction : whole;
}

// Scientific notation of |v|: d.ddd e±xx with `precision` fraction digits.
std::string scientific(double v, int precision, bool upper) {
  std::string digits = "0";
  int exponent = 0;
  if (v != 0.0) {
    shortestDigits(v, digits, exponent);
    roundDigits(digits, exponent, precision + 1);
  }
  std::string mantissa(1, digits[0]);
  if (precision > 0) {
    mantissa += '.';
    for (int k = 1; k <= precision; ++k) mantissa += k < static_cast<int>(digits.size()) ? digits[static_cast<std::size_t>(k)] : '0';
  }
  char exp[16];
  std::snprintf(exp, sizeof exp, "%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
  return mantissa + (upper ? "E" : "e") + exp;
}

std::string general(double v, int precision, bool upper) {
  if (precision == 0) precision = 1;
  if (v == 0.0) return fixed(0.0, precision - 1, false);
  std::string digits;
  int exponent = 0;
  shortestDigits(v, digits, exponent);
  roundDigits(digits, exponent, precision);
  if (exponent >= -4 && exponent < precision) return fixed(v, precision - 1 - exponent, false);
  return scientific(v, precision - 1, upper);
}

std::string boxedClass(Base b) {
  switch (b) {
    case Base::Int: return "java.lang.Integer";
    case Base::Long: return "java.lang.Long";
    case Base::Float: return "java.lang.Float";
    case Base::Double: return "java.lang.Double";
    case Base::Boolean: return "java.lang.Boolean";
    case Base::Char: return "java.lang.Character";
    case Base::String: return "java.lang.String";
    default: return "java.lang.Object";
  }
}

std::string upperCase(std::string s) {
  for (char& c : s) if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

// Width, the '-' flag and '0' padding (after the sign) of a formatted number or text.
std::string justify(std::string body, const Spec& s, bool numeric) {
  if (s.width < 0 || static_cast<int>(body.size()) >= s.width) return body;
  const auto pad = static_cast<std::size_t>(s.width) - body.size();
  if (s.left) return body + std::string(pad, ' ');
  if (numeric && s.zero) {
    std::size_t at = (!body.empty() && (body[0] == '-' || body[0] == '+' || body[0] == ' ' || body[0] == '(')) ? 1 : 0;
    return body.insert(at, pad, '0');
  }
  return std::string(pad, ' ') + body;
}

// The sign flags of a number: '+', ' ', '(' (negatives in parentheses).
std::string signed_(const std::string& magnitude, bool negative, const Spec& s) {
  if (negative) return s.paren ? "(" + magnitude + ")" : "-" + magnitude;
  if (s.plus) return "+" + magnitude;
  if (s.space) return " " + magnitude;
  return magnitude;
}

[[noreturn]] void conversionMismatch(const Spec& s, const FormatArg& a, int line) {
  fail(std::string("IllegalFormatConversionException: ") + s.conversion + " != " + boxedClass(a.type), line);
}

std::string integer(const Spec& s, const FormatArg& a, int line) {
  if (a.type != Base::Int && a.type != Base::Long) conversionMismatch(s, a, line);
  // Long.MAX_VALUE is held as 2^63.
  const auto v = a.number >= 9223372036854775807.0 ? INT64_MAX : static_cast<std::int64_t>(a.number);
  const char c = static_cast<char>(std::tolower(s.conversion));
  if (c == 'd') {
    std::string magnitude = std::to_string(v < 0 ? -static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v));
    if (s.group) magnitude = groupThousands(magnitude);
    return justify(signed_(magnitude, v < 0, s), s, true);
  }
  // x and o show the two's complement of negatives (32 bits for an Integer, 64 for a Long).
  const std::uint64_t bits = a.type == Base::Int ? static_cast<std::uint32_t>(static_cast<std::int32_t>(v)) : static_cast<std::uint64_t>(v);
  char buf[32];
  std::snprintf(buf, sizeof buf, c == 'x' ? "%llx" : "%llo", static_cast<unsigned long long>(bits));
  std::string body = buf;
  if (s.alternate) body = (c == 'x' ? "0x" : "0") + body;
  if (s.conversion == 'X') body = upperCase(body);
  return justify(body, s, true);
}

std::string floating(const Spec& s, const FormatArg& a, int line) {
  if (a.type != Base::Double && a.type != Base::Float) conversionMismatch(s, a, line);
  const double v = a.number;
  const bool upper = s.conversion == 'E' || s.conversion == 'G';
  if (std::isnan(v) || std::isinf(v)) {
    Spec plain = s;
    plain.zero = false;
    std::string body = std::isnan(v) ? "NaN" : signed_("Infinity", v < 0, s);
    return justify(upper ? upperCase(body) : body, plain, false);
  }
  const int precision = s.precision < 0 ? 6 : s.precision;
  const char c = static_cast<char>(std::tolower(s.conversion));
  std::string magnitude = c == 'f' ? fixed(v, precision, s.group) : c == 'e' ? scientific(v, precision, upper) : general(v, precision, upper);
  return justify(signed_(magnitude, std::signbit(v), s), s, true);
}

std::string textOf(const FormatArg& a) {
  if (a.null) return "null";
  if (a.type == Base::String) return shownText(a.text);
  return javaText(a.type, a.number);
}

std::string convert(const Spec& s, const FormatArg* a, int line) {
  std::string body;
  switch (s.conversion) {
    case 'd':
    case 'x':
    case 'X':
    case 'o':
      if (a->null) return justify("null", s, false);
      return integer(s, *a, line);
    case 'f':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
      if (a->null) return justify("null", s, false);
      return floating(s, *a, line);
    case 'c':
    case 'C':
      if (a->null) return justify("null", s, false);
      if (a->type != Base::Char && a->type != Base::Int) conversionMismatch(s, *a, line);
      body = charText(a->number);
      break;
    case 'b':
    case 'B':
      body = a->null ? "false" : a->type == Base::Boolean ? (a->number != 0.0 ? "true" : "false") : "true";
      break;
    default:  // s, S
      body = textOf(*a);
      break;
  }
  if (s.precision >= 0 && static_cast<int>(body.size()) > s.precision) body.resize(static_cast<std::size_t>(s.precision));
  if (std::isupper(static_cast<unsigned char>(s.conversion))) body = upperCase(body);
  return justify(body, s, false);
}

}  // namespace

std::string javaFormat(const std::string& format, const std::vector<FormatArg>& args, int line) {
  std::string out;
  std::size_t next = 0;  // the next ordinary argument
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out += format[i];
      continue;
    }
    const std::size_t start = i++;
    Spec s;
    // An argument index "n$".
    std::size_t digitsEnd = i;
    while (digitsEnd < format.size() && std::isdigit(static_cast<unsigned char>(format[digitsEnd]))) ++digitsEnd;
    long explicitIndex = -1;
    if (digitsEnd > i && digitsEnd < format.size() && format[digitsEnd] == '$') {
      explicitIndex = std::stol(format.substr(i, digitsEnd - i));
      i = digitsEnd + 1;
    }
    for (; i < format.size(); ++i) {
      const char f = format[i];
      if (f == '-') s.left = true;
      else if (f == '#') s.alternate = true;
      else if (f == '+') s.plus = true;
      else if (f == ' ') s.space = true;
      else if (f == '0') s.zero = true;
      else if (f == ',') s.group = true;
      else if (f == '(') s.paren = true;
      else break;
    }
    std::size_t w = i;
    while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) ++i;
    if (i > w) s.width = std::stoi(format.substr(w, i - w));
    if (i < format.size() && format[i] == '.') {
      std::size_t p = ++i;
      while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) ++i;
      if (i == p) fail("IllegalFormatPrecisionException", line);
      s.precision = std::stoi(format.substr(p, i - p));
    }
    if (i >= format.size()) fail("UnknownFormatConversionException: Conversion = '%'", line);
    s.conversion = format[i];
    s.text = format.substr(start, i - start + 1);
    if (s.conversion == 'n') {
      out += '\n';
      continue;
    }
    if (s.conversion == '%') {
      out += justify("%", s, false);
      continue;
    }
    if (std::string("bBsScCdoxXeEfgG").find(s.conversion) == std::string::npos) {
      fail(std::string("UnknownFormatConversionException: Conversion = '") + s.conversion + "'", line);
    }
    if ((s.left || s.zero) && s.width < 0) fail("MissingFormatWidthException: " + s.text, line);
    const std::size_t index = explicitIndex > 0 ? static_cast<std::size_t>(explicitIndex - 1) : next++;
    if (index >= args.size()) fail("MissingFormatArgumentException: Format specifier '" + s.text + "'", line);
    out += convert(s, &args[index], line);
  }
  return out;
}

}  // namespace pesim::java
