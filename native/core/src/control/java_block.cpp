// JAVA: a control block running Java code, GeckoCIRCUITS' Java block (ReglerJavaFunction,
// JavaBlockVector: `double[] calculateYOUT(double[] xIN, double time, double dt)` called every step,
// `init()` before the first; yOUT has one entry per output). Parameters: `code` (the method body),
// `initCode` and `variables` (the class's fields and methods), all optional but `code`. The code
// is compiled when the netlist is built (errors name the block, section, line and column) and runs
// in the interpreter of control/java. Printed lines and GeckoCIRCUITS' test flag become warnings.
#include <cmath>
#include <functional>

#include "control/block.hpp"
#include "control/java/program.hpp"
#include "pesim/errors.hpp"

namespace pesim {

namespace {

class JavaBlock : public Block {
 public:
  JavaBlock(std::string name, std::vector<int> inputs, std::vector<int> outputs, const java::BlockCode& code,
            std::uint64_t seed)
      : Block(std::move(name), std::move(inputs), std::move(outputs)),
        program_(compile(this->name(), code, this->inputs().size(), this->outputs().size())) {
    guarded(0.0, [&] { program_.start(seed ^ std::hash<std::string>{}(this->name())); });
  }

  void evaluate(ControlContext& ctx) override {
    if (ctx.initial) {
      guarded(ctx.t, [&] { write(ctx, program_.outputs()); });
      return;
    }
    for (std::size_t i = 0; i < inputs().size(); ++i) scratch_[i] = in(ctx, i);
    guarded(ctx.t, [&] { write(ctx, program_.calculate(scratch_.data(), ctx.t, ctx.dt)); });
  }

  void report(std::vector<std::string>& warnings) const override {
    const java::Exec& s = program_.state();
    for (const auto& line : s.printed) warnings.push_back(name() + " printed: " + line);
    if (!s.pendingLine.empty()) warnings.push_back(name() + " printed: " + s.pendingLine);
    if (s.printedDropped > 0) {
      warnings.push_back(name() + ": " + std::to_string(s.printedDropped) + " more printed line(s) not kept");
    }
    if (s.testPassed) {
      warnings.push_back(name() + ": the code reported its check passed (gecko.GeckoSim._testSuccessful) at t = " +
                         std::to_string(s.testPassedAt) + " s");
    }
  }

 private:
  static java::Program compile(const std::string& name, const java::BlockCode& code, std::size_t inputs, std::size_t outputs) {
    try {
      return java::Program(code, inputs, outputs);
    } catch (const java::CodeError& e) {
      throw Error(ErrorCode::CodeInvalid,
                  name + ": Java " + e.section + " line " + std::to_string(e.line) + ", column " + std::to_string(e.column) +
                      ": " + e.message,
                  name);
    }
  }

  // Runs `body`, turning an exception of the code into an engine error at time t.
  template <class Body>
  void guarded(double t, Body body) {
    try {
      body();
    } catch (const java::CodeFailure& f) {
      std::string where = f.line > 0 ? " (line " + std::to_string(f.line) + ")" : "";
      throw Error(ErrorCode::CodeFailed, name() + ": the Java code failed at t = " + std::to_string(t) + " s" + where + ": " + f.message,
                  name(), {}, t);
    }
  }

  // GeckoCIRCUITS copies min(outputs, returned length) values and refuses NaN outputs.
  void write(ControlContext& ctx, const java::Array& values) {
    std::size_t n = std::min(outputs().size(), values.numbers.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (std::isnan(values.numbers[i])) {
        throw java::CodeFailure{"ArithmeticException: output value yOUT[" + std::to_string(i) + "] is not a number", 0};
      }
      out(ctx, values.numbers[i], i);
    }
  }

  java::Program program_;
  std::vector<double> scratch_ = std::vector<double>(inputs().size());
};

}  // namespace

BlockPtr makeCodeBlock(const std::string& type, const std::string& name, const Params& params,
                       std::vector<int> inputs, std::vector<int> outputs, std::uint64_t seed) {
  if (type != "JAVA") return nullptr;
  java::BlockCode code{params.text("code"), params.text("initCode", ""), params.text("variables", "")};
  return std::make_unique<JavaBlock>(name, std::move(inputs), std::move(outputs), code, seed);
}

}  // namespace pesim
