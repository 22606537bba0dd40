// Engine errors: every failure the engine reports carries a stable code and, where one is at fault,
// the element or node name and the simulated time. native/addon/errors.cc is the only place that
// turns these into JavaScript errors.
#pragma once

#include <limits>
#include <stdexcept>
#include <string>

namespace pesim {

enum class ErrorCode {
  NetlistInvalid,        // malformed netlist structure (duplicate names, wrong terminal count, ...)
  UnknownElementType,    // element or control block type the engine does not know
  MissingParameter,      // a required parameter is absent
  ParameterOutOfRange,   // a parameter is present but outside its valid range
  UnknownReference,      // a name (element, signal, node) that the netlist does not define
  FloatingNode,          // a node with no element that can define its potential
  VoltageSourceLoop,     // a loop made only of voltage-defining branches
  CurrentSourceCutset,   // nodes connected to the rest of the circuit only through current sources
  AlgebraicLoop,         // control blocks that depend on each other within one step
  SingularMatrix,        // the system matrix has no unique solution at time t
  SwitchIterationLimit,  // switch states did not settle within the iteration limit at time t
  Cancelled,             // the run was cancelled through its control buffer
  AnalysisInvalid,       // signal-analysis input out of its domain (empty, non-finite, bad rate, ...)
  EncodeInvalid,         // result-file encoder input out of its domain (column count, codec, ...)
  CodeInvalid,           // the code of a JAVA block does not compile (section, line and column named)
  CodeFailed,            // the code of a JAVA block threw during the run (index out of bounds, / by zero, NaN output)
  SteadyStateUnsupported,  // no periodic steady state to look for (no periodic source, a source that never repeats, ...)
};

// The code as the string JavaScript sees in `error.code`.
const char* errorCodeName(ErrorCode code);

// A simulated time as messages write it: %.9g, without a unit ("1e-05", "0.005").
std::string formatTime(double t);

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message, std::string element = {}, std::string node = {},
        double time = std::numeric_limits<double>::quiet_NaN())
      : std::runtime_error(message),
        code_(code),
        element_(std::move(element)),
        node_(std::move(node)),
        time_(time) {}

  ErrorCode code() const { return code_; }
  const std::string& element() const { return element_; }  // empty when no element is at fault
  const std::string& node() const { return node_; }        // empty when no node is at fault
  double time() const { return time_; }                    // NaN when not during a run

 private:
  ErrorCode code_;
  std::string element_;
  std::string node_;
  double time_;
};

// A parameter of an element or block that is out of range or of the wrong kind: `element` names the
// owner, `parameter()` the parameter (the service maps it back to a request's override key).
class ParameterError : public Error {
 public:
  ParameterError(ErrorCode code, const std::string& message, std::string element, std::string parameter)
      : Error(code, message, std::move(element)), parameter_(std::move(parameter)) {}
  const std::string& parameter() const { return parameter_; }

 private:
  std::string parameter_;
};

// Input of a computation (not of a netlist) that is out of its domain; `field` names the argument.
class InputError : public Error {
 public:
  InputError(ErrorCode code, std::string field, const std::string& message)
      : Error(code, message), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

}  // namespace pesim
