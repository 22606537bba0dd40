// Java block compiler: expressions (JLS §15), by precedence climbing. Types are checked as javac
// would for the supported subset, except that assignments narrow numbers without an explicit
// cast (a value javac accepts behaves the same). Constant operands are folded.
#include <algorithm>

#include "control/java/builtins.hpp"
#include "control/java/compiler_state.hpp"

namespace pesim::java {

namespace {

// Replaces an expression whose operands are all constants by its value (not if it fails, e.g. 1/0).
ExprPtr fold(ExprPtr e, bool operandsConstant) {
  if (!operandsConstant || (!e->type().isNumeric() && !e->type().isBoolean())) return e;
  try {
    Exec none;
    double v = e->number(none);
    return numberConstant(e->type(), v, e->line());
  } catch (const CodeFailure&) {
    return e;
  }
}

template <class Target>
std::unique_ptr<Target> asTarget(ExprPtr& e) {
  auto* t = dynamic_cast<Target*>(e.get());
  if (!t) return nullptr;
  e.release();
  return std::unique_ptr<Target>(t);
}

const char* const kLevels[][4] = {
    {"||", nullptr}, {"&&", nullptr}, {"|", nullptr}, {"^", nullptr}, {"&", nullptr}, {"==", "!=", nullptr},
    {"<", ">", "<=", ">="}, {"<<", ">>", ">>>", nullptr}, {"+", "-", nullptr}, {"*", "/", "%", nullptr}};
constexpr int kLevelCount = 10;

bool isAssignmentOp(const Token& t) {
  static const char* const kOps[] = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>="};
  if (t.kind != Tok::Op) return false;
  for (const char* o : kOps) if (t.text == o) return true;
  return false;
}

// `x == null` / `x != null` of a String or a boxed value (the others compare references); null if
// the operands are not such a test.
ExprPtr nullTest(const std::string& o, ExprPtr& left, ExprPtr& right, int line) {
  auto isNull = [](const Type& x) { return x.base == Base::Void && x.dims == 1; };
  if ((o != "==" && o != "!=") || (!isNull(left->type()) && !isNull(right->type()))) return nullptr;
  ExprPtr& other = isNull(left->type()) ? right : left;
  const Type ot = other->type();
  if (!ot.isString() && !ot.boxed) return nullptr;
  const bool equal = o == "==";
  std::vector<ExprPtr> operand;
  operand.push_back(std::move(other));
  return nativeCall(scalar(Base::Boolean), std::move(operand), [ot, equal](Exec&, std::vector<Value>& v, int) {
    const bool null = ot.isString() ? isNullText(v[0].text) : isNullBoxed(v[0].number);
    Value r;
    r.number = null == equal ? 1.0 : 0.0;
    return r;
  }, line);
}

}  // namespace

ExprPtr Compiler::expression() {
  Nesting nesting(*this);
  return assignment();
}

ExprPtr Compiler::condition(const char* what) {
  Token at = peek();
  ExprPtr c = expression();
  if (!c->type().isBoolean()) errorAt(at, std::string(what) + " must be a boolean, not " + typeName(c->type()));
  return c;
}

ExprPtr Compiler::convert(ExprPtr value, Type to, const Token& at, const char* what) {
  const Type& from = value->type();
  const bool null = from.base == Base::Void && from.dims == 1;
  if (to.boxed && null) return numberConstant(to, nullBoxed(), value->line());
  // A boxed variable takes a value of its own type (javac boxes no int into a Double).
  if (to.boxed && from.base != to.base) errorAt(at, std::string(what) + " must be " + typeName(to) + ", not " + typeName(from));
  if (to.isString() && null) return stringConstant(nullText(), value->line());
  if (from.boxed && !to.boxed && (to.isNumeric() || to.isBoolean())) value = unbox(std::move(value), at.line);
  bool ok = to.isArray()   ? from == to || null
            : to.isList()  ? (from.isList() && (from.item == to.item || from.item == Base::Void)) || null
            : to.isMap()   ? (from.isMap() && ((from.item == to.item && from.key == to.key) || from.item == Base::Void)) || null
            : to.isObject() ? from.base == to.base || null
            : to.isNumeric() ? from.isNumeric()
            : to.isBoolean() ? from.isBoolean()
            : to.isString()  ? from.isString()
                             : false;
  if (!ok) errorAt(at, std::string(what) + " must be " + typeName(to) + ", not " + typeName(from));
  return value;
}

ExprPtr Compiler::variableExpr(const Variable& v, int line) {
  if (v.type.isString()) return v.field ? ExprPtr(fieldString(v.slot, line)) : ExprPtr(localString(v.slot, line));
  if (v.field) {
    if (v.type.isReference()) return fieldArray(v.type, v.slot, line);
    return fieldNumber(v.type, v.slot, line);
  }
  if (v.type.isReference()) {
    // Counted for the lowering's proof that a local table is only read (bytecode.cpp).
    if (method_ != nullptr) {
      std::vector<int>& mentions = method_->arrayMentions;
      if (mentions.size() <= static_cast<std::size_t>(v.slot)) mentions.resize(static_cast<std::size_t>(v.slot) + 1, 0);
      ++mentions[static_cast<std::size_t>(v.slot)];
    }
    return localArray(v.type, v.slot, line);
  }
  return localNumber(v.type, v.slot, line);
}

ExprPtr Compiler::assignment() {
  ExprPtr left = ternary();
  if (!isAssignmentOp(peek())) return left;
  Token opToken = next();
  const std::string& op = opToken.text;
  int line = opToken.line;
  Token valueAt = peek();
  ExprPtr value = assignment();
  if (left->type().isString()) {
    auto target = asTarget<StringTarget>(left);
    if (!target || (op != "=" && op != "+=")) errorAt(opToken, "only '=' and '+=' assign to a String variable");
    if (op == "=") value = convert(std::move(value), target->type(), valueAt, "the assigned value");
    else if (value->type().isVoid()) errorAt(valueAt, "cannot append a void value");
    return assignString(std::move(target), std::move(value), op == "+=", line);
  }
  if (left->type().isReference()) {
    auto target = asTarget<ArrayTarget>(left);
    if (!target || op != "=") errorAt(opToken, "cannot assign to this expression");
    value = convert(std::move(value), target->type(), valueAt, "the assigned value");
    return assignArray(std::move(target), std::move(value), line);
  }
  auto target = asTarget<NumberTarget>(left);
  if (!target) errorAt(opToken, "the left side of '" + op + "' must be a variable or an array element");
  Type t = target->type();
  Base operation = t.base;
  if (op == "=") {
    value = convert(std::move(value), t, valueAt, "the assigned value");
  } else if (t.isBoolean()) {
    if (op != "&=" && op != "|=" && op != "^=") errorAt(opToken, "'" + op + "' does not apply to a boolean");
    value = convert(std::move(value), t, valueAt, "the value");
    operation = Base::Boolean;
  } else {
    if (!value->type().isNumeric()) errorAt(valueAt, "the value of '" + op + "' must be a number, not " + typeName(value->type()));
    bool bitwise = op == "&=" || op == "|=" || op == "^=" || op == "<<=" || op == ">>=" || op == ">>>=";
    if (bitwise && (!t.isIntegral() || !value->type().isIntegral())) errorAt(opToken, "'" + op + "' needs integer operands");
    bool shift = op == "<<=" || op == ">>=" || op == ">>>=";
    operation = shift ? promote(t.base, Base::Int) : promote(t.base, value->type().base);
  }
  return assignNumber(std::move(target), op, std::move(value), operation, line);
}

ExprPtr Compiler::ternary() {
  ExprPtr c = binaryLevel(0);
  if (!isOp("?")) return c;
  Token q = next();
  if (!c->type().isBoolean()) errorAt(q, "the condition of '?:' must be a boolean, not " + typeName(c->type()));
  ExprPtr a = assignment();
  expect(":", "in the conditional expression");
  Token at = peek();
  ExprPtr b = ternary();
  Type t;
  if (a->type().isChar() && b->type().isChar()) t = scalar(Base::Char);
  else if (a->type().isNumeric() && b->type().isNumeric()) t = scalar(promote(a->type().base, b->type().base));
  else if (a->type() == b->type()) t = a->type();
  else if (a->type().isString() || b->type().isString()) t = scalar(Base::String);
  else errorAt(at, "the two branches of '?:' have different types: " + typeName(a->type()) + " and " + typeName(b->type()));
  return conditional(std::move(c), std::move(a), std::move(b), t, q.line);
}

ExprPtr Compiler::binaryLevel(int level) {
  if (level == kLevelCount) return unaryExpr();
  ExprPtr left = binaryLevel(level + 1);
  for (;;) {
    const Token& t = peek();
    if (t.kind != Tok::Op) return left;
    const char* op = nullptr;
    for (const char* o : kLevels[level]) {
      if (o && t.text == o) op = o;
    }
    if (!op) return left;
    Token opToken = next();
    std::string o = op;
    ExprPtr right = binaryLevel(level + 1);
    if (ExprPtr test = nullTest(o, left, right, opToken.line)) {
      left = std::move(test);
      continue;
    }
    if ((o == "==" || o == "!=") && left->type().isString() && right->type().isString()) {
      errorAt(opToken, "'" + o + "' on two Strings compares references in Java, not their text; use equals (a.equals(b))");
    }
    const bool comparesBoxes = (o == "==" || o == "!=") && left->type().boxed && right->type().boxed;
    if (!comparesBoxes && o != "+") {
      if (left->type().boxed) left = unbox(std::move(left), opToken.line);
      if (right->type().boxed) right = unbox(std::move(right), opToken.line);
    } else if (o == "+" && !left->type().isString() && !right->type().isString()) {
      if (left->type().boxed) left = unbox(std::move(left), opToken.line);
      if (right->type().boxed) right = unbox(std::move(right), opToken.line);
    }
    const Type& a = left->type();
    const Type& b = right->type();
    int line = opToken.line;
    bool constant = left->constant() && right->constant();
    auto mismatch = [&]() {
      errorAt(opToken, "'" + o + "' does not apply to " + typeName(a) + " and " + typeName(b));
    };
    if (o == "||" || o == "&&") {
      if (!a.isBoolean() || !b.isBoolean()) mismatch();
      left = fold(logical(o == "&&", std::move(left), std::move(right), line), constant);
    } else if (o == "+" && (a.isString() || b.isString())) {
      if (a.isVoid() || b.isVoid()) mismatch();
      std::vector<ExprPtr> parts;
      parts.push_back(std::move(left));
      parts.push_back(std::move(right));
      left = concat(std::move(parts), line);
    } else if (o == "&" || o == "|" || o == "^") {
      if (a.isBoolean() && b.isBoolean()) left = fold(binary(o, std::move(left), std::move(right), scalar(Base::Boolean), line), constant);
      else if (a.isIntegral() && b.isIntegral()) left = fold(binary(o, std::move(left), std::move(right), scalar(promote(a.base, b.base)), line), constant);
      else mismatch();
    } else if (o == "==" || o == "!=") {
      bool arrays = (a.isReference() || a.base == Base::Void) && (b.isReference() || b.base == Base::Void) && !(a.isVoid() && b.isVoid());
      if (!(a.isNumeric() && b.isNumeric()) && !(a.isBoolean() && b.isBoolean()) && !arrays) mismatch();
      if (a.boxed && b.boxed) {
        errorAt(opToken, "'" + o + "' on two " + typeName(a) + " objects compares references in Java, not values; unbox one, e.g. (" +
                             typeName(Type{a.base, 0}) + ") x");
      }
      if (arrays && !a.isReference()) std::swap(left, right);  // null == array: the array on the left
      left = fold(binary(o, std::move(left), std::move(right), scalar(Base::Boolean), line), constant && !arrays);
    } else if (o == "<" || o == ">" || o == "<=" || o == ">=") {
      if (!a.isNumeric() || !b.isNumeric()) mismatch();
      left = fold(binary(o, std::move(left), std::move(right), scalar(Base::Boolean), line), constant);
    } else if (o == "<<" || o == ">>" || o == ">>>") {
      if (!a.isIntegral() || !b.isIntegral()) mismatch();
      left = fold(binary(o, std::move(left), std::move(right), scalar(promote(a.base, Base::Int)), line), constant);
    } else {
      if (!a.isNumeric() || !b.isNumeric()) mismatch();
      left = fold(binary(o, std::move(left), std::move(right), scalar(promote(a.base, b.base)), line), constant);
    }
  }
}

ExprPtr Compiler::unaryExpr() {
  Nesting nesting(*this);
  const Token& t = peek();
  if (t.kind == Tok::Op && (t.text == "++" || t.text == "--")) {
    Token opToken = next();
    ExprPtr e = unaryExpr();
    auto target = asTarget<NumberTarget>(e);
    if (!target || !target->type().isNumeric()) errorAt(opToken, "'" + opToken.text + "' needs a numeric variable or array element");
    return increment(std::move(target), opToken.text == "++" ? 1.0 : -1.0, true, opToken.line);
  }
  if (t.kind == Tok::Op && (t.text == "-" || t.text == "+" || t.text == "!" || t.text == "~")) {
    Token opToken = next();
    ExprPtr e = unaryExpr();
    if (e->type().boxed) e = unbox(std::move(e), opToken.line);
    const Type& type = e->type();
    bool constant = e->constant();
    if (opToken.text == "!") {
      if (!type.isBoolean()) errorAt(opToken, "'!' needs a boolean, not " + typeName(type));
      return fold(unary("!", std::move(e), type, opToken.line), constant);
    }
    if (opToken.text == "~" ? !type.isIntegral() : !type.isNumeric()) {
      errorAt(opToken, "'" + opToken.text + "' does not apply to " + typeName(type));
    }
    return fold(unary(opToken.text, std::move(e), scalar(promote(type.base, Base::Int)), opToken.line), constant);
  }
  // A cast: '(' primitive type ')' followed by an operand.
  if (isOp("(") && startsType(1)) {
    std::size_t save = pos_;
    Token open = next();
    Type to = parseType();
    if (accept(")")) {
      if (to.isReference() || to.isString() || to.isVoid() || to.boxed) errorAt(open, "casts to " + typeName(to) + " are not supported");
      ExprPtr e = unaryExpr();
      if (e->type().boxed) e = unbox(std::move(e), open.line);
      const Type& from = e->type();
      if (to.isBoolean() ? !from.isBoolean() : !from.isNumeric()) errorAt(open, "cannot cast " + typeName(from) + " to " + typeName(to));
      bool constant = e->constant();
      return fold(cast(to.base, std::move(e), open.line), constant);
    }
    pos_ = save;
  }
  return postfix(primary());
}

ExprPtr Compiler::postfix(ExprPtr e) {
  for (;;) {
    if (isOp("[")) {
      Token open = next();
      if (!e->type().isArray()) errorAt(open, "'[' needs an array, not " + typeName(e->type()));
      Token at = peek();
      ExprPtr index = expression();
      if (!index->type().isIntegral()) errorAt(at, "an array index must be an int, not " + typeName(index->type()));
      expect("]", "after the array index");
      if (e->type().dims > 1) e = rowElement(std::move(e), std::move(index), open.line);
      else if (e->type().base == Base::String) e = textElement(std::move(e), std::move(index), open.line);
      else e = numberElement(std::move(e), std::move(index), open.line);
    } else if (isOp(".") && isWord("length", 1) && !isOp("(", 2)) {
      Token dot = next();
      next();
      if (!e->type().isArray()) errorAt(dot, "'.length' needs an array, not " + typeName(e->type()) + (e->type().isList() ? " (a list has .size())" : ""));
      e = arrayLength(std::move(e), dot.line);
    } else if (isOp(".") && peek(1).kind == Tok::Identifier && isOp("(", 2) && e->type().isList() && e->type().item != Base::String) {
      next();
      const Token name = next();
      e = listMethod(std::move(e), name);
    } else if (isOp(".") && peek(1).kind == Tok::Identifier && isOp("(", 2) && e->type().boxed) {
      next();
      const Token name = next();
      e = boxedValue(std::move(e), name);
    } else if (isOp(".") && peek(1).kind == Tok::Identifier && isOp("(", 2) && e->type().base == Base::Writer && e->type().dims == 0) {
      next();
      const Token name = next();
      e = writerMethod(std::move(e), name);
    } else if (isOp(".") && peek(1).kind == Tok::Identifier && isOp("(", 2) && (e->type().isString() || e->type().isReference()) && !e->type().isArray()) {
      next();
      const Token name = next();
      e = objectMethod(std::move(e), name);
    } else if (isOp("++") || isOp("--")) {
      Token opToken = next();
      auto target = asTarget<NumberTarget>(e);
      if (!target || !target->type().isNumeric()) errorAt(opToken, "'" + opToken.text + "' needs a numeric variable or array element");
      e = increment(std::move(target), opToken.text == "++" ? 1.0 : -1.0, false, opToken.line);
    } else if (isOp(".") && isWord("clone", 1) && isOp("(", 2) && isOp(")", 3) && e->type().isArray()) {
      Token dot = next();
      next();
      next();
      next();
      e = arrayCopyOf(std::move(e), nullptr, dot.line);
    } else if (isOp(".")) {
      error("only '.length' or '.clone()' can follow this value");
    } else {
      return e;
    }
  }
}

ExprPtr Compiler::arrayInitializer(Type type) {
  Nesting nesting(*this);
  int line = peek().line;
  expect("{", "to start the array initializer");
  std::vector<ExprPtr> items;
  while (!isOp("}")) {
    Token at = peek();
    if (type.dims > 1) items.push_back(isOp("{") ? arrayInitializer(type.element()) : convert(expression(), type.element(), at, "an element"));
    else items.push_back(convert(expression(), type.element(), at, "an element"));
    if (!accept(",")) break;
  }
  expect("}", "to end the array initializer");
  return arrayLiteral(type, std::move(items), line);
}

std::vector<ExprPtr> Compiler::arguments() {
  expect("(", "before the arguments");
  std::vector<ExprPtr> args;
  if (!isOp(")")) {
    do args.push_back(expression());
    while (accept(","));
  }
  expect(")", "after the arguments");
  return args;
}

ExprPtr Compiler::call(const std::string& name, const Token& at) {
  std::vector<ExprPtr> args = arguments();
  std::vector<Type> types;
  for (const auto& a : args) types.push_back(a->type());
  if (name.find('.') == std::string::npos) {
    auto range = methods_.equal_range(name);
    for (auto it = range.first; it != range.second; ++it) {
      const Method& m = *it->second;
      if (m.parameters.size() != args.size()) continue;
      bool fits = true;
      for (std::size_t i = 0; i < args.size(); ++i) {
        const Type& p = m.parameters[i];
        const bool list = p.isList() && types[i].isList() && types[i].item == Base::Void;  // new ArrayList<>()
        fits = fits && (p.isReference() ? types[i] == p || list : p.isNumeric() ? types[i].isNumeric() : types[i] == p);
      }
      if (fits) return callMethod(m, std::move(args), at.line);
    }
    if (range.first != range.second) errorAt(at, "no method '" + name + "' takes these " + std::to_string(args.size()) + " argument(s)");
  }
  if (script_) {
    if (ExprPtr scripted = scriptCall(name, args, at)) return scripted;
  }
  if (ExprPtr library = libraryCall(name, args, at)) return library;
  if (ExprPtr boxed = boxing(name, args, at)) return boxed;
  if (name == "String.valueOf") {
    if (args.size() != 1 || args[0]->type().isVoid()) errorAt(at, "String.valueOf takes one value");
    return concat(std::move(args), at.line);
  }
  if (name == "System.arraycopy" || name == "Arrays.fill" || name == "java.util.Arrays.fill" || name == "Arrays.copyOf" ||
      name == "java.util.Arrays.copyOf") {
    return arrayHelper(name, std::move(args), at);
  }
  for (auto& a : args) {
    if (a->type().boxed) a = unbox(std::move(a), at.line);
  }
  if (auto result = libraryResult(name, types)) {
    bool constant = name.find("random") == std::string::npos;
    for (const auto& a : args) constant = constant && a->constant();
    return fold(callMath(name, std::move(args), *result, at.line), constant);
  }
  if (script_) errorAt(at, "unknown function '" + name + "'");
  errorAt(at, "unknown method '" + name + "' (the subset has the class's own methods, java.lang.Math and the library listed in docs/scripting.md)");
}

ExprPtr Compiler::arrayHelper(const std::string& name, std::vector<ExprPtr> args, const Token& at) {
  auto integral = [&](std::size_t i) { return args[i]->type().isIntegral(); };
  if (name == "System.arraycopy") {
    if (args.size() != 5 || !args[0]->type().isArray() || args[2]->type() != args[0]->type() || !integral(1) || !integral(3) || !integral(4)) {
      errorAt(at, "System.arraycopy takes (array, int, array of the same type, int, int)");
    }
    return arrayCopy(std::move(args), at.line);
  }
  if (name.size() >= 4 && name.compare(name.size() - 4, 4, "fill") == 0) {
    if (args.size() != 2 || args[0]->type().dims != 1 || !(args[1]->type().isNumeric() || args[1]->type().isBoolean())) {
      errorAt(at, "Arrays.fill takes (array of numbers or booleans, value)");
    }
    return arrayFill(std::move(args[0]), std::move(args[1]), at.line);
  }
  if (args.size() != 2 || !args[0]->type().isArray() || !integral(1)) errorAt(at, "Arrays.copyOf takes (array, int)");
  return arrayCopyOf(std::move(args[0]), std::move(args[1]), at.line);
}

ExprPtr Compiler::name() {
  Token at = next();
  const std::string& id = at.text;
  if (script_ && isOp("(")) {
    const auto& names = script_->unsupported;
    if (std::find(names.begin(), names.end(), id) != names.end()) errorAt(at, "the GeckoSCRIPT function '" + id + "' is not supported by pesim");
  }
  if (isOp("(")) return call(id, at);
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
    auto it = scope->find(id);
    if (it != scope->end()) return variableExpr(it->second, at.line);
  }
  if (inCalculate_ && id == "time") return timeValue(at.line);
  if (inCalculate_ && id == "dt") return stepValue(at.line);
  auto field = fields_.find(id);
  if (field != fields_.end()) return variableExpr(field->second, at.line);
  std::string qualified = id;
  while (isOp(".") && peek(1).kind == Tok::Identifier) {
    next();
    qualified += "." + next().text;
    if (isOp("(")) return call(qualified, at);
  }
  if (auto c = libraryConstant(qualified)) return numberConstant(c->type, c->value, at.line);
  if (!inCalculate_ && (id == "time" || id == "dt" || id == "xIN")) {
    errorAt(at, "'" + id + "' is only available in the block's code (calculateYOUT), not here");
  }
  errorAt(at, "unknown name '" + qualified + "'");
}

