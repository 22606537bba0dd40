// Names of error codes and solver methods as the JavaScript side sees them; times in messages.
#include "pesim/errors.hpp"

#include <cstdio>

#include "pesim/netlist.hpp"

namespace pesim {

std::string formatTime(double t) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", t);
  return buffer;
}

const char* errorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::NetlistInvalid: return "NETLIST_INVALID";
    case ErrorCode::UnknownElementType: return "UNKNOWN_ELEMENT_TYPE";
    case ErrorCode::MissingParameter: return "MISSING_PARAMETER";
    case ErrorCode::ParameterOutOfRange: return "PARAMETER_OUT_OF_RANGE";
    case ErrorCode::UnknownReference: return "UNKNOWN_REFERENCE";
    case ErrorCode::FloatingNode: return "FLOATING_NODE";
    case ErrorCode::VoltageSourceLoop: return "VOLTAGE_SOURCE_LOOP";
    case ErrorCode::CurrentSourceCutset: return "CURRENT_SOURCE_CUTSET";
    case ErrorCode::AlgebraicLoop: return "ALGEBRAIC_LOOP";
    case ErrorCode::SingularMatrix: return "SINGULAR_MATRIX";
    case ErrorCode::SwitchIterationLimit: return "SWITCH_ITERATION_LIMIT";
    case ErrorCode::Cancelled: return "CANCELLED";
    case ErrorCode::AnalysisInvalid: return "ANALYSIS_INVALID";
    case ErrorCode::EncodeInvalid: return "ENCODE_INVALID";
    case ErrorCode::CodeInvalid: return "CODE_INVALID";
    case ErrorCode::CodeFailed: return "CODE_FAILED";
    case ErrorCode::SteadyStateUnsupported: return "STEADY_STATE_UNSUPPORTED";
  }
  return "ENGINE_ERROR";
}

const char* methodName(Method method) {
  switch (method) {
    case Method::BackwardEuler: return "backward-euler";
    case Method::Trapezoidal: return "trapezoidal";
    case Method::Gear: return "gear-shichman";
  }
  return "unknown";
}

}  // namespace pesim
