// The refinement's residual b − A·x (see residual_rows.hpp).
#include "mna/residual_rows.hpp"

#include <algorithm>

#if defined(__GNUC__) && defined(__x86_64__)
#define PESIM_RESIDUAL_AVX2 1
#include <immintrin.h>
#endif

namespace pesim {

namespace {
constexpr std::size_t kLanes = 4;
}  // namespace

ResidualRows::ResidualRows(int size, const std::vector<std::pair<int, int>>& entries,
                           const std::vector<double>& values, bool avx2)
    : size_(static_cast<std::size_t>(size)), avx2_(avx2) {
#ifndef PESIM_RESIDUAL_AVX2
  avx2_ = false;
#endif
  const std::size_t n = size_;
  std::vector<std::vector<std::size_t>> slotsOfRow(n);  // each row's slots, in slot order
  for (std::size_t slot = 0; slot < entries.size(); ++slot) {
    slotsOfRow[static_cast<std::size_t>(entries[slot].first)].push_back(slot);
  }
  rows_.resize(n);
  for (std::size_t i = 0; i < n; ++i) rows_[i] = static_cast<int>(i);
  std::stable_sort(rows_.begin(), rows_.end(), [&](int p, int q) {
    return slotsOfRow[static_cast<std::size_t>(p)].size() < slotsOfRow[static_cast<std::size_t>(q)].size();
  });
  xPadded_.assign(n + 1, 0.0);
  r_.assign(n + 1, 0.0);
  if (!avx2_) {
    rowStart_.assign(1, 0);
    for (int row : rows_) {
      for (std::size_t slot : slotsOfRow[static_cast<std::size_t>(row)]) {
        columns_.push_back(entries[slot].second);
        values_.push_back(values[slot]);
      }
      rowStart_.push_back(static_cast<int>(columns_.size()));
    }
    return;
  }
  // Consecutive rows of the length order share a group, so that a group's rows differ little in
  // length (few padding terms).
  groupStart_.assign(1, 0);
  for (std::size_t first = 0; first < n; first += kLanes) {
    std::size_t longest = 0;
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      const std::size_t k = first + lane;
      groupRows_.push_back(k < n ? rows_[k] : static_cast<int>(n));
      if (k < n) longest = std::max(longest, slotsOfRow[static_cast<std::size_t>(rows_[k])].size());
    }
    for (std::size_t term = 0; term < longest; ++term) {
      for (std::size_t lane = 0; lane < kLanes; ++lane) {
        const std::size_t k = first + lane;
        const std::vector<std::size_t>* slots = k < n ? &slotsOfRow[static_cast<std::size_t>(rows_[k])] : nullptr;
        if (slots != nullptr && term < slots->size()) {
          laneColumns_.push_back(entries[(*slots)[term]].second);
          laneValues_.push_back(values[(*slots)[term]]);
        } else {
          laneColumns_.push_back(static_cast<int>(n));  // the zero after x
          laneValues_.push_back(0.0);
        }
      }
    }
    groupStart_.push_back(static_cast<int>(laneColumns_.size() / kLanes));
  }
}

const double* ResidualRows::residual(const double* b, const double* x) const {
  if (avx2_) residualAvx2(b, x);
  else residualPortable(b, x);
  return r_.data();
}

void ResidualRows::residualPortable(const double* b, const double* x) const {
  const int* column = columns_.data();
  const double* value = values_.data();
  for (std::size_t k = 0; k < size_; ++k) {
    const auto row = static_cast<std::size_t>(rows_[k]);
    double r = b[row];
    for (int e = rowStart_[k]; e < rowStart_[k + 1]; ++e) r -= value[e] * x[column[e]];
    r_[row] = r;
  }
}

#ifdef PESIM_RESIDUAL_AVX2
namespace {
// Four rows of the residual, one per lane: r = b[rows] − Σ values·x[columns] over the group's
// terms in order, a multiplication and a subtraction each rounded (AVX2 without FMA), as the
// portable loop does for each row.
__attribute__((target("avx2"))) void residualGroupsAvx2(std::size_t groups, const int* groupRows,
                                                        const int* groupStart, const int* columns,
                                                        const double* values, const double* b,
                                                        const double* x, double* r, int size) {
  const __m128i unused = _mm_set1_epi32(size);
  // Gathers with all lanes enabled into zeros (the unmasked gather's undefined start value makes
  // GCC warn).
  const __m256d zero = _mm256_setzero_pd();
  const __m256d all = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
  for (std::size_t g = 0; g < groups; ++g) {
    const __m128i rows = _mm_loadu_si128(reinterpret_cast<const __m128i*>(groupRows + kLanes * g));
    // An unused lane (row `size`) reads b from row 0; its result goes to r's scratch place.
    const __m128i bRows = _mm_andnot_si128(_mm_cmpeq_epi32(rows, unused), rows);
    __m256d sum = _mm256_mask_i32gather_pd(zero, b, bRows, all, 8);
    for (int e = groupStart[g]; e < groupStart[g + 1]; ++e) {
      const std::size_t at = kLanes * static_cast<std::size_t>(e);
      const __m128i cols = _mm_loadu_si128(reinterpret_cast<const __m128i*>(columns + at));
      const __m256d xs = _mm256_mask_i32gather_pd(zero, x, cols, all, 8);
      sum = _mm256_sub_pd(sum, _mm256_mul_pd(_mm256_loadu_pd(values + at), xs));
    }
    alignas(32) double lanes[kLanes];
    _mm256_store_pd(lanes, sum);
    for (std::size_t lane = 0; lane < kLanes; ++lane) r[groupRows[kLanes * g + lane]] = lanes[lane];
  }
}
}  // namespace
#endif

void ResidualRows::residualAvx2(const double* b, const double* x) const {
#ifdef PESIM_RESIDUAL_AVX2
  std::copy(x, x + size_, xPadded_.begin());  // xPadded_[size_] stays 0
  residualGroupsAvx2(groupRows_.size() / kLanes, groupRows_.data(), groupStart_.data(), laneColumns_.data(),
                     laneValues_.data(), b, xPadded_.data(), r_.data(), static_cast<int>(size_));
#else
  (void)b;
  (void)x;
#endif
}

}  // namespace pesim
