// What the compiler adds for scripts (script.hpp): pieces of statements or of class members
// compiled against the fields and methods of the pieces before them, variables declared by their
// first value, skipped imports, the output functions and the host functions.
#include <algorithm>

#include "control/java/bytecode.hpp"
#include "control/java/compiler_state.hpp"

namespace pesim::java {

namespace {

std::string signatureText(const std::string& name, const HostSignature& s) {
  std::string text = name + "(";
  for (std::size_t i = 0; i < s.parameters.size(); ++i) {
    if (i > 0) text += ", ";
    text += s.parameters[i].anyValue ? "Object" : typeName(s.parameters[i].type);
  }
  return text + ")";
}

bool fits(const HostParameter& p, const Type& value) {
  if (p.anyValue) return !value.isVoid() || value.dims > 0;
  const Type& t = p.type;
  const bool null = value.base == Base::Void && value.dims == 1;
  if (t.isNumeric()) return value.isNumeric();
  if (t.isBoolean()) return value.isBoolean();
  if (t.isString()) return value.isString() || null;
  return value == t || null;
}

// A token standing for an expression's position (errors about an argument point at it).
Token tokenAt(const Expr& e) {
  Token t;
  t.kind = Tok::Op;
  t.line = e.line();
  t.column = e.line() % kColumnSpan;
  return t;
}

}  // namespace

std::unique_ptr<Method> Compiler::compileScript(std::vector<Token> tokens, const std::string& name, ScriptPart part,
                                                std::vector<HostCallSite>& calls) {
  auto section = std::make_unique<Section>();
  section->name = name;
  section->tokens = std::move(tokens);
  section_ = section.get();
  sections_.push_back(std::move(section));
  pos_ = 0;
  auto method = std::make_unique<Method>();
  method->name = "<script>";
  method->result = scalar(Base::Void);
  // A piece that does not compile declares nothing.
  const auto fields = fields_;
  const auto methods = methods_;
  const int numbers = out_.fieldNumbers, arrays = out_.fieldArrays, strings = out_.fieldStrings;
  calls_ = &calls;
  try {
    scriptStatements(*method, part);
  } catch (const CodeError&) {
    fields_ = fields;
    methods_ = methods;
    out_.fieldNumbers = numbers;
    out_.fieldArrays = arrays;
    out_.fieldStrings = strings;
    calls_ = nullptr;
    throw;
  }
  calls_ = nullptr;
  lowerMethod(*method);
  return method;
}

void Compiler::scriptStatements(Method& m, ScriptPart part) {
  method_ = &m;
  scopes_.clear();  // the outermost variables are fields
  loops_ = breakables_ = depth_ = 0;
  if (part == ScriptPart::Declarations) {
    fieldInit_ = &m;
    while (isWord("import")) skipImport();
    try {
      collectMembers();
    } catch (CodeError& e) {
      // A statement where a declaration belongs: say what belongs there.
      if (e.message.rfind("type '", 0) == 0 || e.message.rfind("expected a type", 0) == 0) {
        e.message = "only field and method declarations belong in the declarations section (" + e.message + ")";
      }
      throw;
    }
    return;
  }
  while (peek().kind != Tok::End) {
    if (isOp("}")) error("unexpected '}': no block is open");
    m.body.push_back(statement());
  }
}

StmtPtr Compiler::skipImport() {
  int line = next().line;  // import
  while (!isOp(";") && peek().kind != Tok::End) next();
  expect(";", "after the import");
  return blockStatement({}, line);
}

bool Compiler::implicitDeclarationAhead() const {
  const Token& t = peek();
  if (t.kind != Tok::Identifier) return false;
  if (t.text == "var" && peek(1).kind == Tok::Identifier) return true;
  if (!isOp("=", 1)) return false;
  for (const auto& scope : scopes_) {
    if (scope.count(t.text)) return false;
  }
  return fields_.count(t.text) == 0;
}

bool Compiler::statementExpression(std::size_t from, std::size_t to) const {
  const auto& t = section_->tokens;
  if (to <= from) return false;
  auto op = [&](std::size_t i, const char* text) { return t[i].kind == Tok::Op && t[i].text == text; };
  if (op(from, "++") || op(from, "--") || op(to - 1, "++") || op(to - 1, "--")) return true;
  if (t[from].kind == Tok::Identifier && t[from].text == "new") return true;
  // At depth 0: an assignment operator makes a statement; any other operator a value, unless the
  // expression is a chain of names, '.' and bracketed groups ending with a call.
  int depth = 0;
  bool value = false;
  for (std::size_t i = from; i < to; ++i) {
    if (t[i].kind != Tok::Op) continue;
    const std::string& o = t[i].text;
    if (o == "(" || o == "[" || o == "{") ++depth;
    else if (o == ")" || o == "]" || o == "}") --depth;
    else if (depth == 0 && o.size() >= 1 && o.back() == '=' && o != "==" && o != "!=" && o != "<=" && o != ">=") return true;
    else if (depth == 0 && o != ".") value = true;
  }
  return !value && op(to - 1, ")") && t[from].kind == Tok::Identifier;
}

StmtPtr Compiler::implicitDeclaration() {
  if (isWord("var")) next();
  const Token at = peek();
  const std::string name = identifier("a variable name");
  expect("=", "after the variable's name");
  const Token valueAt = peek();
  if (isOp("{")) error("an array initializer needs the array's type: write e.g. double[] " + name + " = {...}");
  ExprPtr value = expression();
  Type type = value->type();
  if (type.boxed) type.boxed = false;
  if (type.isVoid()) errorAt(valueAt, "a void value cannot initialise '" + name + "'");
  if (type.base == Base::Void && type.dims == 1) errorAt(valueAt, "null has no type: declare '" + name + "' with its type");
  if (type.isList() && type.item == Base::Void) errorAt(valueAt, "declare '" + name + "' with its element type, e.g. List<Double>");
  value = convert(std::move(value), type, valueAt, "the initial value");
  return assignInitial(declare(name, type, at), std::move(value), at.line);
}

ExprPtr Compiler::scriptCall(const std::string& name, std::vector<ExprPtr>& args, const Token& at) {
  const bool line = name == "print" || name == "writeOutputLn";
  if (line || name == "writeOutput") {
    if (args.size() > 1 || (args.empty() && name != "writeOutputLn")) errorAt(at, name + " takes one value");
    if (!args.empty() && args[0]->type().isVoid() && args[0]->type().dims == 0) errorAt(at, "cannot print a void value");
    std::vector<ExprPtr> text;
    if (!args.empty()) text.push_back(concat(std::move(args), at.line));
    return nativeCall(scalar(Base::Void), std::move(text), [line](Exec& ex, std::vector<Value>& v, int) {
      printText(ex, v.empty() ? std::string() : v[0].text, line);
      return Value{};
    }, at.line);
  }
  const auto& functions = script_->functions;
  for (std::size_t i = 0; i < functions.size(); ++i) {
    if (functions[i].name == name) return hostCall(i, args, at);
  }
  return nullptr;
}

ExprPtr Compiler::hostCall(std::size_t function, std::vector<ExprPtr>& args, const Token& at) {
  const HostFunction& f = script_->functions[function];
  const HostSignature* counted = nullptr;
  for (std::size_t s = 0; s < f.signatures.size(); ++s) {
    const HostSignature& sig = f.signatures[s];
    if (sig.parameters.size() != args.size()) continue;
    if (!counted) counted = &sig;
    bool ok = true;
    for (std::size_t i = 0; i < args.size(); ++i) ok = ok && fits(sig.parameters[i], args[i]->type());
    if (!ok) continue;
    std::vector<ExprPtr> values;
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (sig.parameters[i].anyValue) {
        std::vector<ExprPtr> one;
        one.push_back(std::move(args[i]));
        values.push_back(concat(std::move(one), at.line));
      } else {
        const Token argAt = tokenAt(*args[i]);
        values.push_back(convert(std::move(args[i]), sig.parameters[i].type, argAt, "the argument"));
      }
    }
    HostCallSite site{f.name, !values.empty() && values[0]->constant() && values[0]->type().isString(), ""};
    if (site.constantFirst) {
      Exec none;
      site.first = values[0]->text(none);
    }
    calls_->push_back(site);
    const HostCall* call = &script_->call;  // the setup outlives the compiled code (ScriptSession)
    StatementCount* count = count_;
    return nativeCall(sig.result, std::move(values), [call, count, function, s](Exec&, std::vector<Value>& v, int position) {
      try {
        return (*call)(function, s, v);
      } catch (const HostFailure& failure) {
        // A simulation stopped by Ctrl-C fails its call: the script ends as interrupted.
        if (count->interrupt && __atomic_load_n(count->interrupt, __ATOMIC_RELAXED) != 0) {
          count->stopped = "interrupted";
          fail("interrupted by Ctrl-C", position);
        }
        fail(failure.message, position);
      }
    }, at.line);
  }
  if (!counted) {
    errorAt(at, f.name + " expects " + signatureText(f.name, f.signatures.front()) + ", got " + std::to_string(args.size()) + " argument" +
                    (args.size() == 1 ? "" : "s"));
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    const HostParameter& p = counted->parameters[i];
    if (!fits(p, args[i]->type())) {
      errorAt(tokenAt(*args[i]), "argument " + std::to_string(i + 1) + " of " + f.name + " must be " + typeName(p.type) + ", found " +
                                     typeName(args[i]->type()));
    }
  }
  errorAt(at, "no overload of " + f.name + " takes these arguments");
}

}  // namespace pesim::java
