// Java block compiler: java.util lists and boxed values (see nodes_lists.cpp for their run-time
// semantics). Types are checked as javac checks them: an element stored into a list must box to
// the list's class (a double into a List<Double>, never an int), remove(int) removes by index and
// remove(x) of any other type by value, a for-each variable takes the unboxed element by widening
// (an Integer into a double, not a Double into an int).
#include "control/java/compiler_state.hpp"

namespace pesim::java {

namespace {

struct ListMethod {
  const char* name;
  std::size_t arity;
  ListOp op;
};

constexpr ListMethod kListMethods[] = {
    {"size", 0, ListOp::Size},         {"isEmpty", 0, ListOp::IsEmpty},       {"get", 1, ListOp::Get},
    {"set", 2, ListOp::Set},           {"add", 1, ListOp::Add},               {"add", 2, ListOp::Insert},
    {"remove", 1, ListOp::RemoveAt},   {"clear", 0, ListOp::Clear},           {"contains", 1, ListOp::Contains},
    {"indexOf", 1, ListOp::IndexOf},   {"lastIndexOf", 1, ListOp::LastIndexOf},
};

// An int (or short, byte, char): remove(x) of it removes by index.
bool isIndex(const Type& t) { return t.dims == 0 && t.base == Base::Int && !t.boxed; }

}  // namespace

ExprPtr Compiler::listElement(ExprPtr value, Base item, const Token& at) {
  const Type& t = value->type();
  if (t.dims != 0 || t.base != item) {
    errorAt(at, "a " + typeName(Type{Base::List, 0, item}) + " holds " + typeName(Type{item, 0, Base::Void, true}) + " values, not " + typeName(t) +
                    (t.isNumeric() && Type{item, 0}.isNumeric() ? " (write the number as a " + typeName(Type{item, 0}) + ")" : ""));
  }
  return value;
}

ExprPtr Compiler::listMethod(ExprPtr list, const Token& name) {
  std::vector<ExprPtr> args = arguments();
  const ListMethod* method = nullptr;
  bool known = false;
  for (const auto& m : kListMethods) {
    if (name.text != m.name) continue;
    known = true;
    if (m.arity == args.size()) method = &m;
  }
  const std::string listType = typeName(list->type());
  if (!known) {
    errorAt(name, "unknown method '" + name.text + "' of " + listType +
                      " (Java blocks have size, isEmpty, get, set, add, remove, clear, contains, indexOf, lastIndexOf)");
  }
  if (!method) errorAt(name, listType + "." + name.text + " takes no " + std::to_string(args.size()) + " argument(s) here");
  const Base item = list->type().item;
  ListOp op = method->op;
  const bool element = op == ListOp::Add || op == ListOp::Set || op == ListOp::Insert || op == ListOp::Get || op == ListOp::RemoveAt;
  if (element && item == Base::Void) errorAt(name, "the element type of this list is not known here: give it, e.g. ArrayList<Double>");
  // remove(int) removes by index, remove(Object) by value (Java's overload resolution).
  if (op == ListOp::RemoveAt && !isIndex(args[0]->type())) op = ListOp::RemoveValue;
  const bool indexed = op == ListOp::Get || op == ListOp::Set || op == ListOp::Insert || op == ListOp::RemoveAt;
  if (indexed && !(args[0]->type().dims == 0 && args[0]->type().base == Base::Int)) {
    errorAt(name, listType + "." + name.text + " needs an int index, not " + typeName(args[0]->type()));
  }
  if (op == ListOp::Add) args[0] = listElement(std::move(args[0]), item, name);
  if (op == ListOp::Set || op == ListOp::Insert) args[1] = listElement(std::move(args[1]), item, name);
  for (const auto& a : args) {
    if (a->type().isVoid()) errorAt(name, "a void value cannot be an argument of " + listType + "." + name.text);
  }
  Type result = scalar(Base::Boolean);
  switch (op) {
    case ListOp::Size:
    case ListOp::IndexOf:
    case ListOp::LastIndexOf: result = scalar(Base::Int); break;
    case ListOp::Get:
    case ListOp::Set:
    case ListOp::RemoveAt: result = list->type().itemType(); break;
    case ListOp::Insert:
    case ListOp::Clear: result = scalar(Base::Void); break;
    default: break;
  }
  return listCall(op, std::move(list), std::move(args), result, name.line);
}

ExprPtr Compiler::newListExpr(Type type, const Token& at) {
  std::vector<ExprPtr> args = arguments();
  if (args.size() > 1) errorAt(at, "new " + typeName(type) + " takes no argument, an initial capacity or a list to copy");
  ExprPtr source = args.empty() ? nullptr : std::move(args[0]);
  if (source && !source->type().isIntegral() && !source->type().isList()) {
    errorAt(at, "new " + typeName(type) + " takes an initial capacity (int) or a list to copy, not " + typeName(source->type()));
  }
  if (source && source->type().isList() && type.item != Base::Void && source->type().item != type.item) {
    errorAt(at, "a " + typeName(type) + " cannot copy a " + typeName(source->type()));
  }
  if (source && source->type().isList() && type.item == Base::Void) type.item = source->type().item;
  return newList(type, std::move(source), at.line);
}

// x.doubleValue(), x.intValue(), ...: the boxed number as that primitive (a cast, as the JDK's).
ExprPtr Compiler::boxedValue(ExprPtr boxed, const Token& name) {
  std::vector<ExprPtr> args = arguments();
  static const struct { const char* name; Base to; } kValues[] = {
      {"doubleValue", Base::Double}, {"floatValue", Base::Float}, {"longValue", Base::Long}, {"intValue", Base::Int},
      {"booleanValue", Base::Boolean}};
  for (const auto& v : kValues) {
    if (name.text != v.name || !args.empty()) continue;
    if ((v.to == Base::Boolean) != boxed->type().isBoolean()) break;
    return cast(v.to, std::move(boxed), name.line);
  }
  errorAt(name, "unknown method '" + name.text + "' of " + typeName(boxed->type()) + " (Java blocks have doubleValue(), intValue(), ...)");
}

// Double.valueOf(x), Integer.valueOf(i), ...: the number boxed (null when `name` is none of them).
ExprPtr Compiler::boxing(const std::string& name, std::vector<ExprPtr>& args, const Token& at) {
  static const struct { const char* name; Base to; } kClasses[] = {
      {"Double.valueOf", Base::Double}, {"Float.valueOf", Base::Float}, {"Long.valueOf", Base::Long},
      {"Integer.valueOf", Base::Int},   {"Boolean.valueOf", Base::Boolean}};
  for (const auto& c : kClasses) {
    if (name != c.name) continue;
    const Type from = args.size() == 1 ? args[0]->type() : Type{};
    // Method invocation widens the argument (Double.valueOf(1) is 1.0) but does not narrow it.
    const bool fits = c.to == Base::Boolean ? from.isBoolean() : from.isNumeric() && promote(from.base, c.to) == c.to;
    if (!fits) errorAt(at, name + " takes one " + typeName(Type{c.to, 0}) + " value");
    return box(cast(c.to, std::move(args[0]), at.line), at.line);
  }
  return nullptr;
}

StmtPtr Compiler::forEachList(const Type& variable, const Token& at, ExprPtr list) {
  const Base item = list->type().item;
  const bool fits = variable.boxed ? variable.base == item
                    : Type{item, 0}.isBoolean() ? variable.isBoolean()
                                                : variable.isNumeric() && item != Base::Void && promote(item, variable.base) == variable.base;
  if (variable.isReference() || variable.isString() || !fits) {
    errorAt(at, "a for-each loop over " + typeName(list->type()) + " needs a variable of type " + typeName(list->type().itemType()) +
                    " or a primitive it widens to, not " + typeName(variable));
  }
  Variable v = declare(at.text, variable, at);
  ExprPtr var = variableExpr(v, at.line);
  StmtPtr body = loopBody();
  std::unique_ptr<NumberTarget> target(static_cast<NumberTarget*>(var.release()));
  return forEachListStatement(std::move(target), std::move(list), std::move(body), at.line);
}

}  // namespace pesim::java
