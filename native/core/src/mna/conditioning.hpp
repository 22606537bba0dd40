// Scaling and conditioning of the MNA matrix. MNA rows and columns carry different units
// (conductances in S, incidence 1s, L/dt in Ω), so whether a system is singular cannot be judged by
// comparing a pivot with the largest entry of the whole matrix: a 1e7 Ω off-state switch (1e-7 S)
// next to an inductor row at small dt (L/dt ≈ 1e8 Ω) spans 15 decades in a perfectly solvable
// circuit. Instead, as LAPACK's expert driver DGESVX does:
//   1. equilibrate: R·A·C with power-of-two row and column scales so that the largest entry of every
//      row and column is about 1 (LAPACK DGEEQUB; powers of two add no rounding error);
//   2. factorise the scaled matrix with partial pivoting;
//   3. call it singular to working precision when the reciprocal 1-norm condition number of the
//      scaled matrix, rcond = 1 / (‖A_s‖₁·‖A_s⁻¹‖₁), is below the machine epsilon (DGESVX INFO = N+1).
// ‖A_s⁻¹‖₁ is exact where the inverse is formed (dense path) and estimated otherwise with Hager's
// method as refined by Higham (ACM TOMS 14(4), 1988; LAPACK DLACN2).
#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <functional>

namespace pesim {

// Power-of-two row and column scales: the scaled matrix is diag(row)·A·diag(col).
struct Equilibration {
  Eigen::VectorXd row;
  Eigen::VectorXd col;
};

// Scales of a dense matrix; rows or columns without any entry keep the scale 1.
Equilibration equilibrate(const Eigen::MatrixXd& a);
// Scales of a compressed column-major sparse matrix (the same rule over its stored entries).
Equilibration equilibrate(const Eigen::SparseMatrix<double>& a);

// diag(row)·A·diag(col).
Eigen::MatrixXd scaled(const Eigen::MatrixXd& a, const Equilibration& s);
void scaleInPlace(Eigen::SparseMatrix<double>& a, const Equilibration& s);

double norm1(const Eigen::MatrixXd& a);
double norm1(const Eigen::SparseMatrix<double>& a);

// Estimate of ‖A⁻¹‖₁ from solves with A and with Aᵀ (each overwrites its argument with the
// solution); at most five pairs of solves.
double estimateInverseNorm1(int n, const std::function<void(Eigen::VectorXd&)>& solve,
                            const std::function<void(Eigen::VectorXd&)>& solveTransposed);

// True when a scaled system with this reciprocal condition number has no meaningful solution in
// double precision.
bool singularToWorkingPrecision(double rcond);

}  // namespace pesim
