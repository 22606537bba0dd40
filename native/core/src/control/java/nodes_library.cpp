// Library calls and objects of the Java subset (see nodes.hpp): values of any type, calls into
// the library as functions over them, boxed nulls, exception objects and the toString of objects.
#include <cstring>

#include "control/java/nodes.hpp"

namespace pesim::java {

Value evaluate(const Expr& e, Exec& ex) {
  Value v;
  const Type& t = e.type();
  if (t.isReference()) v.ref = e.array(ex);
  else if (t.isString()) v.text = e.text(ex);
  else v.number = e.number(ex);
  return v;
}

namespace {

constexpr std::uint64_t kNullBoxedBits = 0x7FF4'0000'0000'0B0DULL;

class NativeCall : public Expr {
 public:
  NativeCall(Type t, std::vector<ExprPtr> args, NativeFn fn, int line) : Expr(t, line), args_(std::move(args)), fn_(std::move(fn)) {}
  double number(Exec& ex) const override { return call(ex).number; }
  ArrayRef array(Exec& ex) const override { return call(ex).ref; }
  std::string text(Exec& ex) const override {
    if (!type().isString()) return Expr::text(ex);
    return call(ex).text;
  }

 private:
  Value call(Exec& ex) const {
    std::vector<Value> values;
    values.reserve(args_.size());
    for (const auto& a : args_) values.push_back(evaluate(*a, ex));
    return fn_(ex, values, line());
  }

  std::vector<ExprPtr> args_;
  NativeFn fn_;
};

class Unbox : public Expr {
 public:
  Unbox(ExprPtr boxed, int line) : Expr(scalar(boxed->type().base), line), boxed_(std::move(boxed)) {}
  double number(Exec& ex) const override {
    const double v = boxed_->number(ex);
    if (isNullBoxed(v)) fail("NullPointerException: the " + typeName(boxed_->type()) + " value is null", line());
    return v;
  }

 private:
  ExprPtr boxed_;
};

}  // namespace

ExprPtr nativeCall(Type result, std::vector<ExprPtr> arguments, NativeFn fn, int line) {
  return std::make_unique<NativeCall>(result, std::move(arguments), std::move(fn), line);
}

double nullBoxed() {
  double v;
  std::memcpy(&v, &kNullBoxedBits, sizeof v);
  return v;
}

bool isNullBoxed(double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof v);
  return bits == kNullBoxedBits;
}

ExprPtr unbox(ExprPtr boxed, int line) {
  if (!boxed->type().boxed) return boxed;
  return std::make_unique<Unbox>(std::move(boxed), line);
}

ArrayRef exceptionObject(const std::string& className, std::string text, bool hasText) {
  auto e = std::make_shared<Array>();
  e->state = std::make_shared<ObjectState>();
  e->state->className = className;
  e->state->text = std::move(text);
  e->state->hasText = hasText;
  return e;
}

std::string elementText(const Array& list, Base item, std::size_t i) {
  if (item == Base::String) return shownText(list.texts[i]);
  if (isNullBoxed(list.numbers[i])) return "null";
  return javaText(item, list.numbers[i]);
}

std::string valueText(const Type& t, const Value& v) {
  if (t.isArray()) return v.ref ? typeName(t) + " of length " + std::to_string(v.ref->length()) : "null";
  if (t.isReference()) return objectText(t, v.ref);
  if (t.isString()) return shownText(v.text);
  if (t.boxed && isNullBoxed(v.number)) return "null";
  return javaText(t.base, v.number);
}

std::string objectText(const Type& type, const ArrayRef& object) {
  if (!object) return "null";
  const Array& o = *object;
  switch (type.base) {
    case Base::Builder: return o.state->text;
    case Base::Exception: return qualifiedException(o.state->className) + (o.state->hasText ? ": " + o.state->text : "");
    case Base::List: {
      std::string s = "[";
      for (std::size_t i = 0; i < o.length(); ++i) s += (i > 0 ? ", " : "") + elementText(o, type.item, i);
      return s + "]";
    }
    case Base::Map: {
      std::string s = "{";
      bool first = true;
      for (std::size_t i : mapOrder(o, type.key)) {
        s += (first ? "" : ", ") + elementText(*o.state->keys, type.key, i) + "=" + elementText(*o.state->values, type.item, i);
        first = false;
      }
      return s + "}";
    }
    default: return "null";
  }
}

}  // namespace pesim::java
