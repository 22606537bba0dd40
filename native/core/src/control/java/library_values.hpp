// Helpers of the compiler's library part (compile_library.cpp, compile_objects.cpp,
// compile_collections.cpp): values of library calls, null checks, string positions, and sorting
// in the JDK's natural order.
#pragma once

#include <algorithm>
#include <cmath>

#include "control/java/compiler_state.hpp"
#include "control/java/format.hpp"
#include "control/java/objects.hpp"
#include "control/java/text_ops.hpp"

namespace pesim::java::library {

inline Type stringType() { return scalar(Base::String); }
inline Value num(double v) {
  Value r;
  r.number = v;
  return r;
}
inline Value txt(std::string s) {
  Value r;
  r.text = std::move(s);
  return r;
}
inline Value obj(ArrayRef a) {
  Value r;
  r.ref = std::move(a);
  return r;
}
inline Value flag(bool b) { return num(b ? 1.0 : 0.0); }

inline const std::string& text(const Value& v, int line) {
  if (isNullText(v.text)) fail("NullPointerException: the String is null", line);
  return v.text;
}

inline Array& object(const Value& v, const char* what, int line) {
  if (!v.ref) fail(std::string("NullPointerException: the ") + what + " is null", line);
  return *v.ref;
}

inline Array& builderOf(const Value& v, int line) { return object(v, "StringBuilder", line); }
inline Array& mapOf(const Value& v, int line) { return object(v, "map", line); }
inline Array& listOf(const Value& v, int line) { return object(v, "list", line); }

// An index into a String (StringIndexOutOfBoundsException as the JDK 17 checkIndex).
inline std::size_t textIndex(const std::string& s, double i, int line) {
  if (i < 0 || i >= static_cast<double>(s.size())) {
    fail("StringIndexOutOfBoundsException: index " + javaText(Base::Int, i) + ", length " + std::to_string(s.size()), line);
  }
  return static_cast<std::size_t>(i);
}

inline void checkRange(double begin, double end, std::size_t length, int line) {
  if (begin < 0 || begin > end || end > static_cast<double>(length)) {
    fail("StringIndexOutOfBoundsException: begin " + javaText(Base::Int, begin) + ", end " + javaText(Base::Int, end) + ", length " +
             std::to_string(length),
         line);
  }
}

// The position of `needle` (a String or a char) in s from `from`, as indexOf / lastIndexOf.
inline double findText(const std::string& s, const std::string& needle, double from, bool last) {
  if (last) {
    std::size_t start = from < 0 ? std::string::npos : static_cast<std::size_t>(std::min(from, 1e15));
    if (from < 0 && from != -1e300) return -1;
    std::size_t at = s.rfind(needle, start);
    return at == std::string::npos ? -1.0 : static_cast<double>(at);
  }
  std::size_t start = from < 0 ? 0 : static_cast<std::size_t>(std::min(from, 1e15));
  if (start > s.size()) return -1.0;
  std::size_t at = s.find(needle, start);
  return at == std::string::npos ? -1.0 : static_cast<double>(at);
}

inline std::string replaceAll(const std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) {
    std::string out = to;
    for (char c : s) out += std::string(1, c) + to;
    return out;
  }
  std::string out;
  std::size_t pos = 0;
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, pos)) {
    out += s.substr(pos, at - pos) + to;
    pos = at + from.size();
  }
  return out + s.substr(pos);
}

inline FormatArg formatArg(const Type& t, const Value& v) {
  FormatArg a;
  if (t.base == Base::Void && t.dims == 1) {
    a.null = true;
  } else if (t.isString()) {
    a.type = Base::String;
    a.text = v.text;
    a.null = isNullText(v.text);
  } else if (t.isReference()) {
    a.type = Base::String;
    a.text = valueText(t, v);
    a.null = !v.ref;
  } else {
    a.type = t.base;
    a.number = v.number;
    a.null = t.boxed && isNullBoxed(v.number);
  }
  return a;
}

inline bool isText(const Type& t) { return t.isString(); }
inline bool isInt(const Type& t) { return t.dims == 0 && (t.base == Base::Int || t.base == Base::Char) && !t.boxed; }
inline bool isCharOrText(const Type& t) { return t.isString() || t.isChar(); }
inline std::string charOrText(const Type& t, const Value& v, int line) { return t.isChar() ? charText(v.number) : text(v, line); }

// Sorts numbers as Arrays.sort / Collections.sort do (Double.compare order for doubles).
inline void sortNumbers(std::vector<double>& v, Base item, std::size_t from, std::size_t to) {
  std::stable_sort(v.begin() + static_cast<std::ptrdiff_t>(from), v.begin() + static_cast<std::ptrdiff_t>(to), [item](double a, double b) {
    return compareValues(item, num(a), num(b)) < 0;
  });
}

inline void sortTexts(std::vector<std::string>& v) {
  std::stable_sort(v.begin(), v.end(), [](const std::string& a, const std::string& b) { return compareTexts(a, b) < 0; });
}


}  // namespace pesim::java::library
