// Sparsity pattern bookkeeping (see pattern.hpp).
#include "mna/pattern.hpp"

namespace pesim {

int Pattern::entry(int row, int col) {
  if (row == kGround || col == kGround) return kNoSlot;
  auto key = std::make_pair(row, col);
  auto it = index_.find(key);
  if (it != index_.end()) return it->second;
  int slot = static_cast<int>(entries_.size());
  index_.emplace(key, slot);
  entries_.push_back(key);
  return slot;
}

}  // namespace pesim
