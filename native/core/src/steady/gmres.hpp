// GMRES (Saad and Schultz 1986) without restart, for the small systems of the shooting method,
// whose matrix is known only through its products with vectors (one simulated period each).
#pragma once

#include <functional>
#include <vector>

namespace pesim {

struct GmresResult {
  std::vector<double> x;
  int products = 0;        // matrix-vector products done
  double residual = 0.0;   // ‖b − A·x‖₂ reached
};

// Solves A·x = b from x = 0 until ‖b − A·x‖₂ ≤ max(relative·‖b‖₂, absolute) or after
// maxProducts products of A.
GmresResult gmres(const std::function<std::vector<double>(const std::vector<double>&)>& apply,
                  const std::vector<double>& b, double relative, double absolute, int maxProducts);

}  // namespace pesim
