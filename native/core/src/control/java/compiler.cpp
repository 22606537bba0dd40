// Java block compiler: sections, class members and statements (see compiler.hpp; expressions are
// in compile_expr.cpp). Local variables are zeroed where declared, so a local read before Java
// would consider it assigned reads 0 instead of failing to compile.
#include "control/java/compiler_state.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "control/java/bytecode.hpp"
#include "control/java/exceptions.hpp"

namespace pesim::java {

namespace {

// A method's statements as one Block, which evaluates its number statements directly (nodes_stmt.cpp).
std::vector<StmtPtr> methodBody(std::vector<StmtPtr> statements) {
  const int line = statements.empty() ? 0 : statements.front()->line();
  std::vector<StmtPtr> body;
  body.push_back(blockStatement(std::move(statements), line));
  return body;
}

}  // namespace

// ---------------------------------------------------------------- tokens

const Token& Compiler::peek(std::size_t ahead) const {
  const auto& t = section_->tokens;
  return t[std::min(pos_ + ahead, t.size() - 1)];
}

const Token& Compiler::next() {
  const Token& t = peek();
  if (t.kind != Tok::End) ++pos_;
  return t;
}

bool Compiler::isOp(const char* op, std::size_t ahead) const {
  const Token& t = peek(ahead);
  return t.kind == Tok::Op && t.text == op;
}

bool Compiler::isWord(const char* word, std::size_t ahead) const {
  const Token& t = peek(ahead);
  return t.kind == Tok::Identifier && t.text == word;
}

bool Compiler::accept(const char* op) {
  if (!isOp(op)) return false;
  next();
  return true;
}

void Compiler::expect(const char* op, const std::string& what) {
  if (!accept(op)) error(std::string("expected '") + op + "' " + what);
}

std::string Compiler::identifier(const char* what) {
  if (peek().kind != Tok::Identifier) error(std::string("expected ") + what);
  return next().text;
}

void Compiler::error(const std::string& message) const { errorAt(peek(), message); }

Compiler::Nesting::Nesting(Compiler& c) : c_(c) {
  if (++c_.depth_ > kMaxNesting) {
    --c_.depth_;
    c_.error("the code is nested more than " + std::to_string(kMaxNesting) + " levels deep");
  }
}

void Compiler::errorAt(const Token& t, const std::string& message) const {
  std::string found = t.kind == Tok::End ? "the end of the code" : "'" + t.text + "'";
  bool expected = message.rfind("expected", 0) == 0;
  throw CodeError{section_->name, t.line, t.column, expected ? message + ", found " + found : message};
}

// ---------------------------------------------------------------- types and members

namespace {

// Java's widening primitive conversion (JLS 5.1.2), which a for-each variable may apply to the
// elements (for (double x : floats)): numeric promotion of the two gives the wider one.
bool widens(const Type& from, const Type& to) {
  if (from.dims != 0 || to.dims != 0 || from.boxed || to.boxed) return false;
  if (!from.isNumeric() || !to.isNumeric() || to.base == Base::Char) return false;
  return promote(from.base, to.base) == to.base;
}


bool primitiveName(const std::string& s) {
  return s == "double" || s == "int" || s == "long" || s == "float" || s == "boolean" || s == "short" ||
         s == "byte" || s == "char" || s == "String" || s == "void";
}

// The boxed classes a list may hold (and variables may be declared as).
std::optional<Base> boxedBase(const std::string& s) {
  if (s == "Double") return Base::Double;
  if (s == "Integer") return Base::Int;
  if (s == "Long") return Base::Long;
  if (s == "Float") return Base::Float;
  if (s == "Boolean") return Base::Boolean;
  return std::nullopt;
}

// The class a list of the primitive `s` holds, "" for other names.
std::string boxedClassOf(const std::string& s) {
  if (s == "double") return "Double";
  if (s == "int") return "Integer";
  if (s == "long") return "Long";
  if (s == "float") return "Float";
  if (s == "boolean") return "Boolean";
  return "";
}

const char* const kSupportedTypes =
    "supported: double, float, long, int, short, byte, char, boolean, String, arrays of them, StringBuilder, the JDK's "
    "exceptions, List / ArrayList and Map / HashMap / LinkedHashMap / TreeMap of Double, Integer, Long, Float, Boolean or String";

bool isMapName(const std::string& s) { return s == "Map" || s == "HashMap" || s == "LinkedHashMap" || s == "TreeMap"; }

bool modifier(const std::string& s) {
  return s == "private" || s == "public" || s == "protected" || s == "static" || s == "final" ||
         s == "transient" || s == "volatile";
}

}  // namespace

std::size_t Compiler::listNameLength(std::size_t ahead) const {
  auto isList = [](const Token& t) { return t.kind == Tok::Identifier && (t.text == "List" || t.text == "ArrayList"); };
  if (isList(peek(ahead))) return 1;
  if (isWord("java", ahead) && isOp(".", ahead + 1) && isWord("util", ahead + 2) && isOp(".", ahead + 3) && isList(peek(ahead + 4))) {
    return 5;
  }
  return 0;
}

std::size_t Compiler::mapNameLength(std::size_t ahead) const {
  auto isMap = [](const Token& t) { return t.kind == Tok::Identifier && isMapName(t.text); };
  if (isMap(peek(ahead))) return 1;
  if (isWord("java", ahead) && isOp(".", ahead + 1) && isWord("util", ahead + 2) && isOp(".", ahead + 3) && isMap(peek(ahead + 4))) {
    return 5;
  }
  return 0;
}

bool Compiler::startsType(std::size_t ahead) const {
  const Token& t = peek(ahead);
  if (t.kind != Tok::Identifier) return false;
  if (primitiveName(t.text)) return true;
  // `StringBuilder b`, `RuntimeException e`: a declaration (not `new StringBuilder(`).
  if (t.text == "StringBuilder" || t.text == "StringBuffer" || knownException(t.text) || writerClass(t.text)) {
    return peek(ahead + 1).kind == Tok::Identifier;
  }
  if (const std::size_t n = mapNameLength(ahead)) return isOp("<", ahead + n) || peek(ahead + n).kind == Tok::Identifier;
  // `Double x`, `List<Double> x`, `ArrayList x` (raw: refused by parseType); not `Double.NaN`.
  if (boxedBase(t.text)) return peek(ahead + 1).kind == Tok::Identifier;
  const std::size_t n = listNameLength(ahead);
  return n > 0 && (isOp("<", ahead + n) || peek(ahead + n).kind == Tok::Identifier);
}

Type Compiler::parseListType(std::size_t nameLength, bool afterNew) {
  const Token at = peek();
  std::string name;
  for (std::size_t i = 0; i < nameLength; ++i) name += next().text;
  const std::string simple = name.substr(name.rfind('.') + 1);
  if (!isOp("<")) errorAt(at, "raw " + simple + " is not supported in Java blocks: give its element type, e.g. " + simple + "<Double>");
  next();
  if (afterNew && simple == "List") errorAt(at, "List is an interface: create an ArrayList");
  Type type{Base::List, 0, Base::Void, false};
  if (accept(">")) {
    if (!afterNew) errorAt(at, "a " + simple + " type needs its element type, e.g. " + simple + "<Double>");
    return type;
  }
  type.item = typeArgument(simple);
  expect(">", "after the list's element type");
  return type;
}

Base Compiler::typeArgument(const std::string& owner) {
  const Token& item = peek();
  if (item.kind == Tok::Identifier && item.text == "String") {
    next();
    return Base::String;
  }
  std::optional<Base> base = item.kind == Tok::Identifier ? boxedBase(item.text) : std::nullopt;
  if (!base) {
    const std::string box = boxedClassOf(item.text);
    if (!box.empty()) errorAt(item, "a " + owner + " holds objects: write " + box + ", not " + item.text);
    errorAt(item, owner + " of " + item.text + " is not supported (" + kSupportedTypes + ")");
  }
  next();
  return *base;
}

Type Compiler::parseMapType(std::size_t nameLength, bool afterNew) {
  const Token at = peek();
  std::string name;
  for (std::size_t i = 0; i < nameLength; ++i) name += next().text;
  const std::string simple = name.substr(name.rfind('.') + 1);
  mapSimpleName_ = simple;
  if (!isOp("<")) errorAt(at, "raw " + simple + " is not supported: give its key and value types, e.g. " + simple + "<String, Double>");
  next();
  if (afterNew && simple == "Map") errorAt(at, "Map is an interface: create a HashMap, LinkedHashMap or TreeMap");
  Type type{Base::Map, 0, Base::Void, false};
  if (accept(">")) {
    if (!afterNew) errorAt(at, "a " + simple + " type needs its key and value types, e.g. " + simple + "<String, Double>");
    return type;
  }
  type.key = typeArgument(simple);
  expect(",", "between the map's key and value types");
  type.item = typeArgument(simple);
  expect(">", "after the map's value type");
  return type;
}

Type Compiler::parseType(bool afterNew) {
  const Token& t = peek();
  if (!startsType()) {
    if (t.kind == Tok::Identifier) errorAt(t, "type '" + t.text + "' is not supported in Java blocks (" + kSupportedTypes + ")");
    error("expected a type");
  }
  if (const std::size_t n = listNameLength(0)) return parseListType(n, afterNew);
  if (const std::size_t n = mapNameLength(0)) return parseMapType(n, afterNew);
  next();
  Type type;
  if (t.text == "StringBuilder" || t.text == "StringBuffer") type.base = Base::Builder;
  else if (knownException(t.text)) type.base = Base::Exception;
  else if (writerClass(t.text)) {
    if (!script_) errorAt(t, "file output (" + t.text + ") is only available in scripts (pesim script), not in Java blocks");
    type.base = Base::Writer;
  }
  else if (auto boxed = boxedBase(t.text)) {
    type = Type{*boxed, 0, Base::Void, true};
  } else if (t.text == "double") type.base = Base::Double;
  else if (t.text == "float") type.base = Base::Float;
  else if (t.text == "long") type.base = Base::Long;
  else if (t.text == "boolean") type.base = Base::Boolean;
  else if (t.text == "String") type.base = Base::String;
  else if (t.text == "void") type.base = Base::Void;
  else if (t.text == "char") type.base = Base::Char;
  else type.base = Base::Int;  // int, short, byte: 32-bit arithmetic
  while (isOp("[") && isOp("]", 1)) {
    next();
    next();
    ++type.dims;
  }
  return type;
}

void Compiler::skipModifiers() {
  while (peek().kind == Tok::Identifier && modifier(peek().text)) next();
  if (isOp("@")) error("annotations are not supported in Java blocks");
}

Variable Compiler::declare(const std::string& name, Type type, const Token& at) {
  if (type.base == Base::Void) errorAt(at, "a variable cannot be void");
  if ((type.base == Base::List || type.base == Base::Map || type.base == Base::Builder || type.base == Base::Exception) && type.dims > 0) {
    errorAt(at, "arrays of " + typeName(Type{type.base, 0, type.item, false, type.key}) + " are not supported (use a List)");
  }
  if (type.base == Base::String && type.dims > 1) errorAt(at, "arrays of String[] are not supported");
  if (type.boxed && type.dims > 0) errorAt(at, "arrays of " + typeName(Type{type.base, 0, Base::Void, true}) + " objects are not supported in Java blocks: use " + typeName(Type{type.base, type.dims}));
  Variable v{type, scopes_.empty(), 0};
  if (scopes_.empty()) {
    if (fields_.count(name)) errorAt(at, std::string(script_ ? "variable '" : "field '") + name + "' is already defined");
    v.slot = type.isReference() ? out_.fieldArrays++ : type.isString() ? out_.fieldStrings++ : out_.fieldNumbers++;
    fields_.emplace(name, v);
    return v;
  }
  for (const auto& scope : scopes_) {
    if (scope.count(name)) errorAt(at, "variable '" + name + "' is already defined in this method");
  }
  v.slot = type.isReference() ? method_->arraySlots++ : type.isString() ? method_->stringSlots++ : method_->numberSlots++;
  scopes_.back().emplace(name, v);
  return v;
}

// Skips a balanced stretch up to (not including) one of the `stops` at nesting depth 0.
namespace {
bool genericClass(const Token& t) {
  return t.kind == Tok::Identifier && (t.text == "List" || t.text == "ArrayList" || isMapName(t.text));
}

// (The ',' between a generic class's type arguments, as in new HashMap<String, Double>(), is no stop.)
void skipBalanced(const std::vector<Token>& tokens, std::size_t& pos, std::initializer_list<const char*> stops) {
  int depth = 0;
  int angles = 0;
  for (; tokens[pos].kind != Tok::End; ++pos) {
    const Token& t = tokens[pos];
    if (t.kind != Tok::Op) continue;
    if (t.text == "<" && pos > 0 && (genericClass(tokens[pos - 1]) || angles > 0)) ++angles;
    if (angles > 0 && t.text == ">") --angles;
    if (angles > 0 && t.text == ">>") angles = std::max(0, angles - 2);
    if (depth == 0 && angles == 0) {
      for (const char* s : stops) if (t.text == s) return;
    }
    if (t.text == "(" || t.text == "[" || t.text == "{") ++depth;
    if (t.text == ")" || t.text == "]" || t.text == "}") --depth;
  }
}
}  // namespace

// A method's signature (after its '('), up to the '{' of its body; its body is compiled later.
Method* Compiler::methodDeclaration(const Type& result, const std::string& name, const Token& at) {
  auto m = std::make_unique<Method>();
  m->name = name;
  m->result = result;
  m->line = at.line;
  if (!isOp(")")) {
    do {
      skipModifiers();
      Type p = parseType();
      identifier("a parameter name");
      while (isOp("[") && isOp("]", 1)) {
        next();
        next();
        ++p.dims;
      }
      m->parameters.push_back(p);
    } while (accept(","));
  }
  expect(")", "after the parameters");
  if (isWord("throws")) {
    next();
    do identifier("an exception name");
    while (accept(","));
  }
  if (!isOp("{")) error("expected '{' to start the body of " + name);
  methods_.emplace(name, m.get());
  out_.methods.push_back(std::move(m));
  return out_.methods.back().get();
}

// The class body: fields (initializers compiled later, in order, into fieldInit) and methods
// (bodies compiled once every member is known, so members may be used before their declaration).
void Compiler::collectMembers() {
  struct Pending {
    Variable variable;
    Token at;
    std::size_t value;  // token index of the initializer (or of the '{' of an initializer block)
    bool block = false; // `static { ... }` / `{ ... }`: statements run with the field initializers
  };
  std::vector<Pending> initializers;
  std::vector<std::pair<Method*, std::size_t>> bodies;
  while (peek().kind != Tok::End) {
    if (accept(";")) continue;
    skipModifiers();
    if (isOp("{")) {
      initializers.push_back({Variable{}, peek(), pos_, true});
      skipBalanced(section_->tokens, ++pos_, {"}"});
      expect("}", "to end the initializer block");
      continue;
    }
    if (isWord("class") || isWord("interface") || isWord("enum")) error("nested classes are not supported in Java blocks");
    Type type = parseType();
    Token at = peek();
    std::string name = identifier("a field or method name");
    if (accept("(")) {
      Method* m = methodDeclaration(type, name, at);
      bodies.emplace_back(m, pos_);
      skipBalanced(section_->tokens, ++pos_, {"}"});
      expect("}", "to end the method body");
      continue;
    }
    for (;;) {
      Type t = type;
      while (isOp("[") && isOp("]", 1)) {
        next();
        next();
        ++t.dims;
      }
      Variable v = declare(name, t, at);
      if (accept("=")) {
        initializers.push_back({v, at, pos_});
        skipBalanced(section_->tokens, pos_, {",", ";"});
      } else {
        initializers.push_back({v, at, 0});
      }
      if (!accept(",")) break;
      at = peek();
      name = identifier("a field name");
    }
    expect(";", "after the field declaration");
  }
  std::size_t end = pos_;
  method_ = fieldInit_;
  scopes_.clear();  // field initializers see fields and methods only
  for (const auto& p : initializers) {
    pos_ = p.value;
    if (p.block) {
      scopes_.assign(1, {});  // an initializer block may declare locals
      fieldInit_->body.push_back(block());
      scopes_.clear();
    } else {
      fieldInit_->body.push_back(initialise(p.variable, p.at, p.value != 0));
    }
  }
  for (auto& [m, start] : bodies) compileMethodBody(*m, start);
  pos_ = end;
}

void Compiler::compileMethodBody(Method& m, std::size_t bodyStart) {
  // Re-read the parameter list: its names are declared in the method's scope.
  std::size_t open = bodyStart;
  while (open > 0 && !(section_->tokens[open].kind == Tok::Op && section_->tokens[open].text == "(")) --open;
  method_ = &m;
  scopes_.assign(1, {});
  pos_ = open + 1;
  std::size_t index = 0;
  if (!isOp(")")) {
    do {
      skipModifiers();
      Token at = peek();
      parseType();
      std::string name = identifier("a parameter name");
      while (isOp("[") && isOp("]", 1)) {
        next();
        next();
      }
      Variable v = declare(name, m.parameters[index], at);
      m.parameterSlots.push_back(v.slot);
      ++index;
    } while (accept(","));
  }
  pos_ = bodyStart + 1;
  m.body = methodBody(statementsUntilBrace());
  expect("}", "to end the method body");
  scopes_.clear();
  lowerMethod(m);
}

// ---------------------------------------------------------------- statements

StmtPtr Compiler::loopBody() {
  ++loops_;
  ++breakables_;
  StmtPtr body = statement();
  --loops_;
  --breakables_;
  return body;
}

std::vector<StmtPtr> Compiler::statementsUntilBrace() {
  std::vector<StmtPtr> body;
  while (!isOp("}") && peek().kind != Tok::End) body.push_back(statement());
  return body;
}

StmtPtr Compiler::block() {
  int line = peek().line;
  expect("{", "to start a block");
  scopes_.emplace_back();
  std::vector<StmtPtr> body = statementsUntilBrace();
  expect("}", "to end the block");
  scopes_.pop_back();
  return blockStatement(std::move(body), line);
}

ExprPtr Compiler::initialValue(Type type, const Token& at, bool hasValue) {
  int line = at.line;
  if (!hasValue) {
    if (type.isString()) return stringConstant(nullText(), line);
    return type.isReference() ? nullArray(type, line) : numberConstant(type, 0.0, line);
  }
  if (isOp("{")) {
    if (!type.isArray()) error("an array initializer needs an array type");
    return arrayInitializer(type);
  }
  return convert(expression(), type, at, "the initial value");
}

StmtPtr Compiler::assignInitial(const Variable& v, ExprPtr value, int line) {
  ExprPtr target = variableExpr(v, line);
  if (v.type.isString()) {
    std::unique_ptr<StringTarget> t(static_cast<StringTarget*>(target.release()));
    return expressionStatement(assignString(std::move(t), std::move(value), false, line), line);
  }
  if (v.type.isReference()) {
    std::unique_ptr<ArrayTarget> t(static_cast<ArrayTarget*>(target.release()));
    return expressionStatement(assignArray(std::move(t), std::move(value), line), line);
  }
  std::unique_ptr<NumberTarget> t(static_cast<NumberTarget*>(target.release()));
  return expressionStatement(assignNumber(std::move(t), "=", std::move(value), v.type.base, line), line);
}

StmtPtr Compiler::initialise(const Variable& v, const Token& at, bool hasValue) {
  return assignInitial(v, initialValue(v.type, at, hasValue), at.line);
}

StmtPtr Compiler::localDeclaration() {
  int line = peek().line;
  while (isWord("final")) next();
  Type type = parseType();
  std::vector<StmtPtr> inits;
  do {
    Token at = peek();
    std::string name = identifier("a variable name");
    Type t = type;
    while (isOp("[") && isOp("]", 1)) {
      next();
      next();
      ++t.dims;
    }
    bool hasValue = accept("=");
    std::size_t valueEnd = pos_;
    if (hasValue) {
      std::size_t valueStart = pos_;
      skipBalanced(section_->tokens, pos_, {",", ";"});
      valueEnd = pos_;
      pos_ = valueStart;
    }
    // The value is compiled before the name is declared: javac refuses `int x = x;`, and so do we.
    ExprPtr value = initialValue(t, at, hasValue);
    if (pos_ != valueEnd) error("expected ',' or ';' after the variable's value");
    inits.push_back(assignInitial(declare(name, t, at), std::move(value), at.line));
  } while (accept(","));
  return blockStatement(std::move(inits), line);
}

StmtPtr Compiler::forStatementParse() {
  int line = next().line;  // for
  expect("(", "after 'for'");
  scopes_.emplace_back();
  // for (type name : array)
  if (startsType() || isWord("final")) {
    std::size_t save = pos_;
    while (isWord("final")) next();
    Type t = parseType();
    Token at = peek();
    std::string name = identifier("a variable name");
    if (accept(":")) {
      ExprPtr array = expression();
      const Type& over = array->type();
      if ((over.isList() && over.item == Base::String) || (over.base == Base::String && over.dims == 1)) {
        if (!t.isString()) errorAt(at, "a for-each loop over " + typeName(over) + " needs a String variable, not " + typeName(t));
        expect(")", "after the for-each header");
        Variable v = declare(name, t, at);
        ExprPtr var = variableExpr(v, at.line);
        StmtPtr body = loopBody();
        scopes_.pop_back();
        std::unique_ptr<StringTarget> target(static_cast<StringTarget*>(var.release()));
        return forEachTextStatement(std::move(target), std::move(array), std::move(body), line);
      }
      if (array->type().isList()) {
        expect(")", "after the for-each header");
        StmtPtr loop = forEachList(t, at, std::move(array));
        scopes_.pop_back();
        return loop;
      }
      if (!array->type().isArray() || !(array->type().element() == t || widens(array->type().element(), t))) {
        errorAt(at, "a for-each loop over " + typeName(array->type()) + " needs a variable of its element type (or a wider number type)");
      }
      expect(")", "after the for-each header");
      Variable v = declare(name, t, at);
      ExprPtr var = variableExpr(v, at.line);
      StmtPtr body = loopBody();
      scopes_.pop_back();
      std::unique_ptr<NumberTarget> n;
      std::unique_ptr<ArrayTarget> a;
      if (t.isArray()) a.reset(static_cast<ArrayTarget*>(var.release()));
      else n.reset(static_cast<NumberTarget*>(var.release()));
      return forEachStatement(std::move(n), std::move(a), std::move(array), std::move(body), line);
    }
    pos_ = save;
  }
  std::vector<StmtPtr> init;
  if (!isOp(";")) {
    if (script_ && implicitDeclarationAhead()) {
      init.push_back(implicitDeclaration());
    } else if (startsType() || isWord("final")) {
      init.push_back(localDeclaration());
    } else {
      do init.push_back(expressionStatement(expression(), line));
      while (accept(","));
    }
  }
  expect(";", "after the loop's initialization");
  ExprPtr c = isOp(";") ? nullptr : condition("the loop condition");
  expect(";", "after the loop condition");
  std::vector<ExprPtr> update;
  if (!isOp(")")) {
    do update.push_back(expression());
    while (accept(","));
  }
  expect(")", "after the loop header");
  StmtPtr body = loopBody();
  scopes_.pop_back();
  return forStatement(std::move(init), std::move(c), std::move(update), std::move(body), line);
}

StmtPtr Compiler::switchParse() {
  int line = next().line;  // switch
  expect("(", "after 'switch'");
  Token at = peek();
  ExprPtr selector = expression();
  if (selector->type().boxed) selector = unbox(std::move(selector), at.line);
  const bool onText = selector->type().isString();
  if (!selector->type().isIntegral() && !onText) errorAt(at, "switch needs an int, short, byte, char or String value, not " + typeName(selector->type()));
  expect(")", "after the switch value");
  expect("{", "to start the switch body");
  scopes_.emplace_back();
  ++breakables_;
  std::vector<std::pair<double, std::size_t>> labels;
  std::vector<std::pair<std::string, std::size_t>> textLabels;
  long defaultStart = -1;
  std::vector<StmtPtr> body;
  while (!isOp("}") && peek().kind != Tok::End) {
    if (isWord("case")) {
      next();
      Token labelAt = peek();
      ExprPtr label = expression();
      if (isOp("->")) errorAt(peek(), "switch rules (case ... ->) are not supported: write 'case x:' with break");
      if (isOp(",")) errorAt(peek(), "several labels in one case are not supported: write one 'case x:' for each");
      Exec none;
      if (onText) {
        if (!label->constant() || !label->type().isString()) errorAt(labelAt, "a case label of a String switch must be a String constant");
        std::string value = label->text(none);
        for (const auto& l : textLabels) if (l.first == value) errorAt(labelAt, "duplicate case label");
        textLabels.emplace_back(value, body.size());
      } else {
        if (!label->constant() || !label->type().isIntegral()) errorAt(labelAt, "a case label must be an integer constant");
        double value = label->number(none);
        for (const auto& l : labels) if (l.first == value) errorAt(labelAt, "duplicate case label");
        labels.emplace_back(value, body.size());
      }
      expect(":", "after the case label");
    } else if (isWord("default")) {
      next();
      expect(":", "after 'default'");
      defaultStart = static_cast<long>(body.size());
    } else {
      body.push_back(statement());
    }
  }
  expect("}", "to end the switch body");
  --breakables_;
  scopes_.pop_back();
  if (onText) return stringSwitchStatement(std::move(selector), std::move(textLabels), defaultStart, std::move(body), line);
  return switchStatement(std::move(selector), std::move(labels), defaultStart, std::move(body), line);
}

// System.out.println(x), System.out.print(x), System.err.*: printed into the run's messages.
StmtPtr Compiler::systemCall() {
  int line = next().line;  // System
  expect(".", "after 'System'");
  std::string stream = identifier("out or err");
  if (stream != "out" && stream != "err") error("only System.out and System.err are supported");
  expect(".", "after System." + std::string(stream == "out" ? "out" : "err"));
  Token fnAt = peek();
  std::string fn = identifier("println, print or printf");
  if (fn == "printf" || fn == "format") {
    ExprPtr text = formatCall(arguments(), fnAt);
    expect(";", "after the statement");
    return printStatement(std::move(text), false, line);
  }
  if (fn != "println" && fn != "print") errorAt(fnAt, "only print, println and printf are supported on System." + stream);
  expect("(", "after " + fn);
  ExprPtr value = isOp(")") ? nullptr : expression();
  if (value && value->type().isVoid()) error("cannot print a void value");
  expect(")", "after the printed value");
  expect(";", "after the statement");
  return printStatement(std::move(value), fn == "println", line);
}

StmtPtr Compiler::statement() {
  Nesting nesting(*this);
  const bool block = isOp("{");  // a block's statements count, the block itself does not
  StmtPtr s = uncountedStatement();
  return count_ && !block ? countedStatement(std::move(s), count_) : std::move(s);
}

StmtPtr Compiler::ifParse() {
  int line = next().line;  // if
  expect("(", "after 'if'");
  ExprPtr c = condition("the if condition");
  expect(")", "after the if condition");
  StmtPtr then = statement();
  StmtPtr otherwise;
  if (isWord("else")) {
    next();
    otherwise = statement();
  }
  return ifStatement(std::move(c), std::move(then), std::move(otherwise), line);
}

StmtPtr Compiler::whileParse() {
  int line = next().line;  // while
  expect("(", "after 'while'");
  ExprPtr c = condition("the while condition");
  expect(")", "after the while condition");
  StmtPtr body = loopBody();
  return whileStatement(std::move(c), std::move(body), true, line);
}

StmtPtr Compiler::doParse() {
  int line = next().line;  // do
  StmtPtr body = loopBody();
  if (!isWord("while")) error("expected 'while' after the do body");
  next();
  expect("(", "after 'while'");
  ExprPtr c = condition("the while condition");
  expect(")", "after the while condition");
  expect(";", "after the do-while statement");
  return whileStatement(std::move(c), std::move(body), false, line);
}

StmtPtr Compiler::jumpParse() {
  const Token t = next();  // break or continue
  bool isBreak = t.text == "break";
  if (peek().kind == Tok::Identifier) error("labelled break and continue are not supported");
  if (isBreak ? breakables_ == 0 : loops_ == 0) errorAt(t, std::string(isBreak ? "break" : "continue") + " outside of a loop");
  expect(";", "after the statement");
  return jumpStatement(isBreak ? Flow::Break : Flow::Continue, t.line);
}

StmtPtr Compiler::returnParse() {
  int line = next().line;  // return
  ExprPtr value;
  if (!isOp(";")) {
    Token at = peek();
    value = expression();
    Type want = inCalculate_ ? Type{Base::Double, 1} : method_->result;
    if (want.isVoid()) errorAt(at, "a void method cannot return a value");
    value = convert(std::move(value), want, at, "the returned value");
  } else if (!inCalculate_ && method_->result.base != Base::Void && method_ != out_.init) {
    error("this method must return a " + typeName(method_->result));
  }
  expect(";", "after the return statement");
  return returnStatement(std::move(value), line);
}

// gecko.GeckoSim._testSuccessful = value;
StmtPtr Compiler::geckoTestParse() {
  int line = next().line;  // gecko
  next();
  next();
  expect(".", "after gecko.GeckoSim");
  std::string member = identifier("_testSuccessful");
  if (member != "_testSuccessful") error("only gecko.GeckoSim._testSuccessful is supported");
  expect("=", "after gecko.GeckoSim._testSuccessful");
  Token at = peek();
  ExprPtr value = expression();
  if (!value->type().isBoolean()) errorAt(at, "gecko.GeckoSim._testSuccessful takes a boolean");
  expect(";", "after the statement");
  return testPassedStatement(std::move(value), line);
}

StmtPtr Compiler::uncountedStatement() {
  const Token& t = peek();
  int line = t.line;
  if (isOp("{")) return block();
  if (accept(";")) return blockStatement({}, line);
  if (t.kind == Tok::Identifier) {
    const std::string& w = t.text;
    if (w == "if") return ifParse();
    if (w == "while") return whileParse();
    if (w == "do") return doParse();
    if (w == "for") return forStatementParse();
    if (w == "switch") return switchParse();
    if (w == "break" || w == "continue") return jumpParse();
    if (w == "return") return returnParse();
    if (w == "else") error("'else' without 'if'");
    if (w == "try") return tryParse();
    if (w == "throw") return throwParse();
    if (w == "synchronized" || w == "assert" || w == "class" || w == "interface" || w == "enum" || w == "record") {
      error("'" + w + "' is not supported in the Java subset");
    }
    if (script_ && w == "import") return skipImport();
    if (script_ && implicitDeclarationAhead()) {
      StmtPtr declaration = implicitDeclaration();
      expect(";", "after the declaration");
      return declaration;
    }
    if (w == "var" && peek(1).kind == Tok::Identifier) error("'var' is not supported in the Java subset: write the variable's type");
    if (w == "System" && isOp(".", 1) && (isWord("out", 2) || isWord("err", 2))) return systemCall();
    if (w == "gecko" && isOp(".", 1) && isWord("GeckoSim", 2)) return geckoTestParse();
    if (w == "final" || startsType()) return localDeclaration();
    // `Map x`, `HashMap<String, Double> x`: a declaration of a class the blocks lack.
    if ((w != "new" && peek(1).kind == Tok::Identifier && !isOp(".", 1)) || (isOp("<", 1) && peek(2).kind == Tok::Identifier && (isOp(">", 3) || isOp(",", 3)))) {
      errorAt(t, "type '" + w + "' is not supported in Java blocks (" + kSupportedTypes + ")");
    }
  }
  const std::size_t start = pos_;
  ExprPtr e = expression();
  if (script_ && !statementExpression(start, pos_)) errorAt(section_->tokens[start], "not a statement (a value alone does nothing)");
  expect(";", "after the statement");
  return expressionStatement(std::move(e), line);
}

StmtPtr Compiler::tryParse() {
  int line = next().line;  // try
  if (isOp("(") && !script_) error("try-with-resources is not supported: close the writer in a finally block");
  const bool withResources = isOp("(");
  std::vector<StmtPtr> resources;
  if (withResources) scopes_.emplace_back();
  StmtPtr body = withResources ? tryResources(resources, line) : block();
  std::vector<CatchClause> catches;
  while (isWord("catch")) {
    next();
    expect("(", "after 'catch'");
    while (isWord("final")) next();
    CatchClause c;
    do {
      while (peek().kind == Tok::Identifier && std::islower(static_cast<unsigned char>(peek().text[0])) && isOp(".", 1)) {
        next();  // a package: java.util.ConcurrentModificationException
        next();
      }
      const Token& cls = peek();
      if (cls.kind != Tok::Identifier || !knownException(cls.text)) {
        error("expected an exception class of the subset (Exception, RuntimeException, ArithmeticException, ...)");
      }
      c.classes.push_back(next().text);
    } while (accept("|"));
    Token at = peek();
    std::string name = identifier("the exception's name");
    expect(")", "after the caught exception");
    scopes_.emplace_back();
    c.slot = declare(name, scalar(Base::Exception), at).slot;
    c.body = block();
    scopes_.pop_back();
    catches.push_back(std::move(c));
  }
  StmtPtr finally;
  if (isWord("finally")) {
    next();
    finally = block();
  }
  if (catches.empty() && !finally && !withResources) error("expected 'catch' or 'finally' after the try block");
  if (!catches.empty() || finally) body = tryStatement(std::move(body), std::move(catches), std::move(finally), line);
  if (!withResources) return body;
  scopes_.pop_back();
  resources.push_back(std::move(body));
  return blockStatement(std::move(resources), line);
}

StmtPtr Compiler::throwParse() {
  int line = next().line;  // throw
  Token at = peek();
  ExprPtr e = expression();
  if (e->type().base != Base::Exception || e->type().dims != 0) errorAt(at, "throw needs an exception, not " + typeName(e->type()));
  expect(";", "after the throw statement");
  return throwStatement(std::move(e), line);
}

// ---------------------------------------------------------------- sections

CompiledClass Compiler::run(const BlockCode& code) {
  auto section = [&](const std::string& name, const std::string& text) {
    auto s = std::make_unique<Section>();
    s->name = name;
    s->tokens = tokenize(SourceText{name, text});
    sections_.push_back(std::move(s));
    return sections_.back().get();
  };
  Section* variables = section("static variables", code.variables);
  Section* init = section("static code", code.initCode);
  Section* calc = section("code", code.code);

  auto method = [&](const char* name) {
    auto m = std::make_unique<Method>();
    m->name = name;
    m->result = scalar(Base::Void);
    out_.methods.push_back(std::move(m));
    return out_.methods.back().get();
  };
  Method* fieldInit = method("<fields>");
  Method* initMethod = method("init");
  Method* calculate = method("calculateYOUT");
  calculate->result = Type{Base::Double, 1};
  out_.fieldInit = fieldInit;
  fieldInit_ = fieldInit;
  out_.init = initMethod;
  out_.calculate = calculate;
  out_.yOutSlot = out_.fieldArrays++;
  fields_.emplace("yOUT", Variable{Type{Base::Double, 1}, true, out_.yOutSlot});

  section_ = variables;
  pos_ = 0;
  collectMembers();

  section_ = init;
  pos_ = 0;
  method_ = initMethod;
  scopes_.assign(1, {});
  initMethod->body = methodBody(statementsUntilBrace());
  if (peek().kind != Tok::End) error("unexpected '}'");

  section_ = calc;
  pos_ = 0;
  method_ = calculate;
  scopes_.assign(1, {});
  inCalculate_ = true;
  declare("xIN", Type{Base::Double, 1}, peek());  // array slot 0
  calculate->body = methodBody(statementsUntilBrace());
  if (peek().kind != Tok::End) error("unexpected '}'");
  inCalculate_ = false;
  lowerMethod(*fieldInit);
  lowerMethod(*initMethod);
  lowerMethod(*calculate);
  return std::move(out_);
}

CompiledClass compileBlock(const BlockCode& code, int outputs) { return Compiler(outputs).run(code); }

}  // namespace pesim::java
