// Dense and sparse LU factorisations (see factorization.hpp).
#include "mna/factorization.hpp"

#include <algorithm>
#include <cmath>

#include "mna/conditioning.hpp"
#include "mna/dense_product.hpp"

#if defined(__GNUC__) && defined(__x86_64__)
#define PESIM_DENSE_AVX2 1
#include <immintrin.h>
#endif

namespace pesim {

namespace {
// Factorisations whose equilibrated reciprocal condition number is below this are refined once
// per solve (Factorization::refine); well-conditioned ones, nearly every circuit, are not.
constexpr double kRefineBelowRcond = 1e-9;
}  // namespace

namespace {

#ifdef PESIM_DENSE_AVX2
// Stores the four sums of rows i .. i + 3 into x, which holds `n` values: rows from n on are the
// padding of the inverse's columns and are left out (a masked store for the group that straddles
// n), so the product writes straight into x without a padded scratch copy.
__attribute__((target("avx2"))) inline void storeRows(double* x, std::size_t i, std::size_t n, __m256d sums) {
  if (i + 4 <= n) {
    _mm256_storeu_pd(x + i, sums);
  } else if (i < n) {
    const long long left = static_cast<long long>(n - i);  // 1 to 3 rows
    const __m256i mask = _mm256_set_epi64x(left > 3 ? -1 : 0, left > 2 ? -1 : 0, left > 1 ? -1 : 0, -1);
    _mm256_maskstore_pd(x + i, mask, sums);
  }
}

// x = M·b for a column-major M of `rows` rows (a multiple of 4, the column stride) and n columns,
// in blocks of 32 rows held in eight registers over all columns, then of 16 and of 4: every x[i]
// is 0.0 plus M(i, j)·b[j] for j = 0, 1, ... in order, a multiplication and an addition each
// rounded (AVX2 without FMA), the same operations as the portable loop, so the same x. x holds
// n values (storeRows). Each register's sum waits for its previous addition (4 cycles): eight
// independent sums keep the adder busy where four would leave it idle half of the time (31
// unknowns: one block of 32 instead of two of 16 one after the other).
__attribute__((target("avx2"))) void multiplyAvx2(const double* m, std::size_t rows, std::size_t n, const double* b,
                                                  double* x) {
  std::size_t i0 = 0;
  for (; i0 + 32 <= rows; i0 += 32) {
    __m256d s[8];
    for (__m256d& sum : s) sum = _mm256_setzero_pd();
    const double* column = m + i0;
    for (std::size_t j = 0; j < n; ++j, column += rows) {
      const __m256d bj = _mm256_broadcast_sd(b + j);
      for (int k = 0; k < 8; ++k) s[k] = _mm256_add_pd(s[k], _mm256_mul_pd(_mm256_loadu_pd(column + 4 * k), bj));
    }
    for (std::size_t k = 0; k < 8; ++k) storeRows(x, i0 + 4 * k, n, s[k]);
  }
  for (; i0 + 16 <= rows; i0 += 16) {
    __m256d s0 = _mm256_setzero_pd(), s1 = _mm256_setzero_pd(), s2 = _mm256_setzero_pd(), s3 = _mm256_setzero_pd();
    const double* column = m + i0;
    for (std::size_t j = 0; j < n; ++j, column += rows) {
      const __m256d bj = _mm256_broadcast_sd(b + j);
      s0 = _mm256_add_pd(s0, _mm256_mul_pd(_mm256_loadu_pd(column), bj));
      s1 = _mm256_add_pd(s1, _mm256_mul_pd(_mm256_loadu_pd(column + 4), bj));
      s2 = _mm256_add_pd(s2, _mm256_mul_pd(_mm256_loadu_pd(column + 8), bj));
      s3 = _mm256_add_pd(s3, _mm256_mul_pd(_mm256_loadu_pd(column + 12), bj));
    }
    storeRows(x, i0, n, s0);
    storeRows(x, i0 + 4, n, s1);
    storeRows(x, i0 + 8, n, s2);
    storeRows(x, i0 + 12, n, s3);
  }
  for (; i0 + 4 <= rows; i0 += 4) {
    __m256d s0 = _mm256_setzero_pd();
    const double* column = m + i0;
    for (std::size_t j = 0; j < n; ++j, column += rows) s0 = _mm256_add_pd(s0, _mm256_mul_pd(_mm256_loadu_pd(column), _mm256_broadcast_sd(b + j)));
    storeRows(x, i0, n, s0);
  }
}

// x = M·b as multiplyAvx2, with AVX-512 registers and fused multiply-adds, for CPUs that have
// them (rows: a multiple of 8, the column stride). Blocks of 32 rows in four registers, then of 8
// in one; each block keeps two sums per register, of the even and of the odd columns, added at the
// end: half the chain of dependent additions, and half the instructions of the AVX2 loop. The
// order of the additions differs from the portable loop's, so x may differ from it in the last
// bits; its error stays within the usual bound of a dot product, n·u·Σ|M(i, j)·b_j| (Higham,
// "Accuracy and Stability of Numerical Algorithms", 2nd ed., §3.1).
__attribute__((target("avx512f"))) inline void storeRows8(double* x, std::size_t i, std::size_t n, __m512d sums) {
  if (i + 8 <= n) {
    _mm512_storeu_pd(x + i, sums);
  } else if (i < n) {
    _mm512_mask_storeu_pd(x + i, static_cast<__mmask8>((1u << (n - i)) - 1u), sums);
  }
}

__attribute__((target("avx512f"))) void multiplyAvx512(const double* m, std::size_t rows, std::size_t n, const double* b,
                                                      double* x) {
  std::size_t i0 = 0;
  for (; i0 + 32 <= rows; i0 += 32) {
    __m512d even[4], odd[4];
    for (int k = 0; k < 4; ++k) even[k] = odd[k] = _mm512_setzero_pd();
    const double* column = m + i0;
    std::size_t j = 0;
    for (; j + 2 <= n; j += 2, column += 2 * rows) {
      const __m512d b0 = _mm512_set1_pd(b[j]);
      const __m512d b1 = _mm512_set1_pd(b[j + 1]);
      for (int k = 0; k < 4; ++k) {
        even[k] = _mm512_fmadd_pd(_mm512_loadu_pd(column + 8 * k), b0, even[k]);
        odd[k] = _mm512_fmadd_pd(_mm512_loadu_pd(column + rows + 8 * k), b1, odd[k]);
      }
    }
    if (j < n) {
      const __m512d b0 = _mm512_set1_pd(b[j]);
      for (int k = 0; k < 4; ++k) even[k] = _mm512_fmadd_pd(_mm512_loadu_pd(column + 8 * k), b0, even[k]);
    }
    for (std::size_t k = 0; k < 4; ++k) storeRows8(x, i0 + 8 * k, n, _mm512_add_pd(even[k], odd[k]));
  }
  for (; i0 + 8 <= rows; i0 += 8) {
    __m512d even = _mm512_setzero_pd(), odd = _mm512_setzero_pd();
    const double* column = m + i0;
    std::size_t j = 0;
    for (; j + 2 <= n; j += 2, column += 2 * rows) {
      even = _mm512_fmadd_pd(_mm512_loadu_pd(column), _mm512_set1_pd(b[j]), even);
      odd = _mm512_fmadd_pd(_mm512_loadu_pd(column + rows), _mm512_set1_pd(b[j + 1]), odd);
    }
    if (j < n) even = _mm512_fmadd_pd(_mm512_loadu_pd(column), _mm512_set1_pd(b[j]), even);
    storeRows8(x, i0, n, _mm512_add_pd(even, odd));
  }
}
#endif

bool useAvx2() {
#ifdef PESIM_DENSE_AVX2
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

bool useAvx512() {
#ifdef PESIM_DENSE_AVX2
  return __builtin_cpu_supports("avx512f");
#else
  return false;
#endif
}

using SparseMatrix = Eigen::SparseMatrix<double>;
// The columns arrive already permuted by the COLAMD ordering of the union pattern (computed once per
// netlist in the Factorizer), so each factorisation only builds its elimination tree.
using SparseLu = Eigen::SparseLU<SparseMatrix, Eigen::NaturalOrdering<int>>;

// Sizes up to this many unknowns get a FixedDenseFactorization (converters with a few switches and
// their thermal or filter nodes: 9 to 16 unknowns are common).
constexpr std::size_t kLargestFixedDense = 16;

// Small dense systems: the inverse of the matrix, computed once per switch state from a
// partial-pivoting LU of the equilibrated matrix (conditioning.hpp), turns every solve into one
// matrix-vector product whose rows are independent — several times faster than the two dependent
// triangular sweeps for the few unknowns of a converter. With A_s = R·A·C, A⁻¹ = C·A_s⁻¹·R; the
// forward error stays of the order cond(A_s)·eps, as for the LU solve.
class DenseFactorization : public Factorization {
 public:
  explicit DenseFactorization(const Eigen::MatrixXd& a) : n_(static_cast<std::size_t>(a.rows())) {
    const Equilibration scale = equilibrate(a);
    const Eigen::MatrixXd as = scaled(a, scale);
    Eigen::PartialPivLU<Eigen::MatrixXd> lu(as);
    Eigen::MatrixXd inverse = lu.inverse();
    // The exact reciprocal condition number of the scaled matrix (its inverse is at hand).
    rcond_ = 1.0 / (norm1(as) * norm1(inverse));
    if (singularToWorkingPrecision(rcond_)) return;
    // The AVX2 product takes rows in groups of four: the columns are padded with zero rows to a
    // multiple of four (a partial group would take the strided portable loop, as slow as all the
    // full groups together for 31 unknowns).
    // The AVX-512 product takes them in groups of eight. Fixed sizes (FixedDenseFactorization)
    // keep the unpadded layout of their unrolled product.
    const std::size_t group = avx512_ ? 8 : (avx2_ ? 4 : 1);
    rows_ = n_ > kLargestFixedDense ? (n_ + group - 1) / group * group : n_;
    inverse_.assign(rows_ * n_, 0.0);
    for (Eigen::Index j = 0; j < a.rows(); ++j) {
      for (Eigen::Index i = 0; i < a.rows(); ++i) {
        inverse_[static_cast<std::size_t>(j) * rows_ + static_cast<std::size_t>(i)] =
            scale.col(i) * inverse(i, j) * scale.row(j);
      }
    }
    work_.resize(n_);
  }

  void solve(Eigen::Ref<Eigen::VectorXd> b) const override {
    solve(b.data(), work_.data());
    std::copy(work_.begin(), work_.end(), b.data());
  }
  void solve(const double* b, double* x) const override { multiplyFixed<0>(b, x); }
  double rcond() const override { return rcond_; }

 protected:
  // The inverse, column-major with column stride n (fixed sizes: no padding).
  const double* inverse() const { return inverse_.data(); }
  // x = A⁻¹·b, column by column: every x[i] starts at 0.0 and column j adds A⁻¹(i, j)·b[j] to it.
  // Each x[i] is the sum of its row's products in column order, the rounding of a row-by-row dot
  // product, while the rows form independent lanes that the compiler vectorises. N > 0 fixes the
  // size at compile time (the loops unroll fully; the same operations as N = 0 without AVX-512, so
  // the same x; the AVX-512 product sums in another order, multiplyAvx512).
  template <std::size_t N>
  void multiplyFixed(const double* b, double* x) const {
    const double* column = inverse_.data();
    if constexpr (N > 0) {
      denseProductPortable<N>(column, b, x);
    } else {
#ifdef PESIM_DENSE_AVX2
      if (avx512_) {
        multiplyAvx512(column, rows_, n_, b, x);
        return;
      }
      if (avx2_) {
        multiplyAvx2(column, rows_, n_, b, x);
        return;
      }
#endif
      std::fill(x, x + n_, 0.0);
      for (std::size_t j = 0; j < n_; ++j, column += n_) {
        const double bj = b[j];
        for (std::size_t i = 0; i < n_; ++i) x[i] += column[i] * bj;
      }
    }
  }

 private:
  std::size_t n_;
  bool avx2_ = useAvx2();
  bool avx512_ = useAvx512();
  std::size_t rows_ = 0;              // rows of inverse_ (n_, padded to a multiple of 4 for AVX2, 8 for AVX-512)
  std::vector<double> inverse_;       // column-major, column stride rows_
  mutable std::vector<double> work_;  // scratch for the in-place solve; a factorisation belongs to one run
  double rcond_ = 0.0;
};

// The dense factorisation of an N×N system, N known at compile time (converters: a handful of
// unknowns): one virtual call per solve and a fully unrolled product.
template <std::size_t N>
class FixedDenseFactorization final : public DenseFactorization {
 public:
  using DenseFactorization::DenseFactorization;
  using DenseFactorization::solve;
  void solve(const double* b, double* x) const override { multiplyFixed<N>(b, x); }
};

#ifdef PESIM_DENSE_PRODUCT_AVX2
// The same with the product in AVX2 registers (dense_product.hpp: the same x, bit for bit), for
// CPUs that have them.
template <std::size_t N>
class FixedDenseAvx2Factorization final : public DenseFactorization {
 public:
  using DenseFactorization::DenseFactorization;
  using DenseFactorization::solve;
  void solve(const double* b, double* x) const override { denseProductAvx2<N>(inverse(), b, x); }
};
#endif

// Below four unknowns a row group of four has nothing to gain.
constexpr std::size_t kSmallestAvx2Fixed = 4;


template <std::size_t N = 1>
std::unique_ptr<DenseFactorization> makeDense(const Eigen::MatrixXd& a) {
  if constexpr (N > kLargestFixedDense) {
    return std::make_unique<DenseFactorization>(a);
  } else {
    if (static_cast<std::size_t>(a.rows()) == N) {
#ifdef PESIM_DENSE_PRODUCT_AVX2
      if (N >= kSmallestAvx2Fixed && denseProductAvx2Supported()) return std::make_unique<FixedDenseAvx2Factorization<N>>(a);
#endif
      return std::make_unique<FixedDenseFactorization<N>>(a);
    }
    return makeDense<N + 1>(a);
  }
}

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
  void solve(const double* b, double* x) const override {
    Eigen::Map<Eigen::VectorXd> out(x, static_cast<Eigen::Index>(columnOf_.size()));
    out = Eigen::Map<const Eigen::VectorXd>(b, out.size());
    solve(out);
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

void Factorization::keepForRefinement(int size, const std::vector<std::pair<int, int>>& entries,
                                      const std::vector<double>& values) {
  const std::size_t n = static_cast<std::size_t>(size);
  std::vector<std::vector<std::size_t>> slotsOfRow(n);  // each row's slots, in slot order
  for (std::size_t slot = 0; slot < entries.size(); ++slot) {
    slotsOfRow[static_cast<std::size_t>(entries[slot].first)].push_back(slot);
  }
  refineRows_.resize(n);
  for (std::size_t i = 0; i < n; ++i) refineRows_[i] = static_cast<int>(i);
  std::stable_sort(refineRows_.begin(), refineRows_.end(), [&](int p, int q) {
    return slotsOfRow[static_cast<std::size_t>(p)].size() < slotsOfRow[static_cast<std::size_t>(q)].size();
  });
  refineRowStart_.assign(1, 0);
  refineColumns_.clear();
  refineValues_.clear();
  for (int row : refineRows_) {
    for (std::size_t slot : slotsOfRow[static_cast<std::size_t>(row)]) {
      refineColumns_.push_back(entries[slot].second);
      refineValues_.push_back(values[slot]);
    }
    refineRowStart_.push_back(static_cast<int>(refineColumns_.size()));
  }
  residual_.resize(n);
  correction_.resize(n);
}

void Factorization::refine(const double* b, double* x) const {
  const std::size_t n = residual_.size();
  const int* column = refineColumns_.data();
  const double* value = refineValues_.data();
  // Two passes: the first takes the error of a 1 F DC link from volts to millivolts, the second
  // to microvolts (test/native/initial-solve.test.ts).
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t k = 0; k < n; ++k) {
      const auto row = static_cast<std::size_t>(refineRows_[k]);
      double r = b[row];
      for (int e = refineRowStart_[k]; e < refineRowStart_[k + 1]; ++e) r -= value[e] * x[column[e]];
      residual_[row] = r;
    }
    solve(residual_.data(), correction_.data());
    for (std::size_t i = 0; i < n; ++i) x[i] += correction_[i];
  }
}

std::unique_ptr<Factorization> Factorizer::factorize(const std::vector<double>& values) const {
  std::unique_ptr<Factorization> result;
  if (dense_) {
    auto lu = makeDense(denseMatrix(values));
    if (singularToWorkingPrecision(lu->rcond())) return nullptr;
    result = std::move(lu);
  } else {
    SparseMatrix a = skeleton_;
    double* target = a.valuePtr();
    for (std::size_t slot = 0; slot < values.size(); ++slot) target[valueIndex_[slot]] = values[slot];
    auto lu = std::make_unique<SparseFactorization>(a, columnOf_);
    if (!lu->ok()) return nullptr;
    result = std::move(lu);
  }
  if (result->rcond() < kRefineBelowRcond) result->keepForRefinement(size_, entries_, values);
  return result;
}

}  // namespace pesim
