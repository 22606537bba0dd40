// Java block compiler: String.format and the methods of String, StringBuilder and exceptions
// (see text_ops.hpp and format.hpp for their run-time side). Each method is compiled by a short
// function found by its name in its class's table; it returns null when the arguments do not fit.
#include "control/java/library_values.hpp"

namespace pesim::java {

using namespace library;  // NOLINT: the helpers of the library part

namespace {

// A method call on an object being compiled: the receiver's type, the method's name, the
// arguments' types, and `call`, which builds the call (receiver and arguments) around its run-time code.
struct MethodSite {
  const Type& t;
  const std::string& m;
  const std::vector<Type>& a;
  const std::function<ExprPtr(Type, NativeFn)>& call;
  bool arity(std::size_t n) const { return a.size() == n; }
};

struct MethodEntry {
  const char* name;
  ExprPtr (*compile)(const MethodSite&);
};

// The method of `methods` named as the call's, compiled; null when there is none or the arguments do not fit.
template <std::size_t N>
ExprPtr compileMethod(const MethodEntry (&methods)[N], const MethodSite& site) {
  for (const MethodEntry& e : methods) {
    if (site.m == e.name) return e.compile(site);
  }
  return nullptr;
}

// A null argument where the collection holds Strings or boxed values (or of String.equals) becomes that type's null.
void typeNullArguments(const Type& t, const Token& name, std::vector<ExprPtr>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const Type& at = args[i]->type();
    if (at.base != Base::Void || at.dims != 1) continue;
    const bool keyPosition = t.isMap() && i == 0 && name.text != "containsValue";
    const Base holds = t.isList() ? t.item : t.isMap() ? (keyPosition ? t.key : t.item) : Base::Void;
    if (holds == Base::String || (t.isString() && name.text == "equals")) args[i] = stringConstant(nullText(), name.line);
    else if (holds != Base::Void) args[i] = numberConstant(Type{holds, 0, Base::Void, true}, nullBoxed(), name.line);
  }
}

// ---------------------------------------------------------------- String

ExprPtr stringLength(const MethodSite& site) {
  if (!site.arity(0)) return nullptr;
  return site.call(scalar(Base::Int), [](Exec&, std::vector<Value>& v, int l) { return num(static_cast<double>(text(v[0], l).size())); });
}

ExprPtr stringIsEmpty(const MethodSite& site) {
  if (!site.arity(0)) return nullptr;
  return site.call(scalar(Base::Boolean), [](Exec&, std::vector<Value>& v, int l) { return flag(text(v[0], l).empty()); });
}

ExprPtr stringIsBlank(const MethodSite& site) {
  if (!site.arity(0)) return nullptr;
  return site.call(scalar(Base::Boolean), [](Exec&, std::vector<Value>& v, int l) { return flag(trimText(text(v[0], l)).empty()); });
}

ExprPtr stringCharAt(const MethodSite& site) {
  if (!site.arity(1) || !isInt(site.a[0])) return nullptr;
  return site.call(scalar(Base::Char), [](Exec&, std::vector<Value>& v, int l) {
    const std::string& s = text(v[0], l);
    return num(static_cast<unsigned char>(s[textIndex(s, v[1].number, l)]));
  });
}

ExprPtr stringSubstring(const MethodSite& site) {
  const auto& a = site.a;
  if (!(site.arity(1) || site.arity(2)) || !isInt(a[0]) || (a.size() == 2 && !isInt(a[1]))) return nullptr;
  const bool toEnd = a.size() == 1;
  return site.call(stringType(), [toEnd](Exec&, std::vector<Value>& v, int l) {
    const std::string& s = text(v[0], l);
    const double end = toEnd ? static_cast<double>(s.size()) : v[2].number;
    checkRange(v[1].number, end, s.size(), l);
    return txt(s.substr(static_cast<std::size_t>(v[1].number), static_cast<std::size_t>(end - v[1].number)));
  });
}

// indexOf and lastIndexOf, of a char or a String, from the start (end) or from an index.
ExprPtr stringIndexOf(const MethodSite& site) {
  const auto& a = site.a;
  if (!(site.arity(1) || site.arity(2)) || !isCharOrText(a[0]) || (a.size() == 2 && !isInt(a[1]))) return nullptr;
  const bool last = site.m == "lastIndexOf";
  const bool from = a.size() == 2;
  const Type needle = a[0];
  return site.call(scalar(Base::Int), [=](Exec&, std::vector<Value>& v, int l) {
    return num(findText(text(v[0], l), charOrText(needle, v[1], l), from ? v[2].number : (last ? 1e15 : 0.0), last));
  });
}

// contains, startsWith and endsWith.
ExprPtr stringHasPart(const MethodSite& site) {
  if (!site.arity(1) || !isText(site.a[0])) return nullptr;
  const int kind = site.m == "contains" ? 0 : site.m == "startsWith" ? 1 : 2;
  return site.call(scalar(Base::Boolean), [kind](Exec&, std::vector<Value>& v, int l) {
    const std::string& s = text(v[0], l);
    const std::string& x = text(v[1], l);
    if (kind == 0) return flag(s.find(x) != std::string::npos);
    if (kind == 1) return flag(s.compare(0, x.size(), x) == 0);
    return flag(s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0);
  });
}

// equals(Object): false for anything but a String.
ExprPtr stringEquals(const MethodSite& site) {
  if (!site.arity(1)) return nullptr;
  const bool comparable = isText(site.a[0]);
  return site.call(scalar(Base::Boolean), [comparable](Exec&, std::vector<Value>& v, int l) {
    return flag(comparable && text(v[0], l) == v[1].text);
  });
}

ExprPtr stringEqualsIgnoreCase(const MethodSite& site) {
  if (!site.arity(1) || !isText(site.a[0])) return nullptr;
  return site.call(scalar(Base::Boolean), [](Exec&, std::vector<Value>& v, int l) {
    return flag(!isNullText(v[1].text) && lowerText(text(v[0], l)) == lowerText(v[1].text));
  });
}

// compareTo and compareToIgnoreCase.
ExprPtr stringCompareTo(const MethodSite& site) {
  if (!site.arity(1) || !isText(site.a[0])) return nullptr;
  const bool ignore = site.m == "compareToIgnoreCase";
  return site.call(scalar(Base::Int), [ignore](Exec&, std::vector<Value>& v, int l) {
    const std::string& x = text(v[0], l);
    const std::string& y = text(v[1], l);
    return num(ignore ? compareTexts(lowerText(x), lowerText(y)) : compareTexts(x, y));
  });
}

// toUpperCase, toLowerCase, trim, strip, toString and intern: the String changed or itself.
ExprPtr stringConverted(const MethodSite& site) {
  if (!site.arity(0)) return nullptr;
  const std::string& m = site.m;
  const char kind = m == "toUpperCase" ? 'u' : m == "toLowerCase" ? 'l' : (m == "trim" || m == "strip") ? 't' : 's';
  return site.call(stringType(), [kind](Exec&, std::vector<Value>& v, int l) {
    const std::string& s = text(v[0], l);
    return txt(kind == 'u' ? upperText(s) : kind == 'l' ? lowerText(s) : kind == 't' ? trimText(s) : s);
  });
}

// replace(char, char) and replace(CharSequence, CharSequence).
ExprPtr stringReplace(const MethodSite& site) {
  const auto& a = site.a;
  if (!site.arity(2) || !((isText(a[0]) && isText(a[1])) || (a[0].isChar() && a[1].isChar()))) return nullptr;
  const Type from = a[0], to = a[1];
  return site.call(stringType(), [from, to](Exec&, std::vector<Value>& v, int l) {
    return txt(replaceAll(text(v[0], l), charOrText(from, v[1], l), charOrText(to, v[2], l)));
  });
}

ExprPtr stringSplit(const MethodSite& site) {
  if (!site.arity(1) || !isText(site.a[0])) return nullptr;
  return site.call(Type{Base::String, 1}, [](Exec&, std::vector<Value>& v, int l) {
    auto parts = std::make_shared<Array>();
    parts->ofTexts = true;
    parts->texts = splitText(text(v[0], l), text(v[1], l), l);
    return obj(parts);
  });
}

ExprPtr stringConcat(const MethodSite& site) {
  if (!site.arity(1) || !isText(site.a[0])) return nullptr;
  return site.call(stringType(), [](Exec&, std::vector<Value>& v, int l) { return txt(text(v[0], l) + text(v[1], l)); });
}

ExprPtr stringRepeat(const MethodSite& site) {
  if (!site.arity(1) || !isInt(site.a[0])) return nullptr;
  return site.call(stringType(), [](Exec&, std::vector<Value>& v, int l) {
    if (v[1].number < 0) fail("IllegalArgumentException: count is negative: " + javaText(Base::Int, v[1].number), l);
    const std::string& s = text(v[0], l);
    if (static_cast<double>(s.size()) * v[1].number > 1e8) fail("a String of more than 100000000 characters is too large", l);
    std::string out;
    for (int i = 0; i < static_cast<int>(v[1].number); ++i) out += s;
    return txt(out);
  });
}

ExprPtr stringHashCode(const MethodSite& site) {
  if (!site.arity(0)) return nullptr;
  return site.call(scalar(Base::Int), [](Exec&, std::vector<Value>& v, int l) { return num(textHash(text(v[0], l))); });
}

ExprPtr stringToCharArray(const MethodSite& site) {
  if (!site.arity(0)) return nullptr;
  return site.call(Type{Base::Char, 1}, [](Exec&, std::vector<Value>& v, int l) {
    auto chars = std::make_shared<Array>();
    for (char c : text(v[0], l)) chars->numbers.push_back(static_cast<unsigned char>(c));
    return obj(chars);
  });
}

constexpr MethodEntry kStringMethods[] = {
    {"length", stringLength},
    {"isEmpty", stringIsEmpty},
    {"isBlank", stringIsBlank},
    {"charAt", stringCharAt},
    {"substring", stringSubstring},
    {"indexOf", stringIndexOf},
    {"lastIndexOf", stringIndexOf},
    {"contains", stringHasPart},
    {"startsWith", stringHasPart},
    {"endsWith", stringHasPart},
    {"equals", stringEquals},
    {"equalsIgnoreCase", stringEqualsIgnoreCase},
    {"compareTo", stringCompareTo},
    {"compareToIgnoreCase", stringCompareTo},
    {"toUpperCase", stringConverted},
    {"toLowerCase", stringConverted},
    {"trim", stringConverted},
    {"strip", stringConverted},
    {"toString", stringConverted},
    {"intern", stringConverted},
    {"replace", stringReplace},
    {"split", stringSplit},
    {"concat", stringConcat},
    {"repeat", stringRepeat},
    {"hashCode", stringHashCode},
    {"toCharArray", stringToCharArray},
};

// The methods named in the message for an unknown one (toString and intern go without saying).
constexpr const char* kStringMethodNames =
    "length, isEmpty, isBlank, charAt, substring, indexOf, lastIndexOf, contains, startsWith, endsWith, equals, "
    "equalsIgnoreCase, compareTo, compareToIgnoreCase, toUpperCase, toLowerCase, trim, strip, replace, split, concat, "
    "repeat, hashCode, toCharArray";

// ---------------------------------------------------------------- StringBuilder

// The text of a value appended or inserted: a char as its character, anything else as String.valueOf.
std::string appendedText(const Type& value, const Value& v) { return value.isChar() ? charText(v.number) : valueText(value, v); }

ExprPtr builderAppend(const MethodSite& site) {
  if (!site.arity(1) || site.a[0].isVoid()) return nullptr;
  const Type value = site.a[0];
  return site.call(site.t, [value](Exec&, std::vector<Value>& v, int l) {
    Array& b = builderOf(v[0], l);
    b.state->text += appendedText(value, v[1]);
    if (b.state->text.size() > 100'000'000) fail("a StringBuilder of more than 100000000 characters is too large", l);
    return v[0];
  });
}

ExprPtr builderInsert(const MethodSite& site) {
  if (!site.arity(2) || !isInt(site.a[0]) || site.a[1].isVoid()) return nullptr;
  const Type value = site.a[1];
  return site.call(site.t, [value](Exec&, std::vector<Value>& v, int l) {
    Array& b = builderOf(v[0], l);
    if (v[1].number < 0 || v[1].number > static_cast<double>(b.state->text.size())) {
      fail("StringIndexOutOfBoundsException: offset " + javaText(Base::Int, v[1].number) + ", length " + std::to_string(b.state->text.size()), l);
    }
    b.state->text.insert(static_cast<std::size_t>(v[1].number), appendedText(value, v[2]));
    return v[0];
  });
}

ExprPtr builderToString(const MethodSite& site) {
  if (!site.arity(0)) return nullptr;
  return site.call(stringType(), [](Exec&, std::vector<Value>& v, int l) { return txt(builderOf(v[0], l).state->text); });
}

ExprPtr builderLength(const MethodSite& site) {
  if (!site.arity(0)) return nullptr;
  return site.call(scalar(Base::Int), [](Exec&, std::vector<Value>& v, int l) { return num(static_cast<double>(builderOf(v[0], l).state->text.size())); });
}

ExprPtr builderIsEmpty(const MethodSite& site) {
  if (!site.arity(0)) return nullptr;
  return site.call(scalar(Base::Boolean), [](Exec&, std::vector<Value>& v, int l) { return flag(builderOf(v[0], l).state->text.empty()); });
}

ExprPtr builderCharAt(const MethodSite& site) {
  if (!site.arity(1) || !isInt(site.a[0])) return nullptr;
  return site.call(scalar(Base::Char), [](Exec&, std::vector<Value>& v, int l) {
    const std::string& s = builderOf(v[0], l).state->text;
    return num(static_cast<unsigned char>(s[textIndex(s, v[1].number, l)]));
  });
}

ExprPtr builderReverse(const MethodSite& site) {
  if (!site.arity(0)) return nullptr;
  return site.call(site.t, [](Exec&, std::vector<Value>& v, int l) {
    std::string& s = builderOf(v[0], l).state->text;
    std::reverse(s.begin(), s.end());
    return v[0];
  });
}

ExprPtr builderSetLength(const MethodSite& site) {
  if (!site.arity(1) || !isInt(site.a[0])) return nullptr;
  return site.call(scalar(Base::Void), [](Exec&, std::vector<Value>& v, int l) {
    if (v[1].number < 0) fail("StringIndexOutOfBoundsException: String index out of range: " + javaText(Base::Int, v[1].number), l);
    builderOf(v[0], l).state->text.resize(static_cast<std::size_t>(v[1].number), '\0');
    return Value{};
  });
}

ExprPtr builderDeleteCharAt(const MethodSite& site) {
  if (!site.arity(1) || !isInt(site.a[0])) return nullptr;
  return site.call(site.t, [](Exec&, std::vector<Value>& v, int l) {
    std::string& s = builderOf(v[0], l).state->text;
    s.erase(textIndex(s, v[1].number, l), 1);
    return v[0];
  });
}

// delete(start, end): an end past the text stops at its end.
ExprPtr builderDelete(const MethodSite& site) {
  if (!site.arity(2) || !isInt(site.a[0]) || !isInt(site.a[1])) return nullptr;
  return site.call(site.t, [](Exec&, std::vector<Value>& v, int l) {
    std::string& s = builderOf(v[0], l).state->text;
    const double end = std::min(v[2].number, static_cast<double>(s.size()));
    if (v[1].number < 0 || v[1].number > end) checkRange(v[1].number, v[2].number, s.size(), l);
    s.erase(static_cast<std::size_t>(v[1].number), static_cast<std::size_t>(end - v[1].number));
    return v[0];
  });
}

ExprPtr builderSetCharAt(const MethodSite& site) {
  if (!site.arity(2) || !isInt(site.a[0]) || !site.a[1].isChar()) return nullptr;
  return site.call(scalar(Base::Void), [](Exec&, std::vector<Value>& v, int l) {
    std::string& s = builderOf(v[0], l).state->text;
    s[textIndex(s, v[1].number, l)] = static_cast<char>(v[2].number);
    return Value{};
  });
}

ExprPtr builderIndexOf(const MethodSite& site) {
  if (!site.arity(1) || !isText(site.a[0])) return nullptr;
  return site.call(scalar(Base::Int), [](Exec&, std::vector<Value>& v, int l) { return num(findText(builderOf(v[0], l).state->text, text(v[1], l), 0, false)); });
}

constexpr MethodEntry kBuilderMethods[] = {
    {"append", builderAppend},
    {"insert", builderInsert},
    {"toString", builderToString},
    {"length", builderLength},
    {"isEmpty", builderIsEmpty},
    {"charAt", builderCharAt},
    {"reverse", builderReverse},
    {"setLength", builderSetLength},
    {"deleteCharAt", builderDeleteCharAt},
    {"delete", builderDelete},
    {"setCharAt", builderSetCharAt},
    {"indexOf", builderIndexOf},
};

constexpr const char* kBuilderMethodNames = "append, insert, toString, length, isEmpty, charAt, reverse, setLength, deleteCharAt, delete, setCharAt, indexOf";

// ---------------------------------------------------------------- exceptions

// getMessage and getLocalizedMessage.
ExprPtr exceptionMessage(const MethodSite& site) {
  if (!site.arity(0)) return nullptr;
  return site.call(stringType(), [](Exec&, std::vector<Value>& v, int l) {
    const Array& e = object(v[0], "exception", l);
    return txt(e.state->hasText ? e.state->text : nullText());
  });
}

ExprPtr exceptionToString(const MethodSite& site) {
  if (!site.arity(0)) return nullptr;
  return site.call(stringType(), [t = site.t](Exec&, std::vector<Value>& v, int) { return txt(objectText(t, v[0].ref)); });
}

// Printed with the code's other output (as System.err is): the exception's line.
ExprPtr exceptionPrintStackTrace(const MethodSite& site) {
  if (!site.arity(0)) return nullptr;
  return site.call(scalar(Base::Void), [t = site.t](Exec& ex, std::vector<Value>& v, int) {
    printText(ex, objectText(t, v[0].ref), true);
    return Value{};
  });
}

constexpr MethodEntry kExceptionMethods[] = {
    {"getMessage", exceptionMessage},
    {"getLocalizedMessage", exceptionMessage},
    {"toString", exceptionToString},
    {"printStackTrace", exceptionPrintStackTrace},
};

constexpr const char* kExceptionMethodNames = "getMessage, getLocalizedMessage, toString, printStackTrace";

}  // namespace

