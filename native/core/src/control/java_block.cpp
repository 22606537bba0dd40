// JAVA: a control block running Java code, GeckoCIRCUITS' Java block (ReglerJavaFunction,
// JavaBlockVector: `double[] calculateYOUT(double[] xIN, double time, double dt)` called every step,
// `init()` before the first; yOUT has one entry per output). Parameters: `code` (the method body),
// `initCode` and `variables` (the class's fields and methods; messages count lines within each, as
// GeckoCIRCUITS' code window does), and `observer` (1: the outputs feed nothing, so code that does not compile or fails while running
// only costs a warning and the block stops). The code is compiled when the netlist is built and
// runs in the interpreter of control/java. Printed lines and GeckoCIRCUITS' test flag become
// warnings of the run.
#include <cmath>
#include <functional>
#include <optional>
#include <vector>

#include "control/catalog.hpp"
#include "control/java/program.hpp"
#include "pesim/errors.hpp"

#if defined(_MSC_VER)
#define PESIM_OUT_OF_LINE __declspec(noinline)
#else
#define PESIM_OUT_OF_LINE __attribute__((noinline))
#endif

namespace pesim {

namespace {

class JavaBlock : public Block {
 public:
  Periodicity periodicity(double /*dt*/) const override {
    return {0.0, 0.0, "the JAVA block '" + name() + "' keeps state the analysis cannot read"};
  }
  JavaBlock(std::string name, std::vector<int> inputs, std::vector<int> outputs, const java::BlockCode& code,
            bool observer, std::uint64_t seed)
      : Block(std::move(name), std::move(inputs), std::move(outputs)), observer_(observer) {
    try {
      program_.emplace(code, this->inputs().size(), this->outputs().size());
    } catch (const java::CodeError& e) {
      std::string message = this->name() + ": Java " + e.section + " line " + std::to_string(e.line) + ", column " +
                            std::to_string(e.column) + ": " + e.message;
      if (!observer_) throw Error(ErrorCode::CodeInvalid, message, this->name());
      stopped_ = message + "; its outputs feed nothing, so the block was left out";
      return;
    }
    guarded(0.0, [&] { program_->start(seed ^ std::hash<std::string>{}(this->name())); });
  }

  void evaluate(ControlContext& ctx) override {
    // A step's call of code bound to these signals (bindSignals): the code reads its inputs and
    // its result is written out from where they are.
    if (ctx.signals == inPlace_ && !ctx.initial) {
      try {
        program_->calculateInPlace(ctx.t, ctx.dt);
        publish();
      } catch (const java::CodeFailure& f) {
        failed(ctx.t, f);
      }
      return;
    }
    evaluateOtherwise(ctx);
  }

  // Every other call (the evaluation at t = 0, code not bound in place, a stopped block), out of
  // line: the call above then saves only the registers it uses itself.
  PESIM_OUT_OF_LINE void evaluateOtherwise(ControlContext& ctx) {
    if (!stopped_.empty()) return;
    if (ctx.initial) {
      guarded(ctx.t, [&] { write(ctx, program_->outputs()); });
      return;
    }
    if (ctx.signals != signals_) bindSignals(ctx.signals);
    if (!inputsInPlace_) {
      double* xIn = program_->inputs();
      for (std::size_t i = 0; i < inputs().size(); ++i) xIn[i] = in(ctx, i);
    }
    // guarded() by hand: the step's call stays one frame deep (the catch costs nothing until it runs).
    try {
      const java::Array& values = program_->calculate(ctx.t, ctx.dt);
      if (published_.empty()) write(ctx, values);
      else publish();
    } catch (const java::CodeFailure& f) {
      failed(ctx.t, f);
    }
  }