ExprPtr Compiler::primary() {
  const Token& t = peek();
  int line = t.line;
  switch (t.kind) {
    case Tok::Int: return numberConstant(scalar(Base::Int), next().value, line);
    case Tok::Long: return numberConstant(scalar(Base::Long), next().value, line);
    case Tok::Float: return numberConstant(scalar(Base::Float), next().value, line);
    case Tok::Double: return numberConstant(scalar(Base::Double), next().value, line);
    case Tok::Char: return numberConstant(scalar(Base::Char), next().value, line);
    case Tok::String: return stringConstant(next().text, line);
    case Tok::End: error("expected a value");
    default: break;
  }
  if (accept("(")) {
    ExprPtr e = expression();
    expect(")", "to close the parenthesis");
    return e;
  }
  if (t.kind != Tok::Identifier) error("expected a value");
  if (t.text == "true" || t.text == "false") {
    bool value = next().text == "true";
    return numberConstant(scalar(Base::Boolean), value ? 1.0 : 0.0, line);
  }
  if (t.text == "null") {
    next();
    return nullArray(Type{Base::Void, 1}, line);
  }
  if (t.text == "this") {
    next();
    expect(".", "after 'this'");
    Token at = peek();
    std::string field = identifier("a field name");
    auto it = fields_.find(field);
    if (it == fields_.end()) errorAt(at, "unknown field '" + field + "'");
    return variableExpr(it->second, line);
  }
  if (t.text == "new") {
    Token at = next();
    if (writerClass(peek().text)) return newWriter(at);
    if (ExprPtr object = newObject(at)) return object;
    if (!startsType()) {
      error("the subset creates arrays, ArrayLists, HashMaps (LinkedHashMap, TreeMap), StringBuilders and exceptions, not '" + peek().text + "'");
    }
    if (listNameLength(0) > 0) return newListExpr(parseType(true), at);
    Type type = parseType();  // reads any trailing "[]" pairs
    if (type.isArray()) {
      if (!isOp("{")) errorAt(at, "expected '{' after new " + typeName(type));
      return arrayInitializer(type);
    }
    if (type.isVoid() || type.boxed || (type.isString() && !isOp("["))) errorAt(at, "the subset cannot create a " + typeName(type) + " with new");
    std::vector<ExprPtr> lengths;
    while (isOp("[") && !isOp("]", 1)) {
      next();
      Token lengthAt = peek();
      ExprPtr n = expression();
      if (!n->type().isIntegral()) errorAt(lengthAt, "an array length must be an int, not " + typeName(n->type()));
      expect("]", "after the array length");
      lengths.push_back(std::move(n));
      ++type.dims;
    }
    while (isOp("[") && isOp("]", 1)) {
      next();
      next();
      ++type.dims;
    }
    if (lengths.empty()) errorAt(at, "expected an array length after new " + typeName(type));
    return newArray(type, std::move(lengths), line);
  }
  return name();
}

}  // namespace pesim::java
