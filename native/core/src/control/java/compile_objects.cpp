// Java block compiler: String.format and the methods of String, StringBuilder and exceptions
// (see text_ops.hpp and format.hpp for their run-time side).
#include "control/java/library_values.hpp"

namespace pesim::java {

using namespace library;  // NOLINT: the helpers of the library part

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
  // A null argument where the collection holds Strings or boxed values: that type's null.
  for (std::size_t i = 0; i < args.size(); ++i) {
    const Type& at = args[i]->type();
    if (at.base != Base::Void || at.dims != 1) continue;
    const bool keyPosition = t.isMap() && i == 0 && name.text != "containsValue";
    const Base holds = t.isList() ? t.item : t.isMap() ? (keyPosition ? t.key : t.item) : Base::Void;
    if (holds == Base::String || (t.isString() && name.text == "equals")) args[i] = stringConstant(nullText(), name.line);
    else if (holds != Base::Void) args[i] = numberConstant(Type{holds, 0, Base::Void, true}, nullBoxed(), name.line);
  }
  std::vector<Type> a;
  for (const auto& e : args) a.push_back(e->type());
  const std::string& m = name.text;
  const int line = name.line;
  Call call = [&](Type result, NativeFn fn) {
    std::vector<ExprPtr> all;
    all.push_back(std::move(target));
    for (auto& e : args) all.push_back(std::move(e));
    return nativeCall(result, std::move(all), std::move(fn), line);
  };
  auto arity = [&](std::size_t n) { return a.size() == n; };
  auto unknown = [&](const std::string& have) -> ExprPtr {
    errorAt(name, "unknown method '" + m + "' with " + std::to_string(a.size()) + " argument(s) of " + typeName(t) + " (the subset has " + have + ")");
  };
  if (t.isString()) {
    if (m == "length" && arity(0)) return call(scalar(Base::Int), [](Exec&, std::vector<Value>& v, int l) { return num(static_cast<double>(text(v[0], l).size())); });
    if (m == "isEmpty" && arity(0)) return call(scalar(Base::Boolean), [](Exec&, std::vector<Value>& v, int l) { return flag(text(v[0], l).empty()); });
    if (m == "isBlank" && arity(0)) return call(scalar(Base::Boolean), [](Exec&, std::vector<Value>& v, int l) { return flag(trimText(text(v[0], l)).empty()); });
    if (m == "charAt" && arity(1) && isInt(a[0])) {
      return call(scalar(Base::Char), [](Exec&, std::vector<Value>& v, int l) {
        const std::string& s = text(v[0], l);
        return num(static_cast<unsigned char>(s[textIndex(s, v[1].number, l)]));
      });
    }
    if (m == "substring" && (arity(1) || arity(2)) && isInt(a[0]) && (a.size() == 1 || isInt(a[1]))) {
      const bool toEnd = a.size() == 1;
      return call(stringType(), [toEnd](Exec&, std::vector<Value>& v, int l) {
        const std::string& s = text(v[0], l);
        const double end = toEnd ? static_cast<double>(s.size()) : v[2].number;
        checkRange(v[1].number, end, s.size(), l);
        return txt(s.substr(static_cast<std::size_t>(v[1].number), static_cast<std::size_t>(end - v[1].number)));
      });
    }
    if ((m == "indexOf" || m == "lastIndexOf") && (arity(1) || arity(2)) && isCharOrText(a[0]) && (a.size() == 1 || isInt(a[1]))) {
      const bool last = m == "lastIndexOf";
      const bool from = a.size() == 2;
      const Type needle = a[0];
      return call(scalar(Base::Int), [=](Exec&, std::vector<Value>& v, int l) {
        return num(findText(text(v[0], l), charOrText(needle, v[1], l), from ? v[2].number : (last ? 1e15 : 0.0), last));
      });
    }
    if ((m == "contains" || m == "startsWith" || m == "endsWith") && arity(1) && isText(a[0])) {
      const int kind = m == "contains" ? 0 : m == "startsWith" ? 1 : 2;
      return call(scalar(Base::Boolean), [kind](Exec&, std::vector<Value>& v, int l) {
        const std::string& s = text(v[0], l);
        const std::string& x = text(v[1], l);
        if (kind == 0) return flag(s.find(x) != std::string::npos);
        if (kind == 1) return flag(s.compare(0, x.size(), x) == 0);
        return flag(s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0);
      });
    }
    if (m == "equals" && arity(1)) {
      const bool comparable = isText(a[0]);
      return call(scalar(Base::Boolean), [comparable](Exec&, std::vector<Value>& v, int l) {
        return flag(comparable && text(v[0], l) == v[1].text);
      });
    }
    if (m == "equalsIgnoreCase" && arity(1) && isText(a[0])) {
      return call(scalar(Base::Boolean), [](Exec&, std::vector<Value>& v, int l) {
        return flag(!isNullText(v[1].text) && lowerText(text(v[0], l)) == lowerText(v[1].text));
      });
    }
    if ((m == "compareTo" || m == "compareToIgnoreCase") && arity(1) && isText(a[0])) {
      const bool ignore = m == "compareToIgnoreCase";
      return call(scalar(Base::Int), [ignore](Exec&, std::vector<Value>& v, int l) {
        const std::string& x = text(v[0], l);
        const std::string& y = text(v[1], l);
        return num(ignore ? compareTexts(lowerText(x), lowerText(y)) : compareTexts(x, y));
      });
    }
    if ((m == "toUpperCase" || m == "toLowerCase" || m == "trim" || m == "strip" || m == "toString" || m == "intern") && arity(0)) {
      const char kind = m == "toUpperCase" ? 'u' : m == "toLowerCase" ? 'l' : (m == "trim" || m == "strip") ? 't' : 's';
      return call(stringType(), [kind](Exec&, std::vector<Value>& v, int l) {
        const std::string& s = text(v[0], l);
        return txt(kind == 'u' ? upperText(s) : kind == 'l' ? lowerText(s) : kind == 't' ? trimText(s) : s);
      });
    }
    if (m == "replace" && arity(2) && ((isText(a[0]) && isText(a[1])) || (a[0].isChar() && a[1].isChar()))) {
      const Type from = a[0], to = a[1];
      return call(stringType(), [from, to](Exec&, std::vector<Value>& v, int l) {
        return txt(replaceAll(text(v[0], l), charOrText(from, v[1], l), charOrText(to, v[2], l)));
      });
    }
    if (m == "split" && arity(1) && isText(a[0])) {
      return call(Type{Base::String, 1}, [](Exec&, std::vector<Value>& v, int l) {
        auto parts = std::make_shared<Array>();
        parts->ofTexts = true;
        parts->texts = splitText(text(v[0], l), text(v[1], l), l);
        return obj(parts);
      });
    }
    if (m == "concat" && arity(1) && isText(a[0])) {
      return call(stringType(), [](Exec&, std::vector<Value>& v, int l) { return txt(text(v[0], l) + text(v[1], l)); });
    }
    if (m == "repeat" && arity(1) && isInt(a[0])) {
      return call(stringType(), [](Exec&, std::vector<Value>& v, int l) {
        if (v[1].number < 0) fail("IllegalArgumentException: count is negative: " + javaText(Base::Int, v[1].number), l);
        const std::string& s = text(v[0], l);
        if (static_cast<double>(s.size()) * v[1].number > 1e8) fail("a String of more than 100000000 characters is too large", l);
        std::string out;
        for (int i = 0; i < static_cast<int>(v[1].number); ++i) out += s;
        return txt(out);
      });
    }
    if (m == "hashCode" && arity(0)) return call(scalar(Base::Int), [](Exec&, std::vector<Value>& v, int l) { return num(textHash(text(v[0], l))); });
    if (m == "toCharArray" && arity(0)) {
      return call(Type{Base::Char, 1}, [](Exec&, std::vector<Value>& v, int l) {
        auto chars = std::make_shared<Array>();
        for (char c : text(v[0], l)) chars->numbers.push_back(static_cast<unsigned char>(c));
        return obj(chars);
      });
    }
    return unknown("length, isEmpty, isBlank, charAt, substring, indexOf, lastIndexOf, contains, startsWith, endsWith, equals, "
                   "equalsIgnoreCase, compareTo, compareToIgnoreCase, toUpperCase, toLowerCase, trim, strip, replace, split, concat, "
                   "repeat, hashCode, toCharArray");
  }
  if (t.base == Base::Builder) {
    if (m == "append" && arity(1) && !a[0].isVoid()) {
      const Type value = a[0];
      return call(t, [value](Exec&, std::vector<Value>& v, int l) {
        Array& b = builderOf(v[0], l);
        b.state->text += value.isChar() ? charText(v[1].number) : valueText(value, v[1]);
        if (b.state->text.size() > 100'000'000) fail("a StringBuilder of more than 100000000 characters is too large", l);
        return v[0];
      });
    }
    if (m == "insert" && arity(2) && isInt(a[0]) && !a[1].isVoid()) {
      const Type value = a[1];
      return call(t, [value](Exec&, std::vector<Value>& v, int l) {
        Array& b = builderOf(v[0], l);
        if (v[1].number < 0 || v[1].number > static_cast<double>(b.state->text.size())) {
          fail("StringIndexOutOfBoundsException: offset " + javaText(Base::Int, v[1].number) + ", length " + std::to_string(b.state->text.size()), l);
        }
        b.state->text.insert(static_cast<std::size_t>(v[1].number), value.isChar() ? charText(v[2].number) : valueText(value, v[2]));
        return v[0];
      });
    }
    if (m == "toString" && arity(0)) return call(stringType(), [](Exec&, std::vector<Value>& v, int l) { return txt(builderOf(v[0], l).state->text); });
    if (m == "length" && arity(0)) return call(scalar(Base::Int), [](Exec&, std::vector<Value>& v, int l) { return num(static_cast<double>(builderOf(v[0], l).state->text.size())); });
    if (m == "isEmpty" && arity(0)) return call(scalar(Base::Boolean), [](Exec&, std::vector<Value>& v, int l) { return flag(builderOf(v[0], l).state->text.empty()); });
    if (m == "charAt" && arity(1) && isInt(a[0])) {
      return call(scalar(Base::Char), [](Exec&, std::vector<Value>& v, int l) {
        const std::string& s = builderOf(v[0], l).state->text;
        return num(static_cast<unsigned char>(s[textIndex(s, v[1].number, l)]));
      });
    }
    if (m == "reverse" && arity(0)) {
      return call(t, [](Exec&, std::vector<Value>& v, int l) {
        std::string& s = builderOf(v[0], l).state->text;
        std::reverse(s.begin(), s.end());
        return v[0];
      });
    }
    if (m == "setLength" && arity(1) && isInt(a[0])) {
      return call(scalar(Base::Void), [](Exec&, std::vector<Value>& v, int l) {
        if (v[1].number < 0) fail("StringIndexOutOfBoundsException: String index out of range: " + javaText(Base::Int, v[1].number), l);
        builderOf(v[0], l).state->text.resize(static_cast<std::size_t>(v[1].number), '\0');
        return Value{};
      });
    }
    if ((m == "deleteCharAt" && arity(1) && isInt(a[0])) || (m == "delete" && arity(2) && isInt(a[0]) && isInt(a[1]))) {
      const bool one = m == "deleteCharAt";
      return call(t, [one](Exec&, std::vector<Value>& v, int l) {
        std::string& s = builderOf(v[0], l).state->text;
        if (one) {
          s.erase(textIndex(s, v[1].number, l), 1);
        } else {
          const double end = std::min(v[2].number, static_cast<double>(s.size()));
          if (v[1].number < 0 || v[1].number > end) checkRange(v[1].number, v[2].number, s.size(), l);
          s.erase(static_cast<std::size_t>(v[1].number), static_cast<std::size_t>(end - v[1].number));
        }
        return v[0];
      });
    }
    if (m == "setCharAt" && arity(2) && isInt(a[0]) && a[1].isChar()) {
      return call(scalar(Base::Void), [](Exec&, std::vector<Value>& v, int l) {
        std::string& s = builderOf(v[0], l).state->text;
        s[textIndex(s, v[1].number, l)] = static_cast<char>(v[2].number);
        return Value{};
      });
    }
    if (m == "indexOf" && arity(1) && isText(a[0])) {
      return call(scalar(Base::Int), [](Exec&, std::vector<Value>& v, int l) { return num(findText(builderOf(v[0], l).state->text, text(v[1], l), 0, false)); });
    }
    return unknown("append, insert, toString, length, isEmpty, charAt, reverse, setLength, deleteCharAt, delete, setCharAt, indexOf");
  }
  if (t.base == Base::Exception) {
    if ((m == "getMessage" || m == "getLocalizedMessage") && arity(0)) {
      return call(stringType(), [](Exec&, std::vector<Value>& v, int l) {
        const Array& e = object(v[0], "exception", l);
        return txt(e.state->hasText ? e.state->text : nullText());
      });
    }
    if (m == "toString" && arity(0)) return call(stringType(), [t](Exec&, std::vector<Value>& v, int) { return txt(objectText(t, v[0].ref)); });
    if (m == "printStackTrace" && arity(0)) {
      // Printed with the code's other output (as System.err is): the exception's line.
      return call(scalar(Base::Void), [t](Exec& ex, std::vector<Value>& v, int) {
        printText(ex, objectText(t, v[0].ref), true);
        return Value{};
      });
    }
    return unknown("getMessage, getLocalizedMessage, toString, printStackTrace");
  }
  if (t.isMap()) return mapMethod(call, t, a, name);
  if (t.isList() && t.item == Base::String) return stringListMethod(call, t, a, name);
  errorAt(name, "unknown method '" + m + "' of " + typeName(t));
}

}  // namespace pesim::java
