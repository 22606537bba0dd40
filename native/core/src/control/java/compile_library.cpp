// Java block compiler: static library methods (Integer, Long, Double, Boolean, Character, String,
// Arrays, Collections) and `new` of StringBuilder, maps and exceptions. Each static method is
// compiled by a short function found by its name in kLibraryMethods; it returns null when the
// arguments do not fit (the call is then no library call).
#include "control/java/library_values.hpp"

namespace pesim::java {

using namespace library;  // NOLINT: the helpers of the library part

namespace {

// A static library call being compiled: the method's name, the arguments' types, `call`, which
// builds the call around its run-time code, and `reject`, which stops with a compile error at the call.
struct LibrarySite {
  const std::string& name;  // e.g. "Integer.parseInt" (java.lang. and java.util. taken off)
  const std::vector<Type>& a;
  const std::function<ExprPtr(Type, NativeFn)>& call;
  const std::function<void(const std::string&)>& reject;
  bool oneArgument() const { return a.size() == 1; }
};

struct LibraryEntry {
  const char* name;
  ExprPtr (*compile)(const LibrarySite&);
};

// ---------------------------------------------------------------- Integer, Long, Double, Boolean

// Integer.parseInt and Long.parseLong.
ExprPtr parseIntegral(const LibrarySite& site) {
  if (!site.oneArgument() || !isText(site.a[0])) return nullptr;
  const bool isLong = site.name == "Long.parseLong";
  return site.call(scalar(isLong ? Base::Long : Base::Int), [isLong](Exec&, std::vector<Value>& v, int l) { return num(parseInteger(v[0].text, isLong, l)); });
}

// Integer.valueOf(String) and Long.valueOf(String): boxed.
ExprPtr integralValueOf(const LibrarySite& site) {
  if (!site.oneArgument() || !isText(site.a[0])) return nullptr;
  const bool isLong = site.name == "Long.valueOf";
  return site.call(Type{isLong ? Base::Long : Base::Int, 0, Base::Void, true}, [isLong](Exec&, std::vector<Value>& v, int l) { return num(parseInteger(v[0].text, isLong, l)); });
}

// Double.parseDouble and Double.valueOf(String) (boxed).
ExprPtr parseDouble(const LibrarySite& site) {
  if (!site.oneArgument() || !isText(site.a[0])) return nullptr;
  const bool boxed = site.name == "Double.valueOf";
  return site.call(Type{Base::Double, 0, Base::Void, boxed}, [](Exec&, std::vector<Value>& v, int l) { return num(parseDecimal(v[0].text, l)); });
}

ExprPtr parseBoolean(const LibrarySite& site) {
  if (!site.oneArgument() || !isText(site.a[0])) return nullptr;
  return site.call(scalar(Base::Boolean), [](Exec&, std::vector<Value>& v, int) { return flag(lowerText(v[0].text) == "true"); });
}

// Integer.toString(int), Long.toString(long), ..., Character.toString(char): the value as Java prints it.
ExprPtr valueToString(const LibrarySite& site) {
  const auto& a = site.a;
  if (!site.oneArgument() || a[0].isVoid()) return nullptr;
  const std::string owner = site.name.substr(0, site.name.find('.'));
  const Base base = owner == "Integer" ? Base::Int : owner == "Long" ? Base::Long : owner == "Double" ? Base::Double : owner == "Float" ? Base::Float
                    : owner == "Boolean" ? Base::Boolean : Base::Char;
  const bool fits = base == Base::Boolean ? a[0].isBoolean() : a[0].isNumeric() && promote(a[0].base, base) == (base == Base::Char ? Base::Int : base);
  if (!fits) site.reject(site.name + " takes one " + typeName(scalar(base)) + " value");
  return site.call(stringType(), [base](Exec&, std::vector<Value>& v, int) { return txt(javaText(base, castTo(base, v[0].number))); });
}

// Integer.toHexString, toOctalString and toBinaryString: the int's 32 bits unsigned, in base 16, 8 or 2.
ExprPtr integerDigits(const LibrarySite& site) {
  if (!site.oneArgument() || !isInt(site.a[0])) return nullptr;
  const int bits = site.name == "Integer.toHexString" ? 4 : site.name == "Integer.toOctalString" ? 3 : 1;
  return site.call(stringType(), [bits](Exec&, std::vector<Value>& v, int) {
    auto u = static_cast<std::uint32_t>(static_cast<std::int32_t>(v[0].number));
    std::string s;
    do {
      s.insert(s.begin(), "0123456789abcdef"[u & ((1U << bits) - 1)]);
      u >>= bits;
    } while (u != 0);
    return txt(s);
  });
}

// Integer.compare, Long.compare and Double.compare.
ExprPtr compareNumbers(const LibrarySite& site) {
  const auto& a = site.a;
  if (a.size() != 2 || !a[0].isNumeric() || !a[1].isNumeric()) return nullptr;
  const Base base = site.name[0] == 'D' ? Base::Double : Base::Long;
  return site.call(scalar(Base::Int), [base](Exec&, std::vector<Value>& v, int) { return num(compareValues(base, v[0], v[1])); });
}

// ---------------------------------------------------------------- Character (ASCII classes only)

bool oneCharacter(const LibrarySite& site) { return site.oneArgument() && (site.a[0].isChar() || isInt(site.a[0])); }

// Character.isDigit, isLetter, ...: false for a char of 128 or more.
ExprPtr characterTest(const LibrarySite& site, int (*test)(int)) {
  if (!oneCharacter(site)) return nullptr;
  return site.call(scalar(Base::Boolean), [test](Exec&, std::vector<Value>& v, int) { return flag(v[0].number < 128 && test(static_cast<int>(v[0].number)) != 0); });
}

ExprPtr characterIsDigit(const LibrarySite& site) { return characterTest(site, [](int c) { return std::isdigit(c); }); }
ExprPtr characterIsLetter(const LibrarySite& site) { return characterTest(site, [](int c) { return std::isalpha(c); }); }
ExprPtr characterIsLetterOrDigit(const LibrarySite& site) { return characterTest(site, [](int c) { return std::isalnum(c); }); }
ExprPtr characterIsWhitespace(const LibrarySite& site) { return characterTest(site, [](int c) { return std::isspace(c); }); }
ExprPtr characterIsUpperCase(const LibrarySite& site) { return characterTest(site, [](int c) { return std::isupper(c); }); }
ExprPtr characterIsLowerCase(const LibrarySite& site) { return characterTest(site, [](int c) { return std::islower(c); }); }

// Character.toUpperCase and toLowerCase: a char for a char, an int for an int.
ExprPtr characterToCase(const LibrarySite& site) {
  if (!oneCharacter(site)) return nullptr;
  const bool upper = site.name == "Character.toUpperCase";
  return site.call(scalar(site.a[0].isChar() ? Base::Char : Base::Int), [upper](Exec&, std::vector<Value>& v, int) {
    const int c = static_cast<int>(v[0].number);
    return num(c < 128 ? (upper ? std::toupper(c) : std::tolower(c)) : c);
  });
}

// Character.getNumericValue: 0-9 for digits, 10-35 for letters, else -1.
ExprPtr characterNumericValue(const LibrarySite& site) {
  if (!oneCharacter(site)) return nullptr;
  return site.call(scalar(Base::Int), [](Exec&, std::vector<Value>& v, int) {
    const int c = static_cast<int>(v[0].number);
    if (c >= '0' && c <= '9') return num(c - '0');
    if (std::isalpha(c)) return num(std::tolower(c) - 'a' + 10);
    return num(-1);
  });
}

// ---------------------------------------------------------------- String

// String.join(delimiter, a, b, ...) or String.join(delimiter, String[] or List<String>).
ExprPtr stringJoin(const LibrarySite& site) {
  const auto& a = site.a;
  if (a.size() < 2 || !isText(a[0])) return nullptr;
  const bool collection = a.size() == 2 && ((a[1].isList() && a[1].item == Base::String) || (a[1].base == Base::String && a[1].dims == 1));
  if (!collection) {
    for (std::size_t i = 1; i < a.size(); ++i) if (!isText(a[i])) site.reject("String.join takes a delimiter and Strings, a String[] or a List<String>");
  }
  return site.call(stringType(), [collection](Exec&, std::vector<Value>& v, int l) {
    std::vector<std::string> parts;
    if (collection) parts = object(v[1], "collection", l).texts;
    else for (std::size_t i = 1; i < v.size(); ++i) parts.push_back(v[i].text);
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? text(v[0], l) : "") + shownText(parts[i]);
    return txt(out);
  });
}

// ---------------------------------------------------------------- Arrays

ExprPtr arraysToString(const LibrarySite& site) {
  if (!site.oneArgument() || site.a[0].dims != 1) return nullptr;
  const Type array = site.a[0];
  return site.call(stringType(), [array](Exec&, std::vector<Value>& v, int) {
    if (!v[0].ref) return txt("null");
    const Array& o = *v[0].ref;
    std::string s = "[";
    for (std::size_t i = 0; i < o.length(); ++i) s += (i ? ", " : "") + (array.base == Base::String ? shownText(o.texts[i]) : javaText(array.base, o.numbers[i]));
    return txt(s + "]");
  });
}

// Arrays.sort(array) and Arrays.sort(array, from, to), with the JDK's messages for a bad range.
ExprPtr arraysSort(const LibrarySite& site) {
  const auto& a = site.a;
  if (!(a.size() == 1 || (a.size() == 3 && isInt(a[1]) && isInt(a[2]))) || a[0].dims != 1 || a[0].base == Base::Boolean) return nullptr;
  const Base base = a[0].base;
  return site.call(scalar(Base::Void), [base](Exec&, std::vector<Value>& v, int l) {
    Array& o = object(v[0], "array", l);
    if (base == Base::String) {
      sortTexts(o.texts);
      return Value{};
    }
    std::size_t from = 0, to = o.numbers.size();
    if (v.size() == 3) {
      if (v[1].number > v[2].number) fail("IllegalArgumentException: fromIndex(" + javaText(Base::Int, v[1].number) + ") > toIndex(" + javaText(Base::Int, v[2].number) + ")", l);
      if (v[1].number < 0 || v[2].number > static_cast<double>(to)) {
        fail("ArrayIndexOutOfBoundsException: Array index out of range: " + javaText(Base::Int, v[1].number < 0 ? v[1].number : v[2].number), l);
      }
      from = static_cast<std::size_t>(v[1].number);
      to = static_cast<std::size_t>(v[2].number);
    }
    sortNumbers(o.numbers, base, from, to);
    return Value{};
  });
}

ExprPtr arraysEquals(const LibrarySite& site) {
  const auto& a = site.a;
  if (a.size() != 2 || a[0].dims != 1 || !(a[0] == a[1])) return nullptr;
  const Base base = a[0].base;
  return site.call(scalar(Base::Boolean), [base](Exec&, std::vector<Value>& v, int) {
    if (!v[0].ref || !v[1].ref) return flag(v[0].ref == v[1].ref);
    const Array &x = *v[0].ref, &y = *v[1].ref;
    if (x.length() != y.length()) return flag(false);
    for (std::size_t i = 0; i < x.length(); ++i) {
      if (base == Base::String ? x.texts[i] != y.texts[i] : compareValues(base, num(x.numbers[i]), num(y.numbers[i])) != 0) return flag(false);
    }
    return flag(true);
  });
}

// ---------------------------------------------------------------- Collections

// Collections.sort and Collections.reverse of a list.
ExprPtr collectionsReorder(const LibrarySite& site) {
  if (!site.oneArgument() || !site.a[0].isList()) return nullptr;
  const Base item = site.a[0].item;
  const bool reverse = site.name == "Collections.reverse";
  return site.call(scalar(Base::Void), [item, reverse](Exec&, std::vector<Value>& v, int l) {
    Array& o = object(v[0], "list", l);
    if (reverse) {
      std::reverse(o.numbers.begin(), o.numbers.end());
      std::reverse(o.texts.begin(), o.texts.end());
    } else if (item == Base::String) {
      sortTexts(o.texts);
    } else {
      for (double x : o.numbers) if (isNullBoxed(x)) fail("NullPointerException: the list holds null", l);
      sortNumbers(o.numbers, item, 0, o.numbers.size());
    }
    ++o.modCount;
    return Value{};
  });
}

// Collections.max and Collections.min of a list, in natural order (the first of equals).
ExprPtr collectionsExtreme(const LibrarySite& site) {
  if (!site.oneArgument() || !site.a[0].isList()) return nullptr;
  const Base item = site.a[0].item;
  const bool max = site.name == "Collections.max";
  return site.call(site.a[0].itemType(), [item, max](Exec&, std::vector<Value>& v, int l) {
    Array& o = object(v[0], "list", l);
    if (o.length() == 0) fail("NoSuchElementException", l);
    Value best = elementAt(o, item, 0);
    for (std::size_t i = 1; i < o.length(); ++i) {
      Value x = elementAt(o, item, i);
      const int c = compareValues(item, x, best);
      if (max ? c > 0 : c < 0) best = x;
    }
    return best;
  });
}

// The static methods compiled here (String.format is the compiler's formatCall).
constexpr LibraryEntry kLibraryMethods[] = {
    {"Integer.parseInt", parseIntegral},
    {"Long.parseLong", parseIntegral},
    {"Integer.valueOf", integralValueOf},
    {"Long.valueOf", integralValueOf},
    {"Double.parseDouble", parseDouble},
    {"Double.valueOf", parseDouble},
    {"Boolean.parseBoolean", parseBoolean},
    {"Integer.toString", valueToString},
    {"Long.toString", valueToString},
    {"Double.toString", valueToString},
    {"Float.toString", valueToString},
    {"Boolean.toString", valueToString},
    {"Character.toString", valueToString},
    {"Integer.toHexString", integerDigits},
    {"Integer.toOctalString", integerDigits},
    {"Integer.toBinaryString", integerDigits},
    {"Integer.compare", compareNumbers},
    {"Long.compare", compareNumbers},
    {"Double.compare", compareNumbers},
    {"Character.isDigit", characterIsDigit},
    {"Character.isLetter", characterIsLetter},
    {"Character.isLetterOrDigit", characterIsLetterOrDigit},
    {"Character.isWhitespace", characterIsWhitespace},
    {"Character.isUpperCase", characterIsUpperCase},
    {"Character.isLowerCase", characterIsLowerCase},
    {"Character.toUpperCase", characterToCase},
    {"Character.toLowerCase", characterToCase},
    {"Character.getNumericValue", characterNumericValue},
    {"String.join", stringJoin},
    {"Arrays.toString", arraysToString},
    {"Arrays.sort", arraysSort},
    {"Arrays.equals", arraysEquals},
    {"Collections.sort", collectionsReorder},
    {"Collections.reverse", collectionsReorder},
    {"Collections.max", collectionsExtreme},
    {"Collections.min", collectionsExtreme},
};

}  // namespace

