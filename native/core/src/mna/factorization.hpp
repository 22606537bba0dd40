// LU factorisations of the MNA matrix for one switch state: a dense partial-pivoting LU for small
// systems (cheaper per solve than sparse bookkeeping) and Eigen's SparseLU, whose column ordering
// is computed once per netlist from the union pattern and shared by every factorisation. Both
// factorise the equilibrated matrix and reject it when it is singular to working precision
// (conditioning.hpp).
#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <Eigen/OrderingMethods>
#include <memory>
#include <vector>

#include "mna/pattern.hpp"

namespace pesim {

class Factorization {
 public:
  virtual ~Factorization() = default;
  // Solves A·x = b in place (b becomes x); b has exactly the matrix's size.
  virtual void solve(Eigen::Ref<Eigen::VectorXd> b) const = 0;
  // Solves A·x = b into a separate x (the time loop's path: no copy of b); b and x each hold the
  // matrix's size and must not overlap. The same x, bit for bit, as the in-place solve.
  virtual void solve(const double* b, double* x) const = 0;
  // Reciprocal 1-norm condition number of the equilibrated matrix (exact or estimated).
  virtual double rcond() const = 0;

  // Ill-conditioned matrices keep their entries for iterative refinement: after a solve,
  // refine() adds A⁻¹·(b − A·x) twice (fixed-precision iterative refinement, Higham, "Accuracy and
  // Stability of Numerical Algorithms", ch. 12). A floating DC link of 1 F capacitors tied to the
  // rest through off-state switches (C/dt ≈ 2e6 S against 1e-7 S) otherwise loses its common mode,
  // and with it the capacitor voltage, to rounding step after step.
  void keepForRefinement(int size, const std::vector<std::pair<int, int>>& entries, const std::vector<double>& values);
  bool refines() const { return !refineValues_.empty(); }
  void refine(const double* b, double* x) const;

  // The right-hand-side terms that the device states of this factorisation fix, summed once when
  // it is made (the time loop's leading state-fixed elements, Transient::solveLinear).
  void keepStateRhs(std::vector<double> rhs) { stateRhs_ = std::move(rhs); }
  const std::vector<double>& stateRhs() const { return stateRhs_; }

 private:
  std::vector<double> stateRhs_;
  // The matrix by rows (compressed sparse rows), each row's entries in slot order: a residual row
  // b_i − Σ a_ij·x_j sums in a register in the order the slots were stamped. The rows are stored
  // shortest first, so that the loop over a row's entries repeats the same count from row to
  // row (predicted branches) instead of changing it at every row.
  std::vector<int> refineRows_;      // the k-th stored row is matrix row refineRows_[k]
  std::vector<int> refineRowStart_;  // its entries: refineRowStart_[k] .. refineRowStart_[k + 1] − 1
  std::vector<int> refineColumns_;
  std::vector<double> refineValues_;
  mutable std::vector<double> residual_;
  mutable std::vector<double> correction_;
};

// Builds factorisations from slot values; returns null when the matrix is singular to working
// precision.
class Factorizer {
 public:
  Factorizer(const Pattern& pattern, bool dense);
  std::unique_ptr<Factorization> factorize(const std::vector<double>& values) const;
  // Dense copy of the matrix, for diagnosing a singular system.
  Eigen::MatrixXd denseMatrix(const std::vector<double>& values) const;
  bool dense() const { return dense_; }

 private:
  int size_;
  bool dense_;
  std::vector<std::pair<int, int>> entries_;
  // Sparse path: the compressed matrix skeleton and, per slot, its position in valuePtr().
  Eigen::SparseMatrix<double> skeleton_;
  std::vector<int> valueIndex_;
  std::vector<int> columnOf_;  // fill-reducing column permutation of the union pattern
};

}  // namespace pesim
