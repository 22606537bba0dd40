// Lookup of the control block descriptors (see catalog.hpp).
#include "control/catalog.hpp"

#include <unordered_map>

namespace pesim {

const BlockDescriptor* findBlockType(const std::string& type) {
  // Built once, on first use (thread-safe), and never changed after.
  static const std::unordered_map<std::string, const BlockDescriptor*> kByType = [] {
    std::unordered_map<std::string, const BlockDescriptor*> byType;
    for (BlockFamily family : {sourceBlocks(), algebraicBlocks(), dynamicBlocks(), sampledBlocks(), recordedBlocks(),
                               meterBlocks(), multiOutputBlocks(), thermalBlocks(), receiverBlocks(), codeBlocks()}) {
      for (std::size_t i = 0; i < family.count; ++i) byType.emplace(family.first[i].type, &family.first[i]);
    }
    return byType;
  }();
  auto it = kByType.find(type);
  return it == kByType.end() ? nullptr : it->second;
}

}  // namespace pesim
