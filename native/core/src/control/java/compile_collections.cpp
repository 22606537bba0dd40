// Java block compiler: the methods of maps (HashMap, LinkedHashMap, TreeMap) and of lists of
// Strings (see objects.hpp for their run-time side; lists of numbers: compile_lists.cpp).
#include "control/java/library_values.hpp"

namespace pesim::java {

using namespace library;  // NOLINT: the helpers of the library part

ExprPtr Compiler::mapMethod(const Call& call, const Type& t, const std::vector<Type>& a, const Token& name) {
  const std::string& m = name.text;
  const Base key = t.key, item = t.item;
  auto fitsKey = [&](const Type& x) { return key == Base::String ? x.isString() : x.dims == 0 && x.base == key && !x.isString(); };
  auto fitsValue = [&](const Type& x) { return item == Base::String ? x.isString() : x.dims == 0 && x.base == item; };
  const std::string keyName = typeName(t.keyType()), valueName = typeName(t.itemType());
  if ((m == "put" || m == "putIfAbsent") && a.size() == 2) {
    if (!fitsKey(a[0]) || !fitsValue(a[1])) errorAt(name, typeName(t) + "." + m + " takes a " + keyName + " key and a " + valueName + " value");
    const bool ifAbsent = m == "putIfAbsent";
    return call(t.itemType(), [key, item, ifAbsent](Exec&, std::vector<Value>& v, int l) {
      Array& o = mapOf(v[0], l);
      if (ifAbsent) {
        const long at = mapFind(o, key, v[1]);
        if (at >= 0) {
          Value old = elementAt(*o.state->values, item, static_cast<std::size_t>(at));
          const bool null = item == Base::String ? isNullText(old.text) : isNullBoxed(old.number);
          if (!null) return old;
        }
      }
      return mapPut(o, key, item, v[1], v[2], l);
    });
  }
  if ((m == "get" || m == "containsKey" || m == "remove") && a.size() == 1) {
    if (!fitsKey(a[0])) errorAt(name, typeName(t) + "." + m + " needs a " + keyName + " key, not " + typeName(a[0]) + " (another type never equals a key)");
    if (m == "containsKey") return call(scalar(Base::Boolean), [key](Exec&, std::vector<Value>& v, int l) { return flag(mapFind(mapOf(v[0], l), key, v[1]) >= 0); });
    if (m == "remove") return call(t.itemType(), [key, item](Exec&, std::vector<Value>& v, int l) { return mapRemove(mapOf(v[0], l), key, item, v[1]); });
    return call(t.itemType(), [key, item](Exec&, std::vector<Value>& v, int l) {
      Array& o = mapOf(v[0], l);
      const long at = mapFind(o, key, v[1]);
      return at < 0 ? nullValue(item) : elementAt(*o.state->values, item, static_cast<std::size_t>(at));
    });
  }
  if (m == "getOrDefault" && a.size() == 2) {
    if (!fitsKey(a[0]) || !fitsValue(a[1])) errorAt(name, typeName(t) + ".getOrDefault takes a " + keyName + " key and a " + valueName + " value");
    return call(t.itemType(), [key, item](Exec&, std::vector<Value>& v, int l) {
      Array& o = mapOf(v[0], l);
      const long at = mapFind(o, key, v[1]);
      return at < 0 ? v[2] : elementAt(*o.state->values, item, static_cast<std::size_t>(at));
    });
  }
  if (m == "containsValue" && a.size() == 1 && fitsValue(a[0])) {
    return call(scalar(Base::Boolean), [item](Exec&, std::vector<Value>& v, int l) { return flag(findElement(*mapOf(v[0], l).state->values, item, v[1], false) >= 0); });
  }
  if (m == "size" && a.empty()) return call(scalar(Base::Int), [](Exec&, std::vector<Value>& v, int l) { return num(static_cast<double>(mapOf(v[0], l).state->keys->length())); });
  if (m == "isEmpty" && a.empty()) return call(scalar(Base::Boolean), [](Exec&, std::vector<Value>& v, int l) { return flag(mapOf(v[0], l).state->keys->length() == 0); });
  if (m == "clear" && a.empty()) {
    return call(scalar(Base::Void), [](Exec&, std::vector<Value>& v, int l) {
      mapClear(mapOf(v[0], l));
      return Value{};
    });
  }
  if ((m == "keySet" || m == "values") && a.empty()) {
    // A copy in the map's iteration order (the subset has no Set or Collection views).
    const bool keys = m == "keySet";
    return call(Type{Base::List, 0, keys ? key : item}, [key, item, keys](Exec&, std::vector<Value>& v, int l) {
      Array& o = mapOf(v[0], l);
      const Base kind = keys ? key : item;
      const Array& from = keys ? *o.state->keys : *o.state->values;
      ArrayRef list = newListOf(kind);
      for (std::size_t i : mapOrder(o, key)) insertElement(*list, kind, list->length(), elementAt(from, kind, i), l);
      return obj(list);
    });
  }
  if (m == "toString" && a.empty()) return call(stringType(), [t](Exec&, std::vector<Value>& v, int) { return txt(objectText(t, v[0].ref)); });
  errorAt(name, "unknown method '" + m + "' with " + std::to_string(a.size()) + " argument(s) of " + typeName(t) +
                    " (the subset has put, putIfAbsent, get, getOrDefault, containsKey, containsValue, remove, size, isEmpty, clear, keySet, values)");
}

ExprPtr Compiler::stringListMethod(const Call& call, const Type& t, const std::vector<Type>& a, const Token& name) {
  const std::string& m = name.text;
  auto index = [](const Array& o, double i, int l) {
    if (i < 0 || i >= static_cast<double>(o.texts.size())) {
      fail("IndexOutOfBoundsException: Index " + javaText(Base::Int, i) + " out of bounds for length " + std::to_string(o.texts.size()), l);
    }
    return static_cast<std::size_t>(i);
  };
  const Base s = Base::String;
  if (m == "size" && a.empty()) return call(scalar(Base::Int), [](Exec&, std::vector<Value>& v, int l) { return num(static_cast<double>(listOf(v[0], l).texts.size())); });
  if (m == "isEmpty" && a.empty()) return call(scalar(Base::Boolean), [](Exec&, std::vector<Value>& v, int l) { return flag(listOf(v[0], l).texts.empty()); });
  if (m == "get" && a.size() == 1 && isInt(a[0])) {
    return call(stringType(), [=](Exec&, std::vector<Value>& v, int l) { Array& o = listOf(v[0], l); return txt(o.texts[index(o, v[1].number, l)]); });
  }
  if (m == "set" && a.size() == 2 && isInt(a[0]) && isText(a[1])) {
    return call(stringType(), [=](Exec&, std::vector<Value>& v, int l) {
      Array& o = listOf(v[0], l);
      const std::size_t i = index(o, v[1].number, l);
      std::string old = o.texts[i];
      o.texts[i] = v[2].text;
      return txt(old);
    });
  }
  if (m == "add" && a.size() == 1 && isText(a[0])) {
    return call(scalar(Base::Boolean), [=](Exec&, std::vector<Value>& v, int l) { Array& o = listOf(v[0], l); insertElement(o, s, o.texts.size(), v[1], l); return flag(true); });
  }
  if (m == "add" && a.size() == 2 && isInt(a[0]) && isText(a[1])) {
    return call(scalar(Base::Void), [=](Exec&, std::vector<Value>& v, int l) {
      Array& o = listOf(v[0], l);
      if (v[1].number < 0 || v[1].number > static_cast<double>(o.texts.size())) {
        fail("IndexOutOfBoundsException: Index: " + javaText(Base::Int, v[1].number) + ", Size: " + std::to_string(o.texts.size()), l);
      }
      insertElement(o, s, static_cast<std::size_t>(v[1].number), v[2], l);
      return Value{};
    });
  }
  if (m == "remove" && a.size() == 1 && isInt(a[0])) {
    return call(stringType(), [=](Exec&, std::vector<Value>& v, int l) {
      Array& o = listOf(v[0], l);
      const std::size_t i = index(o, v[1].number, l);
      std::string old = o.texts[i];
      eraseElement(o, s, i);
      return txt(old);
    });
  }
  if ((m == "remove" || m == "contains" || m == "indexOf" || m == "lastIndexOf") && a.size() == 1) {
    const bool comparable = isText(a[0]);
    const char kind = m == "remove" ? 'r' : m == "contains" ? 'c' : m == "indexOf" ? 'i' : 'l';
    return call(kind == 'i' || kind == 'l' ? scalar(Base::Int) : scalar(Base::Boolean), [=](Exec&, std::vector<Value>& v, int l) {
      Array& o = listOf(v[0], l);
      const long at = comparable ? findElement(o, s, v[1], kind == 'l') : -1;
      if (kind == 'i' || kind == 'l') return num(static_cast<double>(at));
      if (kind == 'r' && at >= 0) eraseElement(o, s, static_cast<std::size_t>(at));
      return flag(at >= 0);
    });
  }
  if (m == "clear" && a.empty()) {
    return call(scalar(Base::Void), [](Exec&, std::vector<Value>& v, int l) { Array& o = listOf(v[0], l); o.texts.clear(); ++o.modCount; return Value{}; });
  }
  if (m == "toString" && a.empty()) return call(stringType(), [t](Exec&, std::vector<Value>& v, int) { return txt(objectText(t, v[0].ref)); });
  errorAt(name, "unknown method '" + m + "' with " + std::to_string(a.size()) + " argument(s) of " + typeName(t) +
                    " (the subset has size, isEmpty, get, set, add, remove, clear, contains, indexOf, lastIndexOf)");
}

}  // namespace pesim::java
