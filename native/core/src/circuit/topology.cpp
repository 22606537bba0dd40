// Topology checks (see topology.hpp).
#include "circuit/topology.hpp"

#include <map>
#include <numeric>
#include <queue>
#include <set>

#include "mna/pattern.hpp"
#include "pesim/errors.hpp"

namespace pesim {

namespace {

class UnionFind {
 public:
  explicit UnionFind(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  std::size_t find(std::size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void join(std::size_t a, std::size_t b) { parent_[find(a)] = find(b); }

 private:
  std::vector<std::size_t> parent_;
};

// Reference node mapped to the last index so every node is a vertex 0..n.
std::size_t vertex(int node, std::size_t n) {
  return node == kGround ? n : static_cast<std::size_t>(node);
}

struct Edge {
  std::size_t to;
  std::size_t element;
};

// Names the elements on a path of voltage-defining branches from a to b (BFS), for the error.
std::string voltagePath(const std::vector<std::vector<Edge>>& graph, std::size_t a, std::size_t b,
                        const std::vector<std::string>& elementNames) {
  std::vector<long> via(graph.size(), -1);
  std::vector<std::size_t> from(graph.size(), 0);
  std::vector<bool> seen(graph.size(), false);
  std::queue<std::size_t> queue;
  queue.push(a);
  seen[a] = true;
  while (!queue.empty()) {
    std::size_t v = queue.front();
    queue.pop();
    if (v == b) break;
    for (const Edge& e : graph[v]) {
      if (seen[e.to]) continue;
      seen[e.to] = true;
      via[e.to] = static_cast<long>(e.element);
      from[e.to] = v;
      queue.push(e.to);
    }
  }
  std::string names;
  for (std::size_t v = b; v != a && via[v] >= 0; v = from[v]) {
    names += ", " + elementNames[static_cast<std::size_t>(via[v])];
  }
  return names;
}

void checkVoltageLoops(const TopologyInput& in) {
  const std::size_t n = in.nodeNames.size();
  UnionFind sets(n + 1);
  std::vector<std::vector<Edge>> graph(n + 1);
  for (std::size_t e = 0; e < in.connectivity.size(); ++e) {
    for (const auto& [a, b] : in.connectivity[e].voltageDefining) {
      std::size_t va = vertex(a, n), vb = vertex(b, n);
      if (sets.find(va) == sets.find(vb)) {
        const std::string& name = in.elementNames[e];
        throw Error(ErrorCode::VoltageSourceLoop,
                    name + " closes a loop of voltage sources (" + name +
                        voltagePath(graph, va, vb, in.elementNames) +
                        "): their voltages cannot all hold; add a series resistance or inductance",
                    name);
      }
      sets.join(va, vb);
      graph[va].push_back({vb, e});
      graph[vb].push_back({va, e});
    }
  }
}

}  // namespace

std::vector<int> checkTopology(const TopologyInput& in, std::vector<std::string>& warnings) {
  checkVoltageLoops(in);
  const std::size_t n = in.nodeNames.size();
  UnionFind conducting(n + 1);
  std::vector<bool> hasBranch(n + 1, false);
  for (const auto& c : in.connectivity) {
    for (const auto& [a, b] : c.conducting) {
      conducting.join(vertex(a, n), vertex(b, n));
      hasBranch[vertex(a, n)] = hasBranch[vertex(b, n)] = true;
    }
  }
  // Nodes without any conducting branch: only current sources or sensing inputs touch them.
  for (std::size_t v = 0; v < n; ++v) {
    if (hasBranch[v]) continue;
    std::string sources, readers;
    for (std::size_t e = 0; e < in.connectivity.size(); ++e) {
      const auto& c = in.connectivity[e];
      for (const auto& [a, b] : c.currentSource) {
        if (vertex(a, n) == v || vertex(b, n) == v) sources += (sources.empty() ? "" : ", ") + in.elementNames[e];
      }
      for (int s : c.sensing) {
        if (vertex(s, n) == v) readers += (readers.empty() ? "" : ", ") + in.elementNames[e];
      }
    }
    const std::string& node = in.nodeNames[v];
    if (!sources.empty()) {
      throw Error(ErrorCode::CurrentSourceCutset,
                  "node '" + node + "' is connected only through current sources (" + sources +
                      "): the current has nowhere to flow",
                  sources.substr(0, sources.find(',')), node);
    }
    throw Error(ErrorCode::FloatingNode,
                "node '" + node + "' is floating: only " + (readers.empty() ? std::string("nothing") : readers) +
                    " reads it and no element connects it",
                readers.substr(0, readers.find(',')), node);
  }
  // Sub-networks without a path to the reference.
  const std::size_t groundSet = conducting.find(n);
  std::map<std::size_t, int> isolated;  // set → first node
  for (std::size_t v = 0; v < n; ++v) {
    std::size_t set = conducting.find(v);
    if (set != groundSet && !isolated.count(set)) isolated.emplace(set, static_cast<int>(v));
  }
  std::vector<int> ties;
  for (const auto& [set, first] : isolated) {
    for (std::size_t e = 0; e < in.connectivity.size(); ++e) {
      for (const auto& [a, b] : in.connectivity[e].currentSource) {
        bool inA = conducting.find(vertex(a, n)) == set, inB = conducting.find(vertex(b, n)) == set;
        if (inA != inB) {
          const std::string& node = in.nodeNames[static_cast<std::size_t>(first)];
          throw Error(ErrorCode::CurrentSourceCutset,
                      in.elementNames[e] + " drives current into a sub-network (node '" + node +
                          "') that has no other path back: the current sources form a cut-set",
                      in.elementNames[e], node);
        }
      }
    }
    ties.push_back(first);
    warnings.push_back("node '" + in.nodeNames[static_cast<std::size_t>(first)] +
                       "' belongs to a sub-network without a conducting path to the reference node; "
                       "it was tied to the reference");
  }
  return ties;
}

}  // namespace pesim
