// GCR with kept directions (see gcr.hpp); modified Gram–Schmidt on the products.
#include "steady/gcr.hpp"

#include <algorithm>
#include <cmath>

namespace pesim {

namespace {

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// y += c·x
void addScaled(std::vector<double>& y, double c, const std::vector<double>& x) {
  for (std::size_t i = 0; i < y.size(); ++i) y[i] += c * x[i];
}

}  // namespace

GcrResult Gcr::solve(const Apply& apply, const std::vector<double>& b, double relative, double absolute,
                     int maxProducts) {
  GcrResult result;
  result.x.assign(b.size(), 0.0);
  std::vector<double> r = b;
  const double target = std::max(relative * std::sqrt(dot(b, b)), absolute);
  // The kept directions: x minimises the residual over their span (q orthonormal).
  for (std::size_t i = 0; i < q_.size(); ++i) {
    const double c = dot(q_[i], r);
    addScaled(result.x, c, p_[i]);
    addScaled(r, -c, q_[i]);
  }
  result.residual = std::sqrt(dot(r, r));
  while (result.residual > target && result.products < maxProducts && q_.size() < b.size()) {
    // The new direction is the residual, of unit length: the products are difference quotients,
    // whose perturbation scales with the direction.
    std::vector<double> p = r;
    for (double& v : p) v /= result.residual;
    std::vector<double> q = apply(p);
    ++result.products;
    for (std::size_t i = 0; i < q_.size(); ++i) {
      const double c = dot(q_[i], q);
      addScaled(q, -c, q_[i]);
      addScaled(p, -c, p_[i]);
    }
    const double norm = std::sqrt(dot(q, q));
    if (!(norm > 0.0) || !std::isfinite(norm)) break;  // A·p in the span already: no progress possible
    for (double& v : q) v /= norm;
    for (double& v : p) v /= norm;
    const double c = dot(q, r);
    addScaled(result.x, c, p);
    addScaled(r, -c, q);
    p_.push_back(std::move(p));
    q_.push_back(std::move(q));
    result.residual = std::sqrt(dot(r, r));
  }
  return result;
}

}  // namespace pesim
