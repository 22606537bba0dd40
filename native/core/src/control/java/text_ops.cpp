// String operations of the Java subset (see text_ops.hpp).
#include "control/java/text_ops.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "control/java/nodes.hpp"

namespace pesim::java {

namespace {

// One element of a regex: a set of characters and how often it repeats.
struct Atom {
  std::string set;  // the characters it matches (negated when `negated`)
  bool negated = false;
  bool any = false;  // '.'
  int min = 1;
  int max = 1;  // -1: unbounded
  bool matches(char c) const {
    if (any) return c != '\n';
    const bool in = set.find(c) != std::string::npos;
    return negated ? !in : in;
  }
};

const char* const kSpace = " \t\n\x0B\f\r";
const char* const kDigit = "0123456789";
const char* const kWord = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";

[[noreturn]] void badPattern(const std::string& regex, int line) {
  fail("PatternSyntaxException: the pattern \"" + regex +
           "\" is not supported (split takes literal text, escapes such as \\\\s \\\\d \\\\., classes [...] and * + ?)",
       line);
}

// The characters of an escape \\c (after the backslash).
std::string escapeSet(char c, bool& negated) {
  negated = std::isupper(static_cast<unsigned char>(c)) && (c == 'S' || c == 'D' || c == 'W');
  switch (std::tolower(static_cast<unsigned char>(c))) {
    case 's': return kSpace;
    case 'd': return kDigit;
    case 'w': return kWord;
    case 't': negated = false; return "\t";
    case 'n': negated = false; return "\n";
    default: negated = false; return std::string(1, c);
  }
}

std::vector<Atom> compilePattern(const std::string& r, int line) {
  std::vector<Atom> atoms;
  for (std::size_t i = 0; i < r.size();) {
    Atom a;
    const char c = r[i];
    if (c == '\\') {
      if (i + 1 >= r.size()) badPattern(r, line);
      const char e = r[i + 1];
      if (std::isalpha(static_cast<unsigned char>(e)) && std::string("sSdDwWtn").find(e) == std::string::npos) badPattern(r, line);
      a.set = escapeSet(e, a.negated);
      i += 2;
    } else if (c == '[') {
      std::size_t j = i + 1;
      if (j < r.size() && r[j] == '^') {
        a.negated = true;
        ++j;
      }
      for (; j < r.size() && r[j] != ']'; ++j) {
        if (r[j] == '\\' && j + 1 < r.size()) {
          bool neg = false;
          a.set += escapeSet(r[++j], neg);
          if (neg) badPattern(r, line);
        } else if (j + 2 < r.size() && r[j + 1] == '-' && r[j + 2] != ']') {
          for (int k = r[j]; k <= r[j + 2]; ++k) a.set += static_cast<char>(k);
          j += 2;
        } else {
          a.set += r[j];
        }
      }
      if (j >= r.size()) badPattern(r, line);
      i = j + 1;
    } else if (c == '.') {
      a.any = true;
      ++i;
    } else if (std::string("()|{}^$*+?").find(c) != std::string::npos) {
      badPattern(r, line);
    } else {
      a.set = std::string(1, c);
      ++i;
    }
    if (i < r.size() && (r[i] == '*' || r[i] == '+' || r[i] == '?')) {
      a.min = r[i] == '+' ? 1 : 0;
      a.max = r[i] == '?' ? 1 : -1;
      ++i;
      if (i < r.size() && (r[i] == '?' || r[i] == '+')) badPattern(r, line);  // lazy and possessive forms
    }
    atoms.push_back(a);
  }
  return atoms;
}

// Length of the longest match of atoms[k..] at s[pos] (greedy with backtracking), −1 if none.
long matchAt(const std::vector<Atom>& atoms, std::size_t k, const std::string& s, std::size_t pos) {
  if (k == atoms.size()) return 0;
  const Atom& a = atoms[k];
  std::size_t n = 0;
  while (pos + n < s.size() && (a.max < 0 || static_cast<int>(n) < a.max) && a.matches(s[pos + n])) ++n;
  for (long count = static_cast<long>(n); count >= a.min; --count) {
    const long rest = matchAt(atoms, k + 1, s, pos + static_cast<std::size_t>(count));
    if (rest >= 0) return count + rest;
  }
  return -1;
}

[[noreturn]] void badNumber(const std::string& text, int line) {
  fail("NumberFormatException: For input string: \"" + text + "\"", line);
}

}  // namespace

std::vector<std::string> splitText(const std::string& text, const std::string& regex, int line) {
  const std::vector<Atom> atoms = compilePattern(regex, line);
  std::vector<std::string> parts;
  std::size_t start = 0;
  bool matched = false;
  for (std::size_t pos = 0; pos < text.size();) {
    const long n = matchAt(atoms, 0, text, pos);
    if (n < 0 || (n == 0 && pos == 0)) {  // a zero-width match at the start gives no empty leading part
      ++pos;
      continue;
    }
    if (n == 0) {
      parts.push_back(text.substr(start, pos - start));
      start = pos;
      ++pos;
      matched = true;
      continue;
    }
    parts.push_back(text.substr(start, pos - start));
    matched = true;
    pos += static_cast<std::size_t>(n);
    start = pos;
  }
  if (!matched) return {text};
  parts.push_back(text.substr(start));
  while (!parts.empty() && parts.back().empty()) parts.pop_back();
  return parts;
}

double parseInteger(const std::string& text, bool isLong, int line) {
  if (isNullText(text)) fail("NumberFormatException: Cannot parse null string: null", line);
  if (text.empty()) fail("NumberFormatException: For input string: \"\"", line);
  std::size_t i = 0;
  bool negative = false;
  if (text[0] == '-' || text[0] == '+') {
    negative = text[0] == '-';
    i = 1;
    if (text.size() == 1) badNumber(text, line);
  }
  const double limit = isLong ? 9223372036854775808.0 : 2147483648.0;
  long double v = 0;
  for (; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) badNumber(text, line);
    v = v * 10 + (text[i] - '0');
    if (v > static_cast<long double>(limit)) badNumber(text, line);
  }
  if (!negative && v >= static_cast<long double>(limit)) badNumber(text, line);
  if (isLong) {
    // Exact digits of a long beyond 2^53 cannot be held; parse them as the double nearest.
    return negative ? -static_cast<double>(v) : static_cast<double>(v);
  }
  return negative ? -static_cast<double>(v) : static_cast<double>(v);
}

