// A compiled Java block ready to run: its class state (fields, printed lines) and the calls the
// simulation makes, as GeckoCIRCUITS JavaBlockVector does: field initializers and init() before
// the first step, then calculateYOUT(xIN, time, dt) once per step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "control/java/compiler.hpp"

namespace pesim::java {

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
  const Array& calculate(double time, double dt);
  // The current contents of yOUT (outputs before the first step).
  const Array& outputs() const { return *exec_.fieldArrays[static_cast<std::size_t>(compiled_.yOutSlot)]; }
  const Exec& state() const { return exec_; }
  const CompiledClass& compiled() const { return compiled_; }
  // The code calculate() runs after start() when its fixed arrays are bound (bindFixedArrays), else null.
  const Bytecode* boundCalculate() const { return boundCalculate_.get(); }

 private:
  void run(const Method& m, Frame& frame);

  CompiledClass compiled_;
  Exec exec_;
  Frame calcFrame_;
  ArrayRef xIn_;
  ArrayRef result_;
  std::shared_ptr<const Bytecode> boundCalculate_;
  std::size_t outputCount_;
};

// Loop iterations and calls allowed in one call of the code.
constexpr long long kStepBudget = 20'000'000;

}  // namespace pesim::java
