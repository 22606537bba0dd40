// Scripts (`pesim script`, GeckoSCRIPT) in the Java subset of Java blocks: the same lexer, compiler
// and nodes, with what a script adds. A script is a sequence of statements and declarations with
// no class around them; its outermost variables are fields, so that they stay defined from one
// compiled piece to the next (GeckoSCRIPT declarations, then its code; one prompt input after
// another). `var x = ...;` and a plain assignment to a new name (`x = 0.5;`) declare a variable
// with the type of its value; `return;` ends the script; `import` lines are skipped. The functions a
// script calls beyond the Java library (loadCircuit, runSimulation, ...) are host functions: the
// embedding program lists them with their signatures and answers their calls. Every executed
// statement counts against the script's bound; the interrupt flag is read with that count.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "control/java/nodes.hpp"
#include "pesim/script.hpp"

namespace pesim::java {

// A parameter of a host function: its type, or any value (`Object`: the call passes its text, as
// String.valueOf writes it).
struct HostParameter {
  Type type;
  bool anyValue = false;
};
struct HostSignature {
  std::vector<HostParameter> parameters;
  Type result;
  bool inPlace = false;  // script::HostSignature::inPlace
};
struct HostFunction {
  std::string name;
  std::vector<HostSignature> signatures;  // overloads, tried in order
};
// Calls host function `function` by its overload `signature`; throws script::HostFailure.
using HostCall = std::function<Value(std::size_t function, std::size_t signature, std::vector<Value>& arguments)>;

// pesim::script::Setup with the signatures' types read.
struct ScriptSetup {
  std::vector<HostFunction> functions;
  std::vector<std::string> unsupported;
  HostCall call;
  std::function<void(const std::string&)> write;
  long long maxSteps = 0;
  const std::int32_t* interrupt = nullptr;
  std::string outputDir = ".";
};

constexpr long long kInterruptInterval = 1024;

using ScriptPart = script::Part;
using HostCallSite = script::CallSite;
using HostFailure = script::HostFailure;

// Positions of script tokens: a node's `line` holds line and column (run-time failures name both).
constexpr int kColumnSpan = 4096;
inline int scriptPosition(int line, int column) { return line * kColumnSpan + (column < kColumnSpan ? column : kColumnSpan - 1); }

// Executed statements and the checks made with them (shared by the statement nodes of a session).
struct StatementCount {
  long long steps = 0;
  long long nextCheck = 0;
  long long limit = 0;  // 0: none
  const std::int32_t* interrupt = nullptr;
  const char* stopped = nullptr;  // "step-limit" or "interrupted" once a check stopped the run
  void check(int position);
};
// The statement counted before it runs.
StmtPtr countedStatement(StmtPtr statement, StatementCount* count);

}  // namespace pesim::java
