// The state of a run (Transient::visitState) copied into one vector of doubles, and back.
#pragma once

#include <cstddef>
#include <vector>

#include "steady/state_visitor.hpp"

namespace pesim {

struct Snapshot {
  std::vector<double> values;
  std::vector<std::size_t> unknowns;  // positions of the real() values
  std::vector<std::size_t> times;     // positions of the time() values
};

// Appends every visited value.
class SnapshotReader final : public StateVisitor {
 public:
  explicit SnapshotReader(Snapshot& out) : out_(out) { out_ = Snapshot{}; }
  void real(double& v) override {
    out_.unknowns.push_back(out_.values.size());
    out_.values.push_back(v);
  }
  void held(double& v) override { out_.values.push_back(v); }
  void held(int& v) override { out_.values.push_back(static_cast<double>(v)); }
  void held(long& v) override { out_.values.push_back(static_cast<double>(v)); }
  void held(bool& v) override { out_.values.push_back(v ? 1.0 : 0.0); }
  void time(double& v) override {
    out_.times.push_back(out_.values.size());
    out_.values.push_back(v);
  }

 private:
  Snapshot& out_;
};

// Sets every visited value from a snapshot of the same run, in the same order.
class SnapshotWriter final : public StateVisitor {
 public:
  explicit SnapshotWriter(const Snapshot& in) : in_(in) {}
  void real(double& v) override { v = next(); }
  void held(double& v) override { v = next(); }
  void held(int& v) override { v = static_cast<int>(next()); }
  void held(long& v) override { v = static_cast<long>(next()); }
  void held(bool& v) override { v = next() != 0.0; }
  void time(double& v) override { v = next(); }

 private:
  double next() { return in_.values.at(position_++); }
  const Snapshot& in_;
  std::size_t position_ = 0;
};

}  // namespace pesim
