// The step-wise run (pesim/step_session.hpp): a Transient driven through startRun, runMain and
// finishRun. A rebuild builds a new Circuit and Transient from the new netlist, moves the run's
// position and recorder over (Transient::continueFrom) and copies the dynamic state across with
// the snapshot of the steady-state analysis (steady/snapshot.hpp): elements' companion history,
// device states, control blocks' memory, thermal temperatures and the control signals.
#include "pesim/step_session.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "circuit/circuit.hpp"
#include "pesim/errors.hpp"
#include "steady/period.hpp"
#include "steady/snapshot.hpp"
#include "transient/check_settings.hpp"
#include "transient/transient.hpp"

namespace pesim {

// One build of the circuit: the netlist it was built from (the circuit may refer to it), the
// circuit and its Transient.
struct Build {
  explicit Build(const Netlist& source, const RunControl& control) : netlist(source) {
    checkSettings(netlist.settings);
    circuit = std::make_unique<Circuit>(netlist);
    // The thermal steps divide the sources' period, as in simulate().
    if (circuit->thermalDomain() != nullptr) {
      circuit->thermalDomain()->alignToPeriod(sourcePeriod(*circuit, netlist.settings.dt).period);
    }
    transient = std::make_unique<Transient>(*circuit, netlist.settings, control);
  }
  Netlist netlist;
  std::unique_ptr<Circuit> circuit;
  std::unique_ptr<Transient> transient;
};

struct StepSession::Impl {
  RunControl control;
  std::unique_ptr<Build> build;
  bool finished = false;

  Transient& run() {
    if (finished) throw std::logic_error("the step-wise run has ended");
    return *build->transient;
  }
};

StepSession::StepSession(const Netlist& netlist, const RunControl& control) : impl_(std::make_unique<Impl>()) {
  impl_->control = control;
  impl_->build = std::make_unique<Build>(netlist, control);
  impl_->build->transient->startRun();
}

StepSession::~StepSession() = default;

long StepSession::step(long steps) { return impl_->run().runMain(steps); }

long StepSession::stepsDone() const { return impl_->build->transient->mainDone(); }

long StepSession::totalSteps() const { return impl_->build->transient->mainSteps(); }

double StepSession::time() const { return impl_->build->transient->mainTime(); }

Result StepSession::partialResult() const {
  if (impl_->finished) throw std::logic_error("the step-wise run has ended");
  return impl_->build->transient->partialResult();
}

void StepSession::rebuild(const Netlist& netlist) {
  Transient& old = impl_->run();
  Netlist next = netlist;
  next.settings = impl_->build->netlist.settings;
  auto build = std::make_unique<Build>(next, impl_->control);
  // The state is visited in the same order by both builds of the same structure: the sizes must agree.
  Snapshot state, layout;
  SnapshotReader reader(state);
  old.visitState(reader, true);
  SnapshotReader probe(layout);
  build->transient->visitState(probe, true);
  if (state.values.size() != layout.values.size() || state.unknowns != layout.unknowns) {
    throw Error(ErrorCode::NetlistInvalid,
                "the circuit's structure changed during the step-wise run (its state has " +
                    std::to_string(layout.values.size()) + " values, not " + std::to_string(state.values.size()) + ")",
                "");
  }
  // The recorder goes over to the new build: its channels must record the same signals there.
  const auto& recorded = impl_->build->circuit->control().channels();
  const auto& channels = build->circuit->control().channels();
  bool sameChannels = recorded.size() == channels.size();
  for (std::size_t c = 0; sameChannels && c < channels.size(); ++c) {
    sameChannels = recorded[c].key == channels[c].key && recorded[c].signal == channels[c].signal;
  }
  if (!sameChannels) {
    throw Error(ErrorCode::NetlistInvalid, "the scopes changed during the step-wise run: their channels cannot go on recording", "");
  }
  build->transient->continueFrom(old);
  SnapshotWriter writer(state);
  build->transient->visitState(writer, true);
  impl_->build = std::move(build);
}

Result StepSession::finish() {
  Result result = impl_->run().finishRun();
  impl_->finished = true;
  return result;
}

}  // namespace pesim
