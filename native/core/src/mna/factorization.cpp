// Dense and sparse LU factorisations (see factorization.hpp).
#include "mna/factorization.hpp"

#include <algorithm>
#include <cmath>

#include "mna/conditioning.hpp"

namespace pesim {

namespace {

using SparseMatrix = Eigen::SparseMatrix<double>;
// The columns arrive already permuted by the COLAMD ordering of the union pattern (computed once per
// netlist in the Factorizer), so each factorisation only builds its elimination tree.
using SparseLu = Eigen::SparseLU<SparseMatrix, Eigen::NaturalOrdering<int>>;

// Small dense systems: the inverse of the matrix, computed once per switch state from a
// partial-pivoting LU of the equilibrated matrix (conditioning.hpp), turns every solve into one
// matrix-vector product whose rows are independent — several times faster than the two dependent
// triangular sweeps for the few unknowns of a converter. With A_s = R·A·C, A⁻¹ = C·A_s⁻¹·R; the
// forward error stays of the order cond(A_s)·eps, as for the LU solve.
class DenseFactorization : public Factorization {
 public:
  explicit DenseFactorization(const Eigen::MatrixXd& a) : n_(a.rows()) {
    const Equilibration scale = equilibrate(a);
    const Eigen::MatrixXd as = scaled(a, scale);
    Eigen::PartialPivLU<Eigen::MatrixXd> lu(as);
    Eigen::MatrixXd inverse = lu.inverse();
    // The exact reciprocal condition number of the scaled matrix (its inverse is at hand).
    rcond_ = 1.0 / (norm1(as) * norm1(inverse));
    if (singularToWorkingPrecision(rcond_)) return;
    inverse_.resize(static_cast<std::size_t>(n_ * n_));
    for (Eigen::Index i = 0; i < n_; ++i) {
      for (Eigen::Index j = 0; j < n_; ++j) {
        inverse_[static_cast<std::size_t>(i * n_ + j)] = scale.col(i) * inverse(i, j) * scale.row(j);
      }
    }
    work_.resize(static_cast<std::size_t>(n_));
  }

  void solve(Eigen::Ref<Eigen::VectorXd> b) const override {
    const std::size_t n = static_cast<std::size_t>(n_);
    const double* rhs = b.data();
    double* x = work_.data();
    for (std::size_t i = 0; i < n; ++i) {
      const double* row = &inverse_[i * n];
      double sum = 0.0;
      for (std::size_t j = 0; j < n; ++j) sum += row[j] * rhs[j];
      x[i] = sum;
    }
    std::copy(x, x + n, b.data());
  }
  double rcond() const override { return rcond_; }

 private:
  Eigen::Index n_;
  std::vector<double> inverse_;       // row-major
  mutable std::vector<double> work_;  // scratch for solve(); a factorisation belongs to one run
  double rcond_ = 0.0;
};

class SparseFactorization : public Factorization {
 public:
  // `a` holds column i of the MNA matrix in column columnOf[i]; it is equilibrated in place.
  SparseFactorization(SparseMatrix& a, const std::vector<int>& columnOf) : columnOf_(columnOf) {
    scale_ = equilibrate(a);
    scaleInPlace(a, scale_);
    lu_.analyzePattern(a);
    lu_.factorize(a);
    if (lu_.info() != Eigen::Success) return;
    const int n = static_cast<int>(a.rows());
    double inverseNorm = estimateInverseNorm1(
        n, [this](Eigen::VectorXd& v) { v = lu_.solve(v).eval(); },
        [this](Eigen::VectorXd& v) { v = lu_.transpose().solve(v).eval(); });
    rcond_ = 1.0 / (norm1(a) * inverseNorm);
  }
  void solve(Eigen::Ref<Eigen::VectorXd> b) const override {
    b.array() *= scale_.row.array();
    y_ = lu_.solve(b);  // y_ keeps its size between calls: no allocation per step
    for (std::size_t i = 0; i < columnOf_.size(); ++i) {
      const int column = columnOf_[i];
      b[static_cast<Eigen::Index>(i)] = scale_.col(column) * y_[column];
    }
  }
  bool ok() const { return lu_.info() == Eigen::Success && !singularToWorkingPrecision(rcond_); }
  double rcond() const override { return rcond_; }

 private:
  // SparseLU::transpose() is a non-const member in Eigen 3.4.
  mutable SparseLu lu_;
  std::vector<int> columnOf_;
  Equilibration scale_;
  mutable Eigen::VectorXd y_;  // scratch for solve(); a factorisation belongs to one run
  double rcond_ = 0.0;
};

}  // namespace

Factorizer::Factorizer(const Pattern& pattern, bool dense)
    : size_(pattern.size()), dense_(dense), entries_(pattern.entries()) {
  if (dense_) return;
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(entries_.size());
  for (const auto& [row, col] : entries_) triplets.emplace_back(row, col, 1.0);
  SparseMatrix unordered(size_, size_);
  unordered.setFromTriplets(triplets.begin(), triplets.end());
  unordered.makeCompressed();
  // Fill-reducing column ordering of the union pattern, once per netlist.
  Eigen::COLAMDOrdering<int> colamd;
  Eigen::COLAMDOrdering<int>::PermutationType permutation;
  colamd(unordered, permutation);
  columnOf_.resize(static_cast<std::size_t>(size_));
  for (int i = 0; i < size_; ++i) {
    columnOf_[static_cast<std::size_t>(i)] = permutation.size() ? permutation.indices()(i) : i;
  }
  triplets.clear();
  for (const auto& [row, col] : entries_) triplets.emplace_back(row, columnOf_[static_cast<std::size_t>(col)], 1.0);
  skeleton_.resize(size_, size_);
  skeleton_.setFromTriplets(triplets.begin(), triplets.end());
  skeleton_.makeCompressed();
  valueIndex_.resize(entries_.size());
  for (std::size_t slot = 0; slot < entries_.size(); ++slot) {
    const int row = entries_[slot].first;
    const int col = columnOf_[static_cast<std::size_t>(entries_[slot].second)];
    const int* begin = skeleton_.innerIndexPtr() + skeleton_.outerIndexPtr()[col];
    const int* end = skeleton_.innerIndexPtr() + skeleton_.outerIndexPtr()[col + 1];
    const int* it = std::lower_bound(begin, end, row);
    valueIndex_[slot] = static_cast<int>(it - skeleton_.innerIndexPtr());
  }
}

Eigen::MatrixXd Factorizer::denseMatrix(const std::vector<double>& values) const {
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(size_, size_);
  for (std::size_t slot = 0; slot < entries_.size(); ++slot) {
    a(entries_[slot].first, entries_[slot].second) += values[slot];
  }
  return a;
}

std::unique_ptr<Factorization> Factorizer::factorize(const std::vector<double>& values) const {
  if (dense_) {
    auto lu = std::make_unique<DenseFactorization>(denseMatrix(values));
    if (singularToWorkingPrecision(lu->rcond())) return nullptr;
    return lu;
  }
  SparseMatrix a = skeleton_;
  double* target = a.valuePtr();
  for (std::size_t slot = 0; slot < values.size(); ++slot) target[valueIndex_[slot]] = values[slot];
  auto lu = std::make_unique<SparseFactorization>(a, columnOf_);
  if (!lu->ok()) return nullptr;
  return lu;
}

}  // namespace pesim
