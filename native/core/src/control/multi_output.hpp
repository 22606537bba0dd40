// Control blocks with several outputs (GeckoCIRCUITS blocks whose symbol has more than one output
// terminal): how many outputs each type has, and the factories of the blocks. The netlist lists a
// block's outputs in the order given here for each type.
#pragma once

#include <string>
#include <vector>

#include "control/block.hpp"

namespace pesim {

// Number of outputs of a multi-output block type (its descriptor's, catalog.hpp); -1 when `type` is
// not a multi-output type.
int multiOutputCount(const std::string& type, const Params& params);

// Builds a multi-output block with its descriptor's factory, or returns null when `type` is not
// one. Throws pesim::Error.
BlockPtr makeMultiOutputBlock(const std::string& type, const std::string& name, const Params& params,
                              std::vector<int> inputs, std::vector<int> outputs);

// The factories of the individual types (one file each).
BlockPtr makeThyristorControl(const std::string& name, const Params& params, std::vector<int> inputs,
                              std::vector<int> outputs);
BlockPtr makeParkTransform(const std::string& name, std::vector<int> inputs, std::vector<int> outputs);
BlockPtr makeInverseParkTransform(const std::string& name, std::vector<int> inputs, std::vector<int> outputs);
BlockPtr makeSparseMatrixModulator(const std::string& name, std::vector<int> inputs, std::vector<int> outputs);

// Checks the input count of a multi-output block, naming the block and the expected count.
void requireInputCount(const std::string& name, const std::string& type, std::size_t got, std::size_t expected);

}  // namespace pesim
