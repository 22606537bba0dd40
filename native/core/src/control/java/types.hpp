// Values and types of the Java subset that GeckoCIRCUITS Java blocks are written in (control
// `typ 61`, GeckoCIRCUITS ReglerJavaFunction / SourceFileGenerator: the block's code is the body of
// `double[] calculateYOUT(double[] xIN, double time, double dt)` in a class whose fields are the
// block's "static variables" and whose `init()` is its "static code").
//
// Every number is held in a double at run time; the static type decides the arithmetic: int and
// long operations truncate and wrap as Java's do (JLS §15.17, §5.1.3), float results are rounded to
// float. A long is exact up to 2^53. Arrays are reference objects, as in Java.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pesim::java {

enum class Base { Void, Boolean, Int, Long, Float, Double, String };

struct Type {
  Base base = Base::Void;
  int dims = 0;  // array dimensions; 0 for a scalar

  bool isArray() const { return dims > 0; }
  bool isNumeric() const { return dims == 0 && (base == Base::Int || base == Base::Long || base == Base::Float || base == Base::Double); }
  bool isIntegral() const { return dims == 0 && (base == Base::Int || base == Base::Long); }
  bool isBoolean() const { return dims == 0 && base == Base::Boolean; }
  bool isString() const { return dims == 0 && base == Base::String; }
  bool isVoid() const { return dims == 0 && base == Base::Void; }
  Type element() const { return Type{base, dims - 1}; }
  bool operator==(const Type& o) const { return base == o.base && dims == o.dims; }
  bool operator!=(const Type& o) const { return !(*this == o); }
};

inline Type scalar(Base b) { return Type{b, 0}; }
std::string typeName(const Type& t);

// Binary numeric promotion (JLS §5.6.2) of two numeric types.
Base promote(Base a, Base b);

// A Java array: numbers (the last dimension) or references to arrays of one dimension less.
struct Array;
using ArrayRef = std::shared_ptr<Array>;
struct Array {
  std::vector<double> numbers;
  std::vector<ArrayRef> rows;
  bool ofRows = false;
  std::size_t length() const { return ofRows ? rows.size() : numbers.size(); }
};

// Converts a double holding a value to `to` as a Java cast does (JLS §5.1.3: NaN → 0, saturation).
double castTo(Base to, double v);
// The Java text of a value of a scalar type, as `String.valueOf` writes it.
std::string javaText(Base type, double v);

}  // namespace pesim::java
