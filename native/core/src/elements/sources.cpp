// Stamps of independent and controlled sources and the ideal transformer (see sources.hpp), and
// their descriptors (catalog.hpp).
#include "elements/sources.hpp"

#include "elements/catalog.hpp"

namespace pesim {

VoltageSource::VoltageSource(std::string name, std::vector<int> nodes, Waveform waveform)
    : Element(std::move(name), std::move(nodes)), waveform_(std::move(waveform)) {}

CurrentSource::CurrentSource(std::string name, std::vector<int> nodes, Waveform waveform)
    : Element(std::move(name), std::move(nodes)), waveform_(std::move(waveform)) {}

Vcvs::Vcvs(std::string name, std::vector<int> nodes, double gain)
    : Element(std::move(name), std::move(nodes)), gain_(gain) {}

void Vcvs::declare(Pattern& pattern) {
  slots_.declare(pattern, node(0), node(1), branch());
  kc_ = pattern.entry(branch(), node(2));
  kd_ = pattern.entry(branch(), node(3));
}

void Vcvs::stampMatrix(double* values, const StepContext&) const {
  slots_.stamp(values);
  addAt(values, kc_, -gain_);
  addAt(values, kd_, gain_);
}

Vccs::Vccs(std::string name, std::vector<int> nodes, double gm)
    : Element(std::move(name), std::move(nodes)), gm_(gm) {}

void Vccs::declare(Pattern& pattern) {
  ac_ = pattern.entry(node(0), node(2));
  ad_ = pattern.entry(node(0), node(3));
  bc_ = pattern.entry(node(1), node(2));
  bd_ = pattern.entry(node(1), node(3));
}

void Vccs::stampMatrix(double* values, const StepContext&) const {
  addAt(values, ac_, gm_);
  addAt(values, ad_, -gm_);
  addAt(values, bc_, -gm_);
  addAt(values, bd_, gm_);
}

Cccs::Cccs(std::string name, std::vector<int> nodes, double gain, const Element& control)
    : Element(std::move(name), std::move(nodes)), gain_(gain), control_(control) {}

void Cccs::declare(Pattern& pattern) {
  aj_ = pattern.entry(node(0), control_.branch());
  bj_ = pattern.entry(node(1), control_.branch());
}

void Cccs::stampMatrix(double* values, const StepContext&) const {
  addAt(values, aj_, gain_);
  addAt(values, bj_, -gain_);
}

Ccvs::Ccvs(std::string name, std::vector<int> nodes, double r, const Element& control)
    : Element(std::move(name), std::move(nodes)), r_(r), control_(control) {}

void Ccvs::declare(Pattern& pattern) {
  slots_.declare(pattern, node(0), node(1), branch());
  kj_ = pattern.entry(branch(), control_.branch());
}

void Ccvs::stampMatrix(double* values, const StepContext&) const {
  slots_.stamp(values);
  addAt(values, kj_, -r_);
}

IdealTransformer::IdealTransformer(std::string name, std::vector<int> nodes, double n1, double n2)
    : Element(std::move(name), std::move(nodes)), ratio_(n1 / n2) {}

void IdealTransformer::declare(Pattern& pattern) {
  primary_.declare(pattern, node(0), node(1), branch());
  s1k_ = pattern.entry(node(2), branch());
  s2k_ = pattern.entry(node(3), branch());
  ks1_ = pattern.entry(branch(), node(2));
  ks2_ = pattern.entry(branch(), node(3));
}

void IdealTransformer::stampMatrix(double* values, const StepContext&) const {
  primary_.stamp(values);                // KCL of the primary and v(p1) − v(p2) in the branch row
  addAt(values, ks1_, -ratio_);          // ... − (n1/n2)·(v(s1) − v(s2)) = 0
  addAt(values, ks2_, ratio_);
  addAt(values, s1k_, -ratio_);          // secondary current s1 → s2 is −(n1/n2)·i_p
  addAt(values, s2k_, ratio_);
}

namespace {

Waveform sourceWaveform(const ElementArgs& a) {
  std::string signalName = Waveform::signalName(a.p);
  return Waveform::fromParams(a.p, signalName.empty() ? -1 : a.env.signal(signalName, a.spec.name));
}

void voltageSource(const ElementArgs& a, BuiltElement& built) {
  built.element = std::make_unique<VoltageSource>(a.spec.name, a.nodes, sourceWaveform(a));
  built.connectivity.conducting.push_back(a.ab);
  built.connectivity.voltageDefining.push_back(a.ab);
}

void currentSource(const ElementArgs& a, BuiltElement& built) {
  built.element = std::make_unique<CurrentSource>(a.spec.name, a.nodes, sourceWaveform(a));
  built.connectivity.currentSource.push_back(a.ab);
}

void vcvs(const ElementArgs& a, BuiltElement& built) {
  built.element = std::make_unique<Vcvs>(a.spec.name, a.nodes, a.p.number("gain"));
  built.connectivity.conducting.push_back(a.ab);
  built.connectivity.voltageDefining.push_back(a.ab);
  built.connectivity.sensing = {a.nodes[2], a.nodes[3]};
}

void vccs(const ElementArgs& a, BuiltElement& built) {
  built.element = std::make_unique<Vccs>(a.spec.name, a.nodes, a.p.number("gm"));
  built.connectivity.currentSource.push_back(a.ab);
  built.connectivity.sensing = {a.nodes[2], a.nodes[3]};
}

void cccs(const ElementArgs& a, BuiltElement& built) {
  built.element = std::make_unique<Cccs>(a.spec.name, a.nodes, a.p.number("gain"), controlElement(a, true));
  built.connectivity.currentSource.push_back(a.ab);
}

void ccvs(const ElementArgs& a, BuiltElement& built) {
  built.element = std::make_unique<Ccvs>(a.spec.name, a.nodes, a.p.number("r"), controlElement(a, true));
  built.connectivity.conducting.push_back(a.ab);
  built.connectivity.voltageDefining.push_back(a.ab);
}

void transformer(const ElementArgs& a, BuiltElement& built) {
  const auto& n = a.nodes;
  built.element = std::make_unique<IdealTransformer>(a.spec.name, n, a.p.positive("n1"), a.p.positive("n2"));
  built.connectivity.conducting = {{n[0], n[1]}, {n[2], n[3]}};
}

const ElementDescriptor kSourceElements[] = {
    {"V", 2, false, voltageSource},
    {"I", 2, false, currentSource},
    {"E", 4, false, vcvs},
    {"F", 2, true, cccs},
    {"G", 4, false, vccs},
    {"H", 2, true, ccvs},
    {"TRANS", 4, false, transformer},
};

}  // namespace

ElementFamily sourceElements() { return elementFamily(kSourceElements); }

}  // namespace pesim
