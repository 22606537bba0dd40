// The right-hand-side terms fixed by the device states (Transient::solveLinear): the leading run of
// elements whose terms only the device states set (DC sources, forward voltages) is summed once per
// factorisation. A run gives the same results, bit for bit, as one that sums those terms at every
// solve: the same circuit with its DC source written as a constant PWL source (the same value, but
// a time function, so no term is kept).
#include <cstdint>
#include <cstring>
#include <string>

#include "builders.hpp"
#include "harness.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

bool sameChannels(const Result& a, const Result& b) {
  if (a.channels.size() != b.channels.size() || a.channels.empty()) return false;
  for (std::size_t c = 0; c < a.channels.size(); ++c) {
    const auto& x = a.channels[c].values;
    const auto& y = b.channels[c].values;
    if (x.size() != y.size() || x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) != 0) return false;
  }
  return true;
}

// The buck with a diode across the source's output (on at every switching edge) so that device
// states change often, its source as given.
Netlist buckWith(ElementSpec source, Method method) {
  Netlist n = buckConverter(2e-3, method);
  n.elements[0] = std::move(source);
  n.elements.insert(n.elements.begin() + 1, element("D.2", "D", {"sw", "in"}, {{"vf", 0.8}, {"ron", 0.02}}));
  n.settings.maxPoints = 5000;
  return n;
}

}  // namespace

TEST(state_fixed_rhs_terms_give_the_results_of_summing_them_every_solve) {
  ElementSpec dc = element("V.1", "V", {"in", "0"}, {{"value", 48.0}}, {{"waveform", "dc"}});
  ElementSpec pwl = element("V.1", "V", {"in", "0"}, {}, {{"waveform", "pwl"}});
  pwl.params.arrays["times"] = {0.0, 1.0};
  pwl.params.arrays["values"] = {48.0, 48.0};
  for (Method method : {Method::BackwardEuler, Method::Trapezoidal}) {
    const Result kept = simulate(buckWith(dc, method), RunControl{});
    const Result summed = simulate(buckWith(pwl, method), RunControl{});
    CHECK(kept.stats.factorizations > 2);  // several device states, each with its own terms
    CHECK(sameChannels(kept, summed));
  }
}
