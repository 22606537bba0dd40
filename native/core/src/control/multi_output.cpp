// The control blocks with several outputs: their descriptors (output counts, factories; see
// catalog.hpp) and the lookups of multi_output.hpp.
#include "control/multi_output.hpp"

#include "control/catalog.hpp"
#include "pesim/errors.hpp"

namespace pesim {

namespace {

BlockPtr thyristorControl(BlockArgs& a) {
  requireInputCount(a.name, a.type, a.inputs.size(), 2);
  return makeThyristorControl(a.name, a.params, std::move(a.inputs), std::move(a.outputs));
}

BlockPtr parkTransform(BlockArgs& a) {
  requireInputCount(a.name, a.type, a.inputs.size(), 4);
  return makeParkTransform(a.name, std::move(a.inputs), std::move(a.outputs));
}

BlockPtr inverseParkTransform(BlockArgs& a) {
  requireInputCount(a.name, a.type, a.inputs.size(), 3);
  return makeInverseParkTransform(a.name, std::move(a.inputs), std::move(a.outputs));
}

BlockPtr sparseMatrixModulator(BlockArgs& a) {
  requireInputCount(a.name, a.type, a.inputs.size(), 8);
  return makeSparseMatrixModulator(a.name, std::move(a.inputs), std::move(a.outputs));
}

const BlockDescriptor kMultiOutputBlocks[] = {
    {"THYRISTOR_CONTROL", true, 6, thyristorControl},  // gt_A1, gt_A2, gt_A3, gt_B1, gt_B2, gt_B3
    {"ABCDQ", true, 2, parkTransform},                  // d, q
    {"DQABC", true, 3, inverseParkTransform},           // a, b, c
    {"SPARSEMATRIX", true, 9, sparseMatrixModulator},  // s1+, s2+, s3+, s1-, s2-, s3-, sA, sB, sC
};

// An empty circuit, for makeMultiOutputBlock: these blocks read only their inputs.
class NoCircuit final : public CircuitLookup {
 public:
  const Element* element(const std::string& /*name*/) const override { return nullptr; }
  int node(const std::string& name) const override {
    throw Error(ErrorCode::UnknownReference, "node '" + name + "' does not exist", name);
  }
};

const BlockDescriptor* multiOutputType(const std::string& type) {
  for (const BlockDescriptor& d : kMultiOutputBlocks) {
    if (type == d.type) return &d;
  }
  return nullptr;
}

}  // namespace

BlockFamily multiOutputBlocks() { return blockFamily(kMultiOutputBlocks); }

int multiOutputCount(const std::string& type, const Params& /*params*/) {
  const BlockDescriptor* d = multiOutputType(type);
  return d == nullptr ? -1 : d->outputs;
}

void requireInputCount(const std::string& name, const std::string& type, std::size_t got, std::size_t expected) {
  if (got == expected) return;
  throw Error(ErrorCode::NetlistInvalid,
              name + ": a " + type + " block takes " + std::to_string(expected) + " inputs, got " + std::to_string(got),
              name);
}

BlockPtr makeMultiOutputBlock(const std::string& type, const std::string& name, const Params& params,
                              std::vector<int> inputs, std::vector<int> outputs) {
  const BlockDescriptor* d = multiOutputType(type);
  if (d == nullptr) return nullptr;
  const NoCircuit none;
  BlockArgs args{type, name, params, std::move(inputs), std::move(outputs), none, 0.0, kDefaultSeed, Timing::Exact};
  return d->make(args);
}

}  // namespace pesim
