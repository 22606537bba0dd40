// The residual r = b − A·x of the iterative refinement (Factorization::refine) for a matrix given
// by its slots (row, column, value; several slots may share an entry). Every r_i is b_i minus
// a_s·x_j for each slot s of row i in slot order, each product and each difference rounded on its
// own, so the two forms below give the same r, bit for bit:
//  - portable: the rows one after the other, each summed in a register (rows stored shortest
//    first, so that the inner loop's count repeats from row to row and its branch is predicted);
//  - AVX2: four rows at a time, one per lane of a register. Rows of similar length share a
//    register (sorted by length); each term reads its four x_j with one gather. A row shorter
//    than its group's longest ends with terms 0·0 from a zero kept after x (r − 0 = r exactly,
//    also for r = −0 and NaN). A quarter of the instructions of the portable form.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace pesim {

class ResidualRows {
 public:
  ResidualRows() = default;
  // `size` rows and columns; entries[s] = (row, column) of slot s, values[s] its value.
  ResidualRows(int size, const std::vector<std::pair<int, int>>& entries, const std::vector<double>& values,
               bool avx2);
  bool empty() const { return size_ == 0; }
  // r = b − A·x, b and x of `size` values; r is kept here (its `size` values valid until the next
  // call).
  const double* residual(const double* b, const double* x) const;

 private:
  void residualPortable(const double* b, const double* x) const;
  void residualAvx2(const double* b, const double* x) const;

  std::size_t size_ = 0;
  bool avx2_ = false;
  // Portable form (compressed rows): the k-th stored row is matrix row rows_[k], its terms
  // rowStart_[k] .. rowStart_[k + 1] − 1.
  std::vector<int> rows_;
  std::vector<int> rowStart_;
  std::vector<int> columns_;
  std::vector<double> values_;
  // AVX2 form: group g holds four rows (groupRows_[4g .. 4g + 3], `size` for an unused lane, whose
  // b is read from row 0 and whose r goes to the scratch place after r) and the terms groupStart_[g] ..
  // groupStart_[g + 1] − 1, each with its four columns (laneColumns_, 4 per term; `size` is the
  // zero after x) and values (laneValues_, 4 per term).
  std::vector<int> groupRows_;
  std::vector<int> groupStart_;
  std::vector<int> laneColumns_;
  std::vector<double> laneValues_;
  // x followed by a zero (the padding terms' column); r followed by a scratch place.
  mutable std::vector<double> xPadded_;
  mutable std::vector<double> r_;
};

}  // namespace pesim
