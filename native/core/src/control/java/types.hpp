// Values and types of the Java subset that GeckoCIRCUITS Java blocks are written in (control
// `typ 61`, GeckoCIRCUITS ReglerJavaFunction / SourceFileGenerator: the block's code is the body of
// `double[] calculateYOUT(double[] xIN, double time, double dt)` in a class whose fields are the
// block's "static variables" and whose `init()` is its "static code").
//
// Every number is held in a double at run time; the static type decides the arithmetic: int and
// long operations truncate and wrap as Java's do (JLS §15.17, §5.1.3), float results are rounded to
// float. A long is exact up to 2^53. Arrays are reference objects, as in Java, and so are lists
// (java.util.List / ArrayList of Double, Integer, Long, Float or Boolean), held like arrays of
// numbers that grow. A boxed value (a Double, Integer, ... object) is held as its number: the code
// can only make boxed values from numbers, so none is null.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pesim::java {

enum class Base { Void, Boolean, Int, Long, Float, Double, String, List };

struct Type {
  Base base = Base::Void;
  int dims = 0;            // array dimensions; 0 for a scalar
  Base item = Base::Void;  // List: the type of its (boxed) elements; Void while unknown (`new ArrayList<>()`)
  bool boxed = false;      // a Double, Integer, Long, Float or Boolean object (its number, unboxed where one is needed)

  bool isArray() const { return dims > 0; }
  bool isList() const { return dims == 0 && base == Base::List; }
  // Arrays and lists: held by reference (in array slots).
  bool isReference() const { return isArray() || isList(); }
  // The type of a list's elements: the boxed item.
  Type itemType() const { return Type{item, 0, Base::Void, true}; }
  bool isNumeric() const { return dims == 0 && (base == Base::Int || base == Base::Long || base == Base::Float || base == Base::Double); }
  bool isIntegral() const { return dims == 0 && (base == Base::Int || base == Base::Long); }
  bool isBoolean() const { return dims == 0 && base == Base::Boolean; }
  bool isString() const { return dims == 0 && base == Base::String; }
  bool isVoid() const { return dims == 0 && base == Base::Void; }
  Type element() const { return Type{base, dims - 1}; }
  // Boxing is not part of the comparison: a Double converts to and from a double wherever Java
  // boxes and unboxes (the compiler checks the few places where it matters).
  bool operator==(const Type& o) const { return base == o.base && dims == o.dims && item == o.item; }
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
  // A list's count of structural changes (java.util.AbstractList.modCount): a for-each over the list
  // fails with ConcurrentModificationException when its body adds or removes elements.
  std::uint64_t modCount = 0;
  std::size_t length() const { return ofRows ? rows.size() : numbers.size(); }
};

// Converts a double holding a value to `to` as a Java cast does (JLS §5.1.3: NaN → 0, saturation).
double castTo(Base to, double v);
// The Java text of a value of a scalar type, as `String.valueOf` writes it.
std::string javaText(Base type, double v);

}  // namespace pesim::java
