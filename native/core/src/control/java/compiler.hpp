// Compiles the code of a GeckoCIRCUITS Java block (its class fields, `init()` body and
// `calculateYOUT` body; GeckoCIRCUITS SourceFileGenerator builds the same class from them) into
// executable nodes. The language is the Java subset listed in docs/scripting.md: the primitive
// types, String, arrays, java.util lists and maps of boxed numbers or Strings, StringBuilder, the
// JDK's exceptions with try/catch/finally/throw, fields and methods of the block's class, every
// statement but labels, the operators, java.lang.Math, Integer/Double parsing and boxing,
// String.format and printf, Arrays and Collections helpers, System.out printing, and
// GeckoCIRCUITS' test flag `gecko.GeckoSim._testSuccessful`. Anything else is a CodeError naming
// the construct, the line and the column.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "control/java/lexer.hpp"
#include "control/java/nodes.hpp"

namespace pesim::java {

struct BlockCode {
  std::string code;        // body of calculateYOUT(double[] xIN, double time, double dt)
  std::string initCode;    // body of init(), run once before the first step
  std::string variables;   // class body: fields and methods
};

struct CompiledClass {
  std::vector<std::unique_ptr<Method>> methods;  // user methods and the three below
  const Method* fieldInit = nullptr;             // field initializers, in declaration order
  const Method* init = nullptr;
  const Method* calculate = nullptr;             // its array slot 0 holds xIN
  int fieldNumbers = 0;
  int fieldArrays = 0;
  int fieldStrings = 0;
  int yOutSlot = 0;                              // field array slot of yOUT
};

// Throws CodeError.
CompiledClass compileBlock(const BlockCode& code, int outputs);

}  // namespace pesim::java
