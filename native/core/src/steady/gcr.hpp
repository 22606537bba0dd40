// The generalized conjugate residual method (GCR: S. C. Eisenstat, H. C. Elman and M. H. Schultz,
// "Variational iterative methods for nonsymmetric systems of linear equations", SIAM J. Numer.
// Anal. 20(2), 1983) for the small systems of the shooting method, whose matrix is known only
// through its products with vectors (one simulated period each). It minimises ‖b − A·x‖₂ over the
// directions found so far, as GMRES does, and keeps them: pairs (p, q = A·p) with orthonormal q.
// A later right-hand side with the same (or a nearby) matrix starts from the directions kept and
// adds products only for what they leave (recycling: the quasi-Newton "fast" Jacobian of the
// steady-state analysis).
#pragma once

#include <functional>
#include <vector>

namespace pesim {

struct GcrResult {
  std::vector<double> x;
  int products = 0;       // products of A done for this right-hand side
  double residual = 0.0;  // ‖b − A·x‖₂ reached (with the kept directions' products)
};

class Gcr {
 public:
  using Apply = std::function<std::vector<double>(const std::vector<double>&)>;

  // Solves A·x = b until ‖b − A·x‖₂ ≤ max(relative·‖b‖₂, absolute), with the kept directions
  // first, then at most maxProducts new products of A (each kept).
  GcrResult solve(const Apply& apply, const std::vector<double>& b, double relative, double absolute, int maxProducts);
  // Drops the kept directions (the matrix has changed).
  void forget() {
    p_.clear();
    q_.clear();
  }
  std::size_t directions() const { return q_.size(); }

 private:
  std::vector<std::vector<double>> p_, q_;
};

}  // namespace pesim
