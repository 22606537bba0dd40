// Equilibration and condition estimate of the MNA matrix (see conditioning.hpp).
#include "mna/conditioning.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pesim {

namespace {

// The power of two nearest to 1/m (1 for an empty row or column).
double inversePowerOfTwo(double m) {
  if (!(m > 0.0) || !std::isfinite(m)) return 1.0;
  return std::ldexp(1.0, -std::ilogb(m));
}

double sign(double v) { return v >= 0.0 ? 1.0 : -1.0; }

}  // namespace

Equilibration equilibrate(const Eigen::MatrixXd& a) {
  const Eigen::Index n = a.rows();
  Equilibration s{Eigen::VectorXd::Ones(n), Eigen::VectorXd::Ones(a.cols())};
  for (Eigen::Index i = 0; i < n; ++i) s.row(i) = inversePowerOfTwo(a.row(i).cwiseAbs().maxCoeff());
  for (Eigen::Index j = 0; j < a.cols(); ++j) {
    double m = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) m = std::max(m, std::abs(a(i, j)) * s.row(i));
    s.col(j) = inversePowerOfTwo(m);
  }
  return s;
}

Equilibration equilibrate(const Eigen::SparseMatrix<double>& a) {
  Equilibration s{Eigen::VectorXd::Zero(a.rows()), Eigen::VectorXd::Ones(a.cols())};
  for (Eigen::Index j = 0; j < a.outerSize(); ++j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(a, j); it; ++it) {
      s.row(it.row()) = std::max(s.row(it.row()), std::abs(it.value()));
    }
  }
  for (Eigen::Index i = 0; i < a.rows(); ++i) s.row(i) = inversePowerOfTwo(s.row(i));
  for (Eigen::Index j = 0; j < a.outerSize(); ++j) {
    double m = 0.0;
    for (Eigen::SparseMatrix<double>::InnerIterator it(a, j); it; ++it) {
      m = std::max(m, std::abs(it.value()) * s.row(it.row()));
    }
    s.col(j) = inversePowerOfTwo(m);
  }
  return s;
}

Eigen::MatrixXd scaled(const Eigen::MatrixXd& a, const Equilibration& s) {
  return s.row.asDiagonal() * a * s.col.asDiagonal();
}

void scaleInPlace(Eigen::SparseMatrix<double>& a, const Equilibration& s) {
  for (Eigen::Index j = 0; j < a.outerSize(); ++j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(a, j); it; ++it) {
      it.valueRef() *= s.row(it.row()) * s.col(j);
    }
  }
}

double norm1(const Eigen::MatrixXd& a) {
  return a.cols() == 0 ? 0.0 : a.cwiseAbs().colwise().sum().maxCoeff();
}

double norm1(const Eigen::SparseMatrix<double>& a) {
  double best = 0.0;
  for (Eigen::Index j = 0; j < a.outerSize(); ++j) {
    double sum = 0.0;
    for (Eigen::SparseMatrix<double>::InnerIterator it(a, j); it; ++it) sum += std::abs(it.value());
    best = std::max(best, sum);
  }
  return best;
}

// Higham's form of Hager's estimator (LAPACK DLACN2): a gradient ascent of ‖A⁻¹x‖₁ over the unit
// 1-norm ball, started from the uniform vector, followed by an alternating test vector that guards
// against the rare matrices where the ascent stalls.
double estimateInverseNorm1(int n, const std::function<void(Eigen::VectorXd&)>& solve,
                            const std::function<void(Eigen::VectorXd&)>& solveTransposed) {
  if (n <= 0) return 0.0;
  Eigen::VectorXd x = Eigen::VectorXd::Constant(n, 1.0 / n);
  solve(x);
  double estimate = x.lpNorm<1>();
  if (n == 1) return estimate;
  Eigen::VectorXd signs = x.unaryExpr(&sign);
  Eigen::VectorXd z = signs;
  solveTransposed(z);
  Eigen::Index j = 0;
  z.cwiseAbs().maxCoeff(&j);
  for (int iteration = 2; iteration <= 5; ++iteration) {
    x = Eigen::VectorXd::Zero(n);
    x(j) = 1.0;
    solve(x);
    const double previous = estimate;
    estimate = x.lpNorm<1>();
    Eigen::VectorXd newSigns = x.unaryExpr(&sign);
    if (newSigns == signs || estimate <= previous) break;
    signs = newSigns;
    z = signs;
    solveTransposed(z);
    const Eigen::Index last = j;
    z.cwiseAbs().maxCoeff(&j);
    if (std::abs(z(last)) == std::abs(z(j))) break;
  }
  for (int i = 0; i < n; ++i) x(i) = (i % 2 == 0 ? 1.0 : -1.0) * (1.0 + static_cast<double>(i) / (n - 1));
  solve(x);
  return std::max(estimate, 2.0 * x.lpNorm<1>() / (3.0 * n));
}

bool singularToWorkingPrecision(double rcond) {
  return !(rcond >= std::numeric_limits<double>::epsilon());
}

}  // namespace pesim
