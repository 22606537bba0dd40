// Script sessions (pesim/script.hpp, control/java/script.hpp): compiling pieces of a script,
// running them with the statement count, errors with their line and column, and host calls.
#include "control/java/script.hpp"

#include "control/java/bytecode.hpp"

#include <limits>
#include <stdexcept>

#include "control/java/compiler_state.hpp"

namespace pesim::java {

void StatementCount::check(int position) {
  if (limit > 0 && steps > limit) {
    stopped = "step-limit";
    fail("the script exceeded the limit of " + std::to_string(limit) + " statements (--max-steps)", position);
  }
  if (interrupt && __atomic_load_n(interrupt, __ATOMIC_RELAXED) != 0) {
    stopped = "interrupted";
    fail("interrupted by Ctrl-C", position);
  }
  nextCheck = steps + kInterruptInterval;
  if (limit > 0 && nextCheck > limit + 1) nextCheck = limit + 1;
}

namespace {

class Counted : public Stmt {
 public:
  Counted(StmtPtr statement, StatementCount* count) : Stmt(statement->line()), statement_(std::move(statement)), count_(count) {}
  Flow run(Exec& ex) const override {
    if (++count_->steps >= count_->nextCheck) count_->check(line());
    return statement_->run(ex);
  }
  void lower(Lowering& lw) const override {
    Instr i;
    i.code = Code::Count;
    i.line = line();
    i.node = count_;
    lw.emit(i);
    lw.statement(*statement_);
  }

 private:
  StmtPtr statement_;
  StatementCount* count_;
};

script::Error positioned(const char* kind, const std::string& message, int position) {
  return script::Error{kind, message, position / kColumnSpan, position % kColumnSpan};
}

// A parameter typed float takes Java's float values and arrays (GeckoSCRIPT's float[][] matrix);
// float results read as double (float[] results as double[]).
HostParameter typeNamed(const std::string& full) {
  std::string name = full;
  int dims = 0;
  while (name.size() > 2 && name.compare(name.size() - 2, 2, "[]") == 0) {
    name.resize(name.size() - 2);
    ++dims;
  }
  HostParameter p;
  p.anyValue = name == "Object" && dims == 0;
  Base base = Base::Void;
  if (name == "float") base = Base::Float;  // float[] getSignalData(…) is assigned to a float[], as in Java
  else if (name == "double") base = Base::Double;
  else if (name == "int") base = Base::Int;
  else if (name == "long") base = Base::Long;
  else if (name == "boolean") base = Base::Boolean;
  else if (name == "String") base = Base::String;
  else if (name != "void" && !p.anyValue) throw std::invalid_argument("unknown type '" + full + "' in a host function's signature");
  p.type = Type{base, dims};
  return p;
}

script::HostValue toHost(const Type& t, const Value& v) {
  script::HostValue out;
  if (t.isArray()) {
    if (!v.ref) {
      out.null = true;
      return out;
    }
    const Array& a = *v.ref;
    for (std::size_t i = 0; i < a.length(); ++i) {
      if (a.ofRows) out.items.push_back(toHost(t.element(), Value{0.0, "", a.rows[i]}));
      else if (a.ofTexts) out.items.push_back(toHost(scalar(Base::String), Value{0.0, a.texts[i], nullptr}));
      else out.items.push_back(toHost(scalar(Base::Double), Value{a.numbers[i], "", nullptr}));
    }
    return out;
  }
  out.null = t.isString() && isNullText(v.text);
  out.text = out.null ? std::string() : v.text;
  out.number = v.number;
  return out;
}

Value fromHost(const Type& t, const script::HostValue& v) {
  Value out;
  if (t.isArray()) {
    if (v.null) return out;
    out.ref = std::make_shared<Array>();
    const Type element = t.element();
    out.ref->ofRows = element.isArray();
    out.ref->ofTexts = element.isString();
    for (const auto& item : v.items) {
      if (element.isArray()) out.ref->rows.push_back(fromHost(element, item).ref);
      else if (element.isString()) out.ref->texts.push_back(item.null ? nullText() : item.text);
      else out.ref->numbers.push_back(item.number);
    }
    return out;
  }
  out.text = t.isString() && v.null ? nullText() : v.text;
  out.number = t.isBoolean() ? (v.number != 0.0 ? 1.0 : 0.0) : v.number;
  return out;
}

ScriptSetup typedSetup(script::Setup setup) {
  ScriptSetup out;
  for (const auto& f : setup.functions) {
    HostFunction h{f.name, {}};
    for (const auto& sig : f.signatures) {
      HostSignature typed;
      typed.result = typeNamed(sig.result).type;
      typed.inPlace = sig.inPlace;
      for (const auto& p : sig.parameters) typed.parameters.push_back(typeNamed(p));
      h.signatures.push_back(std::move(typed));
    }
    out.functions.push_back(std::move(h));
  }
  auto functions = out.functions;
  auto call = std::move(setup.call);
  out.call = [functions, call](std::size_t function, std::size_t signature, std::vector<Value>& args) {
    const HostSignature& sig = functions[function].signatures[signature];
    std::vector<script::HostValue> values;
    for (std::size_t i = 0; i < args.size(); ++i) {
      const HostParameter& p = sig.parameters[i];
      values.push_back(toHost(p.anyValue ? scalar(Base::String) : p.type, args[i]));
    }
    Value result = fromHost(sig.result, call(function, signature, values));
    if (sig.inPlace && !args.empty() && args[0].ref && result.ref) {
      // The caller's array takes the values and is what the call returns, as the Java method
      // returns its own argument.
      args[0].ref->numbers = std::move(result.ref->numbers);
      return args[0];
    }
    return result;
  };
  out.unsupported = std::move(setup.unsupported);
  out.write = std::move(setup.write);
  out.maxSteps = setup.maxSteps;
  out.interrupt = setup.interrupt;
  out.outputDir = std::move(setup.outputDir);
  return out;
}

// The tokens of `source` with their positions in its file (scriptPosition). Throws script::Error.
std::vector<Token> scriptTokens(const script::Source& source) {
  std::vector<Token> tokens;
  try {
    tokens = tokenize(SourceText{source.name, source.text});
  } catch (const CodeError& e) {
    throw script::Error{"syntax", e.message, e.line + source.firstLine - 1, e.column};
  }
  for (Token& t : tokens) t.line = scriptPosition(t.line + source.firstLine - 1, t.column);
  return tokens;
}

// `print(<the tokens>);`: a bare expression at the prompt (its ';' dropped).
std::vector<Token> printed(std::vector<Token> tokens) {
  tokens.pop_back();  // End
  const Token end = tokens.empty() ? Token{} : tokens.back();
  if (!tokens.empty() && tokens.back().kind == Tok::Op && tokens.back().text == ";") tokens.pop_back();
  if (tokens.empty()) return {};
  auto op = [&](const char* text, const Token& at) {
    Token t = at;
    t.kind = Tok::Op;
    t.text = text;
    return t;
  };
  Token print = tokens.front();
  print.kind = Tok::Identifier;
  print.text = "print";
  std::vector<Token> out{print, op("(", print)};
  out.insert(out.end(), tokens.begin(), tokens.end());
  out.push_back(op(")", end));
  out.push_back(op(";", end));
  Token last = end;
  last.kind = Tok::End;
  last.text.clear();
  out.push_back(last);
  return out;
}

script::Error compileError(const CodeError& e) {
  const bool syntax = e.message.rfind("expected", 0) == 0 || e.message.rfind("unexpected", 0) == 0;
  return script::Error{syntax ? "syntax" : "compile", e.message, e.line / kColumnSpan, e.column};
}

}  // namespace

StmtPtr countedStatement(StmtPtr statement, StatementCount* count) { return std::make_unique<Counted>(std::move(statement), count); }

}  // namespace pesim::java

