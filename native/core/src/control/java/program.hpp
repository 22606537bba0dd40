// A compiled Java block ready to run: its class state (fields, printed lines) and the calls the
// simulation makes, as GeckoCIRCUITS JavaBlockVector does: field initializers and init() before
// the first step, then calculateYOUT(xIN, time, dt) once per step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "control/java/bytecode.hpp"
#include "control/java/compiler.hpp"

namespace pesim::java {

// Loop iterations and calls allowed in one call of the code.
constexpr long long kStepBudget = 20'000'000;

class Program {
 public:
  // How the methods run: as their bytecode (bytecode.hpp), or through their nodes (the reference
  // the bytecode is tested against).
  enum class Execution { Bytecode, Nodes };
  // Throws CodeError.
  Program(const BlockCode& code, std::size_t inputs, std::size_t outputs, Execution execution = Execution::Bytecode);

  // Field initializers and init(); throws CodeFailure.
  void start(std::uint64_t seed);
  // The values of xIN for the next call (one per input).
  double* inputs() { return xIn_->numbers.data(); }
  // One call of calculateYOUT with the inputs set through inputs(); the returned array (yOUT
  // unless the code returns another one) stays valid until the next call. Throws CodeFailure.
  const Array& calculate(double time, double dt) {
    return boundCalculate_ ? calculateBound(time, dt) : calculateUnbound(time, dt);
  }
  // The current contents of yOUT (outputs before the first step).
  const Array& outputs() const { return *exec_.fieldArrays[static_cast<std::size_t>(compiled_.yOutSlot)]; }
  const Exec& state() const { return exec_; }
  const CompiledClass& compiled() const { return compiled_; }
  // The code calculate() runs after start() when its fixed arrays are bound (bindFixedArrays), else null.
  const Bytecode* boundCalculate() const { return boundCalculate_.get(); }
  // After start(): binds the code to read xIN[k] at sources[k] (one address per input; the values
  // there are the inputs of every following call and stay put while it runs) instead of from
  // inputs(). True when the code is bound that way (it reads xIN only at constant indices within
  // its length: Bytecode::inputsInPlace); inputs() is then no longer read. False: as before.
  bool readInputsFrom(const std::vector<const double*>& sources);
  // The array every call returns when that is known after start() (yOUT, which the bound code
  // returns and never assigns), else null.
  const Array* fixedResult() const { return fixedResult_; }
  // True when the code reads its inputs in place (readInputsFrom), returns fixedResult() and
  // addresses its operands directly: calculateInPlace() then runs its calls.
  bool runsInPlace() const {
    return boundCalculate_ && boundCalculate_->inputsInPlace && boundCalculate_->directBase != nullptr &&
           fixedResult_ != nullptr;
  }
  // calculate() when runsInPlace(), its result fixedResult(): what calculateBound does that such
  // code needs (its xIN is never assigned and never read; it ends with a Return, after which the
  // caller reads yOUT).
  void calculateInPlace(double time, double dt) {
    exec_.time = time;
    exec_.dt = dt;
    exec_.budget = kStepBudget;
    runDirect(*boundCalculate_, exec_, calcFrame_);
    if (calcFrame_.arrays.size() > 1) releaseLocalArrays();
  }

 private:
  void run(const Method& m, Frame& frame);
  // calculate() through invoke(), with the frame's save and restore.
  const Array& calculateUnbound(double time, double dt);
  // calculate() of the bound code, inline in the block's step (a block's call costs about as much
  // as its code). Bound code runs no node, so it calls no method (Exec::depth), sets neither
  // returnArray nor returnNumber (start() clears them) and needs no Exec::frame: what it needs is
  // the time, the step, its budget and xIN, and it returns a field held (ReturnHeld) or yOUT.
  const Array& calculateBound(double time, double dt) {
    // The code may have assigned another array to xIN (an ordinary parameter): it gets ours again.
    if (calcFrame_.arrays[0].get() != xIn_.get()) calcFrame_.arrays[0] = xIn_;
    exec_.time = time;
    exec_.dt = dt;
    exec_.budget = kStepBudget;
    execute(*boundCalculate_, exec_, calcFrame_);
    if (calcFrame_.arrays.size() > 1) releaseLocalArrays();
    const ArrayRef* held = exec_.returnHeld;
    exec_.returnHeld = nullptr;
    if (fixedResult_ != nullptr) return *fixedResult_;
    const Array* values = (held != nullptr ? *held : exec_.fieldArrays[static_cast<std::size_t>(compiled_.yOutSlot)]).get();
    if (values == nullptr) nullOutputs();
    return *values;
  }
  // The call's local arrays end with it, as in Java (all but xIN, frame slot 0).
  void releaseLocalArrays();
  [[noreturn]] static void nullOutputs();

  CompiledClass compiled_;
  Exec exec_;
  Frame calcFrame_;
  ArrayRef xIn_;
  ArrayRef result_;
  std::shared_ptr<const Bytecode> boundCalculate_;
  // What the code was bound with in start() (see bindFixedArrays).
  FixedArrays fixed_;
  // The array every call of the bound code returns, when that is known at start() (yOUT, which the
  // code returns and never assigns): read without waiting for the code's own answer.
  const Array* fixedResult_ = nullptr;
  std::size_t outputCount_;
};


}  // namespace pesim::java
