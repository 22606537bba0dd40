// Registry of the control blocks with several outputs: output counts per type and dispatch to the
// factories (see multi_output.hpp).
#include "control/multi_output.hpp"

#include "pesim/errors.hpp"

namespace pesim {

int multiOutputCount(const std::string& type, const Params& /*params*/) {
  if (type == "THYRISTOR_CONTROL") return 6;  // gt_A1, gt_A2, gt_A3, gt_B1, gt_B2, gt_B3
  if (type == "ABCDQ") return 2;              // d, q
  if (type == "DQABC") return 3;              // a, b, c
  if (type == "SPARSEMATRIX") return 9;       // s1+, s2+, s3+, s1-, s2-, s3-, sA, sB, sC
  return -1;
}

void requireInputCount(const std::string& name, const std::string& type, std::size_t got, std::size_t expected) {
  if (got == expected) return;
  throw Error(ErrorCode::NetlistInvalid,
              name + ": a " + type + " block takes " + std::to_string(expected) + " inputs, got " + std::to_string(got),
              name);
}

BlockPtr makeMultiOutputBlock(const std::string& type, const std::string& name, const Params& params,
                              std::vector<int> inputs, std::vector<int> outputs) {
  if (type == "THYRISTOR_CONTROL") {
    requireInputCount(name, type, inputs.size(), 2);
    return makeThyristorControl(name, params, std::move(inputs), std::move(outputs));
  }
  if (type == "ABCDQ") {
    requireInputCount(name, type, inputs.size(), 4);
    return makeParkTransform(name, std::move(inputs), std::move(outputs));
  }
  if (type == "DQABC") {
    requireInputCount(name, type, inputs.size(), 3);
    return makeInverseParkTransform(name, std::move(inputs), std::move(outputs));
  }
  if (type == "SPARSEMATRIX") {
    requireInputCount(name, type, inputs.size(), 8);
    return makeSparseMatrixModulator(name, std::move(inputs), std::move(outputs));
  }
  return nullptr;
}

}  // namespace pesim
