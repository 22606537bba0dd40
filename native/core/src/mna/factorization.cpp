// Dense and sparse LU factorisations (see factorization.hpp).
#include "mna/factorization.hpp"

#include <algorithm>
#include <cmath>

namespace pesim {

namespace {

using SparseMatrix = Eigen::SparseMatrix<double>;
// The columns arrive already permuted by the COLAMD ordering of the union pattern (computed once per
// netlist in the Factorizer), so each factorisation only builds its elimination tree.
using SparseLu = Eigen::SparseLU<SparseMatrix, Eigen::NaturalOrdering<int>>;

class DenseFactorization : public Factorization {
 public:
  explicit DenseFactorization(const Eigen::MatrixXd& a) : lu_(a) {}
  // P·A = L·U: permute, then two triangular solves, all in place (no allocation per step).
  void solve(Eigen::VectorXd& b) const override {
    b = lu_.permutationP() * b;
    lu_.matrixLU().template triangularView<Eigen::UnitLower>().solveInPlace(b);
    lu_.matrixLU().template triangularView<Eigen::Upper>().solveInPlace(b);
  }
  // A pivot that vanishes against the matrix scale means no unique solution.
  bool singular(double scale) const {
    const auto diagonal = lu_.matrixLU().diagonal();
    for (Eigen::Index i = 0; i < diagonal.size(); ++i) {
      if (!(std::abs(diagonal[i]) > 1e-14 * scale)) return true;
    }
    return false;
  }

 private:
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
};

class SparseFactorization : public Factorization {
 public:
  // `a` holds column i of the MNA matrix in column columnOf[i].
  SparseFactorization(const SparseMatrix& a, const std::vector<int>& columnOf) : columnOf_(columnOf) {
    lu_.analyzePattern(a);
    lu_.factorize(a);
  }
  void solve(Eigen::VectorXd& b) const override {
    y_ = lu_.solve(b);  // y_ keeps its size between calls: no allocation per step
    for (std::size_t i = 0; i < columnOf_.size(); ++i) b[static_cast<Eigen::Index>(i)] = y_[columnOf_[i]];
  }
  bool ok() const { return lu_.info() == Eigen::Success; }

 private:
  SparseLu lu_;
  std::vector<int> columnOf_;
  mutable Eigen::VectorXd y_;  // scratch for solve(); a factorisation belongs to one run
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
    Eigen::MatrixXd a = denseMatrix(values);
    double scale = a.cwiseAbs().maxCoeff();
    auto lu = std::make_unique<DenseFactorization>(a);
    if (!(scale > 0.0) || lu->singular(scale)) return nullptr;
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
