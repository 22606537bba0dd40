// The sparsity pattern of the MNA matrix: the union of every entry any element may touch in any
// state. Elements ask for slots once at load time and stamp values through them afterwards, so
// assembling a matrix for a new switch state is a walk over a flat array.
#pragma once

#include <map>
#include <utility>
#include <vector>

namespace pesim {

constexpr int kGround = -1;  // node index of the reference node
constexpr int kNoSlot = -1;  // slot of an entry in the reference row or column (not stored)

class Pattern {
 public:
  explicit Pattern(int size) : size_(size) {}

  // Slot of entry (row, col); kNoSlot when either index is the reference node.
  int entry(int row, int col);
  int size() const { return size_; }
  const std::vector<std::pair<int, int>>& entries() const { return entries_; }

 private:
  int size_;
  std::map<std::pair<int, int>, int> index_;
  std::vector<std::pair<int, int>> entries_;
};

inline void addAt(double* values, int slot, double value) {
  if (slot != kNoSlot) values[slot] += value;
}

// The four entries a conductance between nodes a and b touches.
struct ConductanceSlots {
  int aa = kNoSlot, ab = kNoSlot, ba = kNoSlot, bb = kNoSlot;

  void declare(Pattern& pattern, int a, int b) {
    aa = pattern.entry(a, a);
    ab = pattern.entry(a, b);
    ba = pattern.entry(b, a);
    bb = pattern.entry(b, b);
  }
  void stamp(double* values, double g) const {
    addAt(values, aa, g);
    addAt(values, ab, -g);
    addAt(values, ba, -g);
    addAt(values, bb, g);
  }
};

// The entries a branch-current unknown k of a branch from a to b touches: KCL columns (a,k), (b,k)
// and the branch row's voltage entries (k,a), (k,b).
struct BranchSlots {
  int ak = kNoSlot, bk = kNoSlot, ka = kNoSlot, kb = kNoSlot;

  void declare(Pattern& pattern, int a, int b, int k) {
    ak = pattern.entry(a, k);
    bk = pattern.entry(b, k);
    ka = pattern.entry(k, a);
    kb = pattern.entry(k, b);
  }
  // Current k leaves node a and enters node b; the branch row reads v(a) − v(b).
  void stamp(double* values) const {
    addAt(values, ak, 1.0);
    addAt(values, bk, -1.0);
    addAt(values, ka, 1.0);
    addAt(values, kb, -1.0);
  }
};

// A current j flowing through an element from node a to node b, as a right-hand-side term.
inline void addSourceCurrent(double* rhs, int a, int b, double j) {
  if (a != kGround) rhs[a] -= j;
  if (b != kGround) rhs[b] += j;
}

inline double nodeVoltage(const double* x, int node) { return node == kGround ? 0.0 : x[node]; }

}  // namespace pesim
