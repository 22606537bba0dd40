// The compiler's part for a script's file output (file_output.hpp): creating PrintWriter,
// FileWriter and BufferedWriter objects, their methods, and try-with-resources over them.
#include "control/java/file_output.hpp"
#include "control/java/library_values.hpp"

namespace pesim::java {

using namespace library;  // NOLINT: the helpers of the library part

bool Compiler::writerClass(const std::string& name) {
  return name == "PrintWriter" || name == "FileWriter" || name == "BufferedWriter" || name == "Writer";
}

// new FileWriter(path[, append]), new PrintWriter(path), new PrintWriter(writer[, autoFlush]),
// new BufferedWriter(writer): a writer wrapping another is that same writer.
ExprPtr Compiler::newWriter(const Token& at) {
  const std::string cls = next().text;
  if (!script_) errorAt(at, "file output (" + cls + ") is only available in scripts (pesim script), not in Java blocks");
  if (cls == "Writer") errorAt(at, "Writer is abstract: create a PrintWriter, FileWriter or BufferedWriter");
  std::vector<ExprPtr> args = arguments();
  const bool path = !args.empty() && args[0]->type().isString();
  const bool wraps = !args.empty() && args[0]->type().base == Base::Writer && args[0]->type().dims == 0;
  const bool second = args.size() == 2 && args[1]->type().isBoolean();
  const bool ok = (path && (args.size() == 1 || (second && cls == "FileWriter"))) ||
                  (wraps && cls != "FileWriter" && (args.size() == 1 || (second && cls == "PrintWriter")));
  if (!ok) {
    errorAt(at, cls == "FileWriter" ? "new FileWriter takes a file name and optionally append (boolean)"
                                    : "new " + cls + " takes a writer" + (cls == "PrintWriter" ? " or a file name" : std::string()));
  }
  if (wraps) {
    return nativeCall(scalar(Base::Writer), std::move(args), [](Exec&, std::vector<Value>& v, int l) {
      object(v[0], "writer", l);
      return obj(v[0].ref);
    }, at.line);
  }
  const std::string folder = script_->outputDir;
  return nativeCall(scalar(Base::Writer), std::move(args), [folder](Exec&, std::vector<Value>& v, int l) {
    return obj(openWriter(folder, v[0].text, v.size() > 1 && v[1].number != 0.0, l));
  }, at.line);
}

ExprPtr Compiler::writerMethod(ExprPtr writer, const Token& name) {
  std::vector<ExprPtr> args = arguments();
  std::vector<Type> a;
  for (const auto& e : args) a.push_back(e->type());
  auto call = [&](Type result, NativeFn fn) {
    std::vector<ExprPtr> all;
    all.push_back(std::move(writer));
    for (auto& e : args) all.push_back(std::move(e));
    return nativeCall(result, std::move(all), std::move(fn), name.line);
  };
  const std::string& m = name.text;
  auto writes = [&](auto textOf) {
    return call(scalar(Base::Void), [textOf](Exec&, std::vector<Value>& v, int l) {
      writeText(object(v[0], "writer", l), textOf(v, l));
      return Value{};
    });
  };
  if ((m == "print" && a.size() == 1) || (m == "println" && a.size() <= 1) || (m == "append" && a.size() == 1)) {
    if (!a.empty() && a[0].isVoid()) errorAt(name, "cannot print a void value");
    const Type t = a.empty() ? Type{} : a[0];
    const std::string end = m == "println" ? "\n" : "";
    return writes([t, end](std::vector<Value>& v, int) { return (v.size() > 1 ? valueText(t, v[1]) : std::string()) + end; });
  }
  if (m == "newLine" && a.empty()) return writes([](std::vector<Value>&, int) { return std::string("\n"); });
  if (m == "write" && a.size() == 1 && (a[0].isString() || a[0].isIntegral())) {
    const bool character = !a[0].isString();
    return writes([character](std::vector<Value>& v, int l) { return character ? charText(v[1].number) : text(v[1], l); });
  }
  if ((m == "printf" || m == "format") && !a.empty() && a[0].isString()) {
    const std::vector<Type> types = a;
    return call(scalar(Base::Writer), [types](Exec&, std::vector<Value>& v, int l) {
      std::vector<FormatArg> formatArgs;
      for (std::size_t i = 1; i < types.size(); ++i) formatArgs.push_back(formatArg(types[i], v[i + 1]));
      writeText(object(v[0], "writer", l), javaFormat(text(v[1], l), formatArgs, l));
      return obj(v[0].ref);
    });
  }
  if ((m == "flush" || m == "close") && a.empty()) {
    const bool close = m == "close";
    return call(scalar(Base::Void), [close](Exec&, std::vector<Value>& v, int l) {
      const Array& w = object(v[0], "writer", l);
      if (close) closeWriter(w);
      else flushWriter(w);
      return Value{};
    });
  }
  errorAt(name, "unknown method '" + m + "' with " + std::to_string(a.size()) +
                    " argument(s) of a writer (the subset has print, println, printf, format, write, append, newLine, flush, close)");
}

// try (PrintWriter out = new PrintWriter("a.csv"); ...) { body }: the resources are closed after
// the body, in reverse order, however it ends (the try's catches and finally come after).
StmtPtr Compiler::tryResources(std::vector<StmtPtr>& declarations, int line) {
  expect("(", "after 'try'");
  std::vector<Variable> resources;
  do {
    if (isOp(")")) break;
    while (isWord("final")) next();
    const Token typeAt = peek();
    Type type = parseType();
    if (type.base != Base::Writer || type.dims != 0) errorAt(typeAt, "a try resource must be a writer (PrintWriter, FileWriter, BufferedWriter)");
    const Token at = peek();
    identifier("the resource's name");
    expect("=", "after the resource's name");
    ExprPtr value = convert(expression(), type, at, "the resource");
    Variable v = declare(at.text, type, at);
    declarations.push_back(assignInitial(v, std::move(value), at.line));
    resources.push_back(v);
  } while (accept(";"));
  expect(")", "after the try resources");
  StmtPtr body = block();
  std::vector<StmtPtr> closes;
  for (auto r = resources.rbegin(); r != resources.rend(); ++r) {
    std::vector<ExprPtr> writer;
    writer.push_back(variableExpr(*r, line));
    closes.push_back(expressionStatement(nativeCall(scalar(Base::Void), std::move(writer), [](Exec&, std::vector<Value>& v, int) {
      if (v[0].ref) closeWriter(*v[0].ref);
      return Value{};
    }, line), line));
  }
  return tryStatement(std::move(body), {}, blockStatement(std::move(closes), line), line);
}

}  // namespace pesim::java
