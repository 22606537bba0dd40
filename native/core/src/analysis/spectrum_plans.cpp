// SpectrumPlans (a bounded, thread-safe LRU of real-FFT plans by size) and spectrumInto(); see
// pesim/spectrum.hpp.
#include <algorithm>
#include <cmath>
#include <list>
#include <mutex>

#include "analysis/fft.hpp"
#include "analysis/validate.hpp"
#include "pesim/spectrum.hpp"

namespace pesim::analysis {

struct SpectrumPlans::Impl {
  std::size_t maxPlans;
  std::size_t maxBytes;
  mutable std::mutex mutex;
  std::list<std::shared_ptr<const detail::RealPow2Fft>> plans;  // most recently used first
  std::size_t bytes = 0;

  std::shared_ptr<const detail::RealPow2Fft> find(std::size_t n) {
    const std::lock_guard<std::mutex> lock(mutex);
    for (auto it = plans.begin(); it != plans.end(); ++it) {
      if ((*it)->size() == n) {
        plans.splice(plans.begin(), plans, it);
        return plans.front();
      }
    }
    return nullptr;
  }

  // Built outside the lock (tens of ms for millions of points); a concurrent builder of the same
  // size simply loses to the first insert.
  std::shared_ptr<const detail::RealPow2Fft> get(std::size_t n) {
    if (auto plan = find(n)) return plan;
    auto built = std::make_shared<const detail::RealPow2Fft>(n);
    const std::lock_guard<std::mutex> lock(mutex);
    for (const auto& plan : plans) {
      if (plan->size() == n) return plan;
    }
    plans.push_front(built);
    bytes += built->bytes();
    while (plans.size() > 1 && (plans.size() > maxPlans || bytes > maxBytes)) {
      bytes -= plans.back()->bytes();
      plans.pop_back();
    }
    return built;
  }
};

SpectrumPlans::SpectrumPlans(std::size_t maxPlans, std::size_t maxBytes)
    : impl_(std::make_unique<Impl>()) {
  impl_->maxPlans = std::max<std::size_t>(maxPlans, 1);
  impl_->maxBytes = maxBytes;
}

SpectrumPlans::~SpectrumPlans() = default;

std::size_t SpectrumPlans::cachedPlans() const {
  const std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->plans.size();
}

std::size_t SpectrumPlans::cachedBytes() const {
  const std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->bytes;
}

void spectrumInto(const double* data, std::size_t size, std::complex<double>* out, SpectrumPlans& plans,
                  unsigned threads) {
  detail::requireSampleCount(data, size);
  const bool planned = size >= 2 && detail::isPowerOfTwo(size);
  if (!planned) {
    detail::requireSamples(data, size);
    detail::realDftInto(data, size, out, nullptr, 1);
    return;
  }
  // Power-of-two sizes check the samples after the transform: a NaN or ±∞ among them always
  // reaches X[0] = Σ x[j] (the radix-4 sums and the products by the unit twiddle 1 + 0i keep a
  // non-finite value non-finite: ∞·0 is NaN), so a finite X[0] proves every sample finite without
  // a pass of its own over the data. Only when X[0] is not finite
  // does the full check run, to name the first bad sample (it passes when finite samples merely
  // overflowed). On an error, out's contents are unspecified.
  const auto plan = plans.impl_->get(size);
  detail::realDftInto(data, size, out, plan.get(), std::clamp(threads, 1u, 2u));
  if (!std::isfinite(out[0].real())) detail::requireSamples(data, size);
}

}  // namespace pesim::analysis
