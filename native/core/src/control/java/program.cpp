// Running a compiled Java block (see program.hpp).
#include "control/java/program.hpp"

#include "control/java/bytecode.hpp"

#include <utility>

namespace pesim::java {

Program::Program(const BlockCode& code, std::size_t inputs, std::size_t outputs, Execution execution)
    : compiled_(compileBlock(code, static_cast<int>(outputs))), outputCount_(outputs) {
  if (execution == Execution::Nodes) {
    for (auto& m : compiled_.methods) m->code.reset();
  }
  exec_.fieldNumbers.assign(static_cast<std::size_t>(compiled_.fieldNumbers), 0.0);
  exec_.fieldArrays.resize(static_cast<std::size_t>(compiled_.fieldArrays));
  exec_.fieldStrings.resize(static_cast<std::size_t>(compiled_.fieldStrings));
  xIn_ = std::make_shared<Array>();
  xIn_->numbers.assign(inputs, 0.0);
}

void Program::run(const Method& m, Frame& frame) {
  exec_.budget = kStepBudget;
  exec_.depth = 0;
  invoke(exec_, m, frame);
}

void Program::start(std::uint64_t seed) {
  exec_.random = seed == 0 ? 0x9E3779B97F4A7C15ULL : seed;
  auto yOut = std::make_shared<Array>();
  yOut->numbers.assign(outputCount_, 0.0);
  exec_.fieldArrays[static_cast<std::size_t>(compiled_.yOutSlot)] = yOut;
  Frame fields = frameFor(*compiled_.fieldInit);
  run(*compiled_.fieldInit, fields);
  Frame init = frameFor(*compiled_.init);
  run(*compiled_.init, init);
  calcFrame_ = frameFor(*compiled_.calculate);
  // From here on only calculate() runs: xIN is ours in every call (frame slot 0) and the fields hold
  // their arrays unless the code assigns them (which bindFixedArrays sees).
  boundCalculate_.reset();
  fixed_ = FixedArrays{};
  if (compiled_.calculate->code) {
    fixed_.frame.assign(calcFrame_.arrays.size(), nullptr);
    if (!fixed_.frame.empty()) fixed_.frame[0] = xIn_.get();
    for (const ArrayRef& a : exec_.fieldArrays) fixed_.fields.push_back(a.get());
    fixed_.frameNumbers = calcFrame_.numbers.data();
    fixed_.fieldNumbers = exec_.fieldNumbers.data();
    fixed_.frameSlots = static_cast<std::uint32_t>(calcFrame_.numbers.size());
    fixed_.result = makeReg(Space::Field, static_cast<std::uint32_t>(compiled_.yOutSlot));  // calculateBound reads yOUT after a Return
    boundCalculate_ = bindFixedArrays(*compiled_.calculate->code, fixed_);
  }
  const auto yOutSlot = static_cast<std::uint32_t>(compiled_.yOutSlot);
  fixedResult_ = boundCalculate_ && returnsOnlyField(*boundCalculate_, makeReg(Space::Field, yOutSlot))
                     ? exec_.fieldArrays[yOutSlot].get()
                     : nullptr;
  // What calculateBound leaves as it is: the bound code sets no returned array or number.
  exec_.returnArray.reset();
  exec_.returnHeld = nullptr;
  exec_.returnNumber = 0.0;
  result_.reset();
}

bool Program::readInputsFrom(const std::vector<const double*>& sources) {
  if (!boundCalculate_ || sources.size() != xIn_->numbers.size()) return false;
  // Bound again from the code as lowered: the fields it never writes still hold what they held at
  // start(), and what the bound code keeps between calls (DivKept) only spares work.
  FixedArrays fixed = fixed_;
  fixed.inputs = sources;
  std::shared_ptr<const Bytecode> bound = bindFixedArrays(*compiled_.calculate->code, fixed);
  if (!bound || !bound->inputsInPlace) {
    if (boundCalculate_->inputsInPlace) boundCalculate_ = bindFixedArrays(*compiled_.calculate->code, fixed_);
    return false;
  }
  boundCalculate_ = std::move(bound);
  return true;
}

const Array& Program::calculateUnbound(double time, double dt) {
  // The code may have assigned another array to xIN (an ordinary parameter): it gets ours again.
  if (calcFrame_.arrays[0] != xIn_) calcFrame_.arrays[0] = xIn_;
  exec_.time = time;
  exec_.dt = dt;
  run(*compiled_.calculate, calcFrame_);
  releaseLocalArrays();
  // A returned field (commonly yOUT) is read in place: it holds its array until the next call.
  const Array* values = nullptr;
  if (const ArrayRef* held = std::exchange(exec_.returnHeld, nullptr)) {
    result_.reset();
    values = held->get();
  } else if (exec_.returnArray) {
    result_ = std::move(exec_.returnArray);
    values = result_.get();
  } else {
    result_.reset();
    values = exec_.fieldArrays[static_cast<std::size_t>(compiled_.yOutSlot)].get();
  }
  if (values == nullptr) nullOutputs();
  return *values;
}

void Program::releaseLocalArrays() {
  // Arrays the code builds every step are then held by nothing but the node that made them, which
  // renews them next time (nodes_expr.cpp).
  for (std::size_t i = 1; i < calcFrame_.arrays.size(); ++i) calcFrame_.arrays[i].reset();
}

void Program::nullOutputs() { throw CodeFailure{"NullPointerException: yOUT is null", 0}; }

}  // namespace pesim::java