  void report(std::vector<std::string>& warnings) const override {
    if (program_) {
      const java::Exec& s = program_->state();
      for (const auto& line : s.printed) warnings.push_back(name() + " printed: " + line);
      if (!s.pendingLine.empty()) warnings.push_back(name() + " printed: " + s.pendingLine);
      if (s.printedDropped > 0) {
        warnings.push_back(name() + ": " + std::to_string(s.printedDropped) + " more printed line(s) not kept");
      }
      if (s.testPassed) {
        warnings.push_back(name() + ": the code reported its check passed (gecko.GeckoSim._testSuccessful) at t = " +
                           formatTime(s.testPassedAt) + " s");
      }
    }
    if (!stopped_.empty()) warnings.push_back(stopped_);
  }

 private:
  // Runs `body`, turning an exception of the code into an engine error at time t (a warning and
  // a stopped block for an observer).
  template <class Body>
  void guarded(double t, Body body) {
    try {
      body();
    } catch (const java::CodeFailure& f) {
      failed(t, f);
    }
  }
  void failed(double t, const java::CodeFailure& f) {
    std::string where = f.line > 0 ? " (line " + std::to_string(f.line) + ")" : "";
    std::string message = name() + ": the Java code failed at t = " + formatTime(t) + " s" + where + ": " + f.message;
    if (!observer_) throw Error(ErrorCode::CodeFailed, message, name(), {}, t);
    stopped_ = message + "; its outputs feed nothing, so the block stopped there";
    inPlace_ = nullptr;
  }

  // GeckoCIRCUITS copies min(outputs, returned length) values and refuses NaN outputs.
  void write(ControlContext& ctx, const java::Array& values) {
    std::size_t n = std::min(outputs().size(), values.numbers.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (std::isnan(values.numbers[i])) notANumber(i);
      out(ctx, values.numbers[i], i);
    }
  }
  // write() of the code's fixed result (Program::fixedResult) through the addresses bindSignals took.
  void publish() const {
    for (std::size_t i = 0; i < published_.size(); ++i) {
      const double v = *published_[i].from;
      if (std::isnan(v)) notANumber(i);
      *published_[i].to = v;
    }
  }
  [[noreturn]] static void notANumber(std::size_t i) {
    throw java::CodeFailure{"ArithmeticException: output value yOUT[" + std::to_string(i) + "] is not a number", 0};
  }

  // The signal array of the steps (the same from step to step): the code reads its inputs there when
  // it can (Program::readInputsFrom), and a fixed result's elements are written straight to it.
  void bindSignals(double* signals) {
    signals_ = signals;
    std::vector<const double*> sources;
    for (int s : inputs()) sources.push_back(signals + s);
    inputsInPlace_ = program_->readInputsFrom(sources);
    published_.clear();
    if (const java::Array* result = program_->fixedResult()) {
      const std::size_t n = std::min(outputs().size(), result->numbers.size());
      for (std::size_t i = 0; i < n; ++i) published_.push_back({&result->numbers[i], signals + output(i)});
    }
    inPlace_ = inputsInPlace_ && program_->runsInPlace() ? signals : nullptr;
  }

  bool observer_;
  std::optional<java::Program> program_;
  std::string stopped_;  // why the block no longer runs (observers only)
  double* signals_ = nullptr;   // the signal array bindSignals bound to
  bool inputsInPlace_ = false;  // the code reads its inputs in signals_ (no copy into xIN)
  double* inPlace_ = nullptr;   // signals_ when the code runs in place there (Program::runsInPlace)
  // A fixed result's elements and the signals they are written to, in output order.
  struct Published {
    const double* from;
    double* to;
  };
  std::vector<Published> published_;
};

BlockPtr javaBlock(BlockArgs& a) {
  java::BlockCode code{a.params.text("code"), a.params.text("initCode", ""), a.params.text("variables", "")};
  bool observer = a.params.number("observer", 0) != 0;
  return std::make_unique<JavaBlock>(a.name, std::move(a.inputs), std::move(a.outputs), code, observer, a.seed);
}

const BlockDescriptor kCodeBlocks[] = {
    {"JAVA", true, kOutputsAsListed, javaBlock},
};

}  // namespace

BlockFamily codeBlocks() { return blockFamily(kCodeBlocks); }

}  // namespace pesim
