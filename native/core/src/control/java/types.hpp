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

// Char is an integral type printed as a character. Builder (StringBuilder), Map (HashMap and kin),
// Exception (a Throwable of the subset) and Writer (a script's PrintWriter, FileWriter or
// BufferedWriter: file_output.hpp) are objects held by reference, like arrays and lists.
enum class Base { Void, Boolean, Int, Long, Float, Double, String, List, Char, Builder, Map, Exception, Writer };

struct Type {
  Base base = Base::Void;
  int dims = 0;            // array dimensions; 0 for a scalar
  Base item = Base::Void;  // List: the type of its (boxed) elements; Void while unknown (`new ArrayList<>()`)
  bool boxed = false;      // a Double, Integer, Long, Float or Boolean object (its number, unboxed where one is needed)
  Base key = Base::Void;   // Map: the type of its keys (item: the type of its values)

  bool isArray() const { return dims > 0; }
  bool isList() const { return dims == 0 && base == Base::List; }
  // Arrays and lists: held by reference (in array slots).
  bool isMap() const { return dims == 0 && base == Base::Map; }
  bool isObject() const { return dims == 0 && (base == Base::Builder || base == Base::Exception || base == Base::Writer); }
  bool isReference() const { return isArray() || isList() || isMap() || isObject(); }
  // The type of a list's elements (a map's values): the boxed item, or String.
  Type itemType() const { return item == Base::String ? Type{Base::String, 0} : Type{item, 0, Base::Void, true}; }
  Type keyType() const { return key == Base::String ? Type{Base::String, 0} : Type{key, 0, Base::Void, true}; }
  bool isNumeric() const {
    return dims == 0 && (base == Base::Int || base == Base::Long || base == Base::Float || base == Base::Double || base == Base::Char);
  }
  bool isIntegral() const { return dims == 0 && (base == Base::Int || base == Base::Long || base == Base::Char); }
  bool isChar() const { return dims == 0 && base == Base::Char; }
  bool isBoolean() const { return dims == 0 && base == Base::Boolean; }
  bool isString() const { return dims == 0 && base == Base::String; }
  bool isVoid() const { return dims == 0 && base == Base::Void; }
  Type element() const { return Type{base, dims - 1}; }
  // Boxing is not part of the comparison: a Double converts to and from a double wherever Java
  // boxes and unboxes (the compiler checks the few places where it matters).
  bool operator==(const Type& o) const { return base == o.base && dims == o.dims && item == o.item && key == o.key; }
  bool operator!=(const Type& o) const { return !(*this == o); }
};

inline Type scalar(Base b) { return Type{b, 0}; }
std::string typeName(const Type& t);

// Binary numeric promotion (JLS §5.6.2) of two numeric types.
Base promote(Base a, Base b);

// A Java object held by reference. An array: numbers (the last dimension), strings (a String[]) or
// references to arrays of one dimension less; a list: numbers or strings (by its element type).
// StringBuilders, exceptions and maps keep the rest of their state in `state` (null for arrays and
// lists, so that the arrays code allocates every step stay small).
struct Array;
using ArrayRef = std::shared_ptr<Array>;
enum class MapKind { Hash, Linked, Tree };
struct OutputFile;  // file_output.hpp
// A StringBuilder: `text`; an exception: `className` and `text` (its message, `hasText` false for
// null); a map: its keys and values as two lists of equal length, in insertion order (the iteration
// order of the map's kind is computed from them: nodes_maps.cpp).
struct ObjectState {
  std::string text;
  std::string className;
  bool hasText = false;
  ArrayRef keys, values;
  MapKind mapKind = MapKind::Hash;
  std::size_t capacity = 0;  // HashMap: its table size (0 before the first put)
  std::shared_ptr<OutputFile> file;  // a Writer: the file it writes
};
struct Array {
  std::vector<double> numbers;
  std::vector<ArrayRef> rows;
  std::vector<std::string> texts;
  bool ofRows = false;
  bool ofTexts = false;
  std::shared_ptr<ObjectState> state;  // (copies of arrays, clone(), have none)
  // A list's count of structural changes (java.util.AbstractList.modCount): a for-each over the list
  // fails with ConcurrentModificationException when its body adds or removes elements.
  std::uint64_t modCount = 0;
  std::size_t length() const { return ofRows ? rows.size() : ofTexts ? texts.size() : numbers.size(); }
};

// A null String is held as this one-character text (a NUL), which Java code cannot otherwise
// produce by accident; it prints as "null".
inline std::string nullText() { return std::string(1, '\0'); }
inline bool isNullText(const std::string& s) { return s.size() == 1 && s[0] == '\0'; }
inline std::string shownText(std::string s) { return isNullText(s) ? std::string("null") : s; }

// Converts a double holding a value to `to` as a Java cast does (JLS §5.1.3: NaN → 0, saturation).
double castTo(Base to, double v);
// The Java text of a value of a scalar type, as `String.valueOf` writes it.
std::string javaText(Base type, double v);
// A char's text: the UTF-8 encoding of its code unit.
std::string charText(double v);

}  // namespace pesim::java