namespace pesim::script {

using java::Compiler;
using java::Method;

struct Session::State {
  java::ScriptSetup setup;
  java::StatementCount count;
  std::unique_ptr<Compiler> compiler;
  std::unique_ptr<Method> pending;             // compiled, not yet run
  std::vector<std::unique_ptr<Method>> kept;   // compiled earlier (their methods stay callable)
  java::Exec exec;
};

Session::Session(Setup setup) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.setup = java::typedSetup(std::move(setup));
  s.count.limit = s.setup.maxSteps;
  s.count.interrupt = s.setup.interrupt;
  s.compiler = std::make_unique<Compiler>(s.setup, &s.count);
  s.exec.write = s.setup.write;
  s.exec.random = 0x9E3779B97F4A7C15ULL;
}

Session::~Session() = default;

long long Session::steps() const { return state_->count.steps; }

std::vector<CallSite> Session::compile(const Source& source, Part part) {
  State& s = *state_;
  s.pending.reset();
  std::vector<java::Token> tokens = java::scriptTokens(source);
  std::vector<CallSite> calls;
  try {
    s.pending = s.compiler->compileScript(tokens, source.name, part == Part::Input ? Part::Statements : part, calls);
  } catch (const java::CodeError& e) {
    std::vector<java::Token> expression = part == Part::Input ? java::printed(tokens) : std::vector<java::Token>{};
    if (expression.empty()) throw java::compileError(e);
    calls.clear();
    try {
      s.pending = s.compiler->compileScript(std::move(expression), source.name, Part::Statements, calls);
    } catch (const java::CodeError&) {
      throw java::compileError(e);
    }
  }
  return calls;
}

void Session::run() {
  State& s = *state_;
  if (!s.pending) return;
  const java::CompiledClass& c = s.compiler->compiled();
  s.exec.fieldNumbers.resize(static_cast<std::size_t>(c.fieldNumbers), 0.0);
  s.exec.fieldArrays.resize(static_cast<std::size_t>(c.fieldArrays));
  s.exec.fieldStrings.resize(static_cast<std::size_t>(c.fieldStrings), java::nullText());
  s.exec.budget = std::numeric_limits<long long>::max();
  s.exec.depth = 0;
  s.count.steps = 0;
  s.count.stopped = nullptr;
  s.count.nextCheck = 0;  // the first statement checks
  java::Frame frame = java::frameFor(*s.pending);
  s.kept.push_back(std::move(s.pending));
  try {
    java::invoke(s.exec, *s.kept.back(), frame);
  } catch (const java::CodeFailure& f) {
    throw java::positioned(s.count.stopped ? s.count.stopped : "runtime", f.message, f.line);
  }
}

}  // namespace pesim::script
