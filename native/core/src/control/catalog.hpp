// The control block types: one descriptor per type (its netlist name, whether it takes inputs, its
// output count and its factory), registered by the file that defines the block's class in its
// family's list below. ControlSystem looks types up here; adding a block type is its class and its
// descriptor in one family file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "control/block.hpp"

namespace pesim {

// What a block factory receives: the block's netlist entry with its signals resolved, and the run.
struct BlockArgs {
  const std::string& type;
  const std::string& name;
  const Params& params;
  std::vector<int> inputs;
  std::vector<int> outputs;
  const CircuitLookup& circuit;
  double dt;
  std::uint64_t seed;
  Timing timing;
};

// Output count of a type whose outputs are as many as the netlist lists (JAVA: its code's yOUT).
constexpr int kOutputsAsListed = -1;

struct BlockDescriptor {
  const char* type;
  // False for sources and meters: a netlist that lists inputs for them is refused. The factories
  // of the others check their input count themselves.
  bool takesInputs;
  int outputs;  // or kOutputsAsListed
  BlockPtr (*make)(BlockArgs& args);  // throws pesim::Error
};

// A family's descriptors: a static table of the file that registers them.
struct BlockFamily {
  const BlockDescriptor* first;
  std::size_t count;
};

template <std::size_t N>
constexpr BlockFamily blockFamily(const BlockDescriptor (&table)[N]) {
  return {table, N};
}

// The families, each defined beside its classes.
BlockFamily sourceBlocks();       // sources.cpp: SIGNAL, CONST, TIME
BlockFamily algebraicBlocks();    // algebraic.cpp: arithmetic, functions, logic, GATE, SCOPE
BlockFamily dynamicBlocks();      // dynamic.cpp: PI, PT1, PT2, INT, DELAY, TF
BlockFamily sampledBlocks();      // sampled.cpp: COUNTER, SAMPLEHOLD, PD
BlockFamily recordedBlocks();     // recorded.cpp: PWL, RANDOM
BlockFamily meterBlocks();        // meters.cpp: VOLT, AMP, MACHINE
BlockFamily multiOutputBlocks();  // multi_output.cpp: THYRISTOR_CONTROL, ABCDQ, DQABC, SPARSEMATRIX
BlockFamily thermalBlocks();      // thermal/blocks.cpp: TEMP, FLOW, LOSS
BlockFamily receiverBlocks();     // receiver.cpp: CISPR16
BlockFamily codeBlocks();         // java_block.cpp: JAVA

// The descriptor of a block type, or null when no family registers it.
const BlockDescriptor* findBlockType(const std::string& type);

}  // namespace pesim