ExprPtr Compiler::libraryCall(const std::string& full, std::vector<ExprPtr>& args, const Token& at) {
  std::string name = full;
  for (const char* package : {"java.lang.", "java.util."}) {
    if (name.rfind(package, 0) == 0) name = name.substr(std::string(package).size());
  }
  if (name == "String.format") return formatCall(std::move(args), at);
  std::vector<Type> a;
  for (const auto& e : args) a.push_back(e->type());
  const Call call = [&](Type result, NativeFn fn) { return nativeCall(result, std::move(args), std::move(fn), at.line); };
  const std::function<void(const std::string&)> reject = [&](const std::string& message) { errorAt(at, message); };
  const LibrarySite site{name, a, call, reject};
  for (const LibraryEntry& e : kLibraryMethods) {
    if (name == e.name) return e.compile(site);
  }
  return nullptr;
}

ExprPtr Compiler::newObject(const Token& at) {
  const Token& t = peek();
  const std::string& cls = t.text;
  if (cls == "StringBuilder" || cls == "StringBuffer") {
    next();
    std::vector<ExprPtr> args = arguments();
    if (args.size() > 1 || (args.size() == 1 && !isText(args[0]->type()) && !isInt(args[0]->type()))) {
      errorAt(at, "new StringBuilder takes nothing, a String or an initial capacity");
    }
    const bool fromText = args.size() == 1 && isText(args[0]->type());
    return nativeCall(scalar(Base::Builder), std::move(args), [fromText](Exec&, std::vector<Value>& v, int l) {
      auto b = std::make_shared<Array>();
      b->state = std::make_shared<ObjectState>();
      if (fromText) b->state->text = text(v[0], l);
      return obj(b);
    }, at.line);
  }
  if (knownException(cls)) {
    next();
    std::vector<ExprPtr> args = arguments();
    if (args.size() > 1 || (args.size() == 1 && !isText(args[0]->type()))) errorAt(at, "new " + cls + " takes nothing or a message (String)");
    const bool hasText = args.size() == 1;
    return nativeCall(scalar(Base::Exception), std::move(args), [cls, hasText](Exec&, std::vector<Value>& v, int) {
      return obj(exceptionObject(cls, hasText ? v[0].text : std::string(), hasText && !isNullText(v[0].text)));
    }, at.line);
  }
  if (mapNameLength(0) > 0) {
    Type type = parseType(true);
    const std::string simple = mapSimpleName_;
    std::vector<ExprPtr> args = arguments();
    const MapKind kind = simple == "TreeMap" ? MapKind::Tree : simple == "LinkedHashMap" ? MapKind::Linked : MapKind::Hash;
    if (args.size() > 1 || (args.size() == 1 && !isInt(args[0]->type()) && !args[0]->type().isMap())) {
      errorAt(at, "new " + simple + " takes nothing, an initial capacity or a map to copy");
    }
    const bool copy = args.size() == 1 && args[0]->type().isMap();
    if (copy) {
      const Type& from = args[0]->type();
      if (type.key == Base::Void) type.key = from.key, type.item = from.item;
      if (from.key != type.key || from.item != type.item) errorAt(at, "a " + typeName(type) + " cannot copy a " + typeName(from));
    }
    const Base key = type.key, item = type.item;
    return nativeCall(type, std::move(args), [kind, key, item, copy](Exec&, std::vector<Value>& v, int l) {
      if (!copy) {
        if (!v.empty() && v[0].number < 0) fail("IllegalArgumentException: Illegal initial capacity: " + javaText(Base::Int, v[0].number), l);
        return obj(newMap(kind, key, item, v.empty() ? 0.0 : v[0].number));
      }
      const Array& from = object(v[0], "map", l);
      // HashMap(Map): a table for size / 0.75 + 1 entries, then the entries in the source's order.
      ArrayRef map = newMap(kind, key, item, kind == MapKind::Hash && from.state->keys->length() > 0 ? static_cast<double>(from.state->keys->length()) / 0.75 + 1.0 : 0.0);
      for (std::size_t i : mapOrder(from, key)) mapPut(*map, key, item, elementAt(*from.state->keys, key, i), elementAt(*from.state->values, item, i), l);
      return obj(map);
    }, at.line);
  }
  return nullptr;
}

}  // namespace pesim::java