ExprPtr Compiler::formatCall(std::vector<ExprPtr> args, const Token& at) {
  if (args.empty() || !args[0]->type().isString()) errorAt(at, "the format must be a String");
  std::vector<Type> types;
  for (const auto& a : args) {
    if (a->type().isVoid()) errorAt(at, "a void value cannot be formatted");
    types.push_back(a->type());
  }
  return nativeCall(stringType(), std::move(args), [types](Exec&, std::vector<Value>& v, int line) {
    std::vector<FormatArg> formatArgs;
    for (std::size_t i = 1; i < v.size(); ++i) formatArgs.push_back(formatArg(types[i], v[i]));
    return txt(javaFormat(text(v[0], line), formatArgs, line));
  }, at.line);
}

ExprPtr Compiler::objectMethod(ExprPtr target, const Token& name) {
  const Type t = target->type();
  std::vector<ExprPtr> args = arguments();
  typeNullArguments(t, name, args);
  std::vector<Type> a;
  for (const auto& e : args) a.push_back(e->type());
  Call call = [&](Type result, NativeFn fn) {
    std::vector<ExprPtr> all;
    all.push_back(std::move(target));
    for (auto& e : args) all.push_back(std::move(e));
    return nativeCall(result, std::move(all), std::move(fn), name.line);
  };
  const MethodSite site{t, name.text, a, call};
  auto known = [&](ExprPtr compiled, const char* methodNames) {
    if (!compiled) {
      errorAt(name, "unknown method '" + name.text + "' with " + std::to_string(a.size()) + " argument(s) of " + typeName(t) + " (the subset has " +
                        methodNames + ")");
    }
    return compiled;
  };
  if (t.isString()) return known(compileMethod(kStringMethods, site), kStringMethodNames);
  if (t.base == Base::Builder) return known(compileMethod(kBuilderMethods, site), kBuilderMethodNames);
  if (t.base == Base::Exception) return known(compileMethod(kExceptionMethods, site), kExceptionMethodNames);
  if (t.isMap()) return mapMethod(call, t, a, name);
  if (t.isList() && t.item == Base::String) return stringListMethod(call, t, a, name);
  errorAt(name, "unknown method '" + name.text + "' of " + typeName(t));
}

}  // namespace pesim::java