double parseDecimal(const std::string& raw, int line) {
  if (isNullText(raw)) fail("NullPointerException: Double.parseDouble of null", line);
  const std::string text = trimText(raw);
  if (text.empty()) fail("NumberFormatException: empty String", line);
  std::string body = text;
  if (body.back() == 'd' || body.back() == 'D' || body.back() == 'f' || body.back() == 'F') body.pop_back();
  std::size_t i = 0;
  std::string sign;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) sign = body.substr(0, 1), i = 1;
  const std::string rest = body.substr(i);
  if (rest == "Infinity" && body == text) return sign == "-" ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  if (rest == "NaN" && body == text) return std::numeric_limits<double>::quiet_NaN();
  // Digits, an optional point and fraction, an optional exponent (Java's FloatingDecimal grammar).
  std::size_t k = 0, digits = 0;
  while (k < rest.size() && std::isdigit(static_cast<unsigned char>(rest[k]))) ++k, ++digits;
  if (k < rest.size() && rest[k] == '.') {
    ++k;
    while (k < rest.size() && std::isdigit(static_cast<unsigned char>(rest[k]))) ++k, ++digits;
  }
  if (digits == 0) badNumber(text, line);
  if (k < rest.size() && (rest[k] == 'e' || rest[k] == 'E')) {
    ++k;
    if (k < rest.size() && (rest[k] == '+' || rest[k] == '-')) ++k;
    const std::size_t e = k;
    while (k < rest.size() && std::isdigit(static_cast<unsigned char>(rest[k]))) ++k;
    if (k == e) badNumber(text, line);
  }
  if (k != rest.size()) badNumber(text, line);
  return std::strtod((sign + rest).c_str(), nullptr);
}

std::string trimText(const std::string& s) {
  std::size_t a = 0, b = s.size();
  while (a < b && static_cast<unsigned char>(s[a]) <= ' ') ++a;
  while (b > a && static_cast<unsigned char>(s[b - 1]) <= ' ') --b;
  return s.substr(a, b - a);
}

std::string upperText(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string lowerText(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace pesim::java
