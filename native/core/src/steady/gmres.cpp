// GMRES with Arnoldi (modified Gram–Schmidt) and Givens rotations (Saad, Iterative Methods for
// Sparse Linear Systems, 2nd ed., algorithm 6.9).
#include "steady/gmres.hpp"

#include <cmath>

namespace pesim {

namespace {

double norm(const std::vector<double>& v) {
  double s = 0.0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

}  // namespace

GmresResult gmres(const std::function<std::vector<double>(const std::vector<double>&)>& apply,
                  const std::vector<double>& b, double relative, double absolute, int maxProducts) {
  const std::size_t n = b.size();
  GmresResult result;
  result.x.assign(n, 0.0);
  const double beta = norm(b);
  result.residual = beta;
  const double target = std::max(relative * beta, absolute);
  if (beta <= target || n == 0) return result;

  std::vector<std::vector<double>> basis{b};
  for (double& x : basis[0]) x /= beta;
  std::vector<std::vector<double>> h;  // h[j]: column j of the Hessenberg matrix, rotated
  std::vector<double> cs, sn, g{beta};
  for (int j = 0; j < maxProducts && static_cast<std::size_t>(j) < n; ++j) {
    std::vector<double> w = apply(basis[static_cast<std::size_t>(j)]);
    ++result.products;
    std::vector<double> column(static_cast<std::size_t>(j) + 2, 0.0);
    for (std::size_t i = 0; i <= static_cast<std::size_t>(j); ++i) {
      column[i] = dot(w, basis[i]);
      for (std::size_t k = 0; k < n; ++k) w[k] -= column[i] * basis[i][k];
    }
    const double next = norm(w);
    column[static_cast<std::size_t>(j) + 1] = next;
    // Previous rotations, then a new one that zeroes the subdiagonal entry.
    for (std::size_t i = 0; i < static_cast<std::size_t>(j); ++i) {
      const double a = column[i], c = column[i + 1];
      column[i] = cs[i] * a + sn[i] * c;
      column[i + 1] = -sn[i] * a + cs[i] * c;
    }
    const std::size_t jj = static_cast<std::size_t>(j);
    const double r = std::hypot(column[jj], column[jj + 1]);
    cs.push_back(r == 0.0 ? 1.0 : column[jj] / r);
    sn.push_back(r == 0.0 ? 0.0 : column[jj + 1] / r);
    column[jj] = r;
    column[jj + 1] = 0.0;
    g.push_back(-sn[jj] * g[jj]);
    g[jj] = cs[jj] * g[jj];
    h.push_back(column);
    result.residual = std::fabs(g[jj + 1]);
    const bool done = result.residual <= target || next == 0.0 || jj + 1 == n ||
                      j + 1 >= maxProducts;
    if (done) {
      // Back substitution of the upper triangle, then x = V·y.
      std::vector<double> y(jj + 1, 0.0);
      for (std::size_t i = jj + 1; i-- > 0;) {
        double s = g[i];
        for (std::size_t k = i + 1; k <= jj; ++k) s -= h[k][i] * y[k];
        y[i] = h[i][i] == 0.0 ? 0.0 : s / h[i][i];
      }
      for (std::size_t i = 0; i <= jj; ++i) {
        for (std::size_t k = 0; k < n; ++k) result.x[k] += y[i] * basis[i][k];
      }
      return result;
    }
    for (double& x : w) x /= next;
    basis.push_back(std::move(w));
  }
  return result;
}

}  // namespace pesim
