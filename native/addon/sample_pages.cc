// The page-prefaulting helper of the sample arrays (see sample_pages.hh).
#include "sample_pages.hh"

#include <algorithm>
#include <system_error>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace pesim::addon {

void SamplePages::add(double* data, std::size_t count) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  const std::size_t bytes = count * sizeof(double);
  if (bytes < kSmallest) return;  // small runs: not worth a thread
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(page - 1);
  if (end <= begin) return;
  std::lock_guard<std::mutex> lock(mutex_);
  ranges_.emplace_back(begin, end - begin);
  if (thread_.joinable()) return;
  try {
    thread_ = std::thread([this] { populate(); });
  } catch (const std::system_error&) {
    // No thread to spare: the recorder takes the faults itself.
  }
#else
  static_cast<void>(data);
  static_cast<void>(count);
#endif
}

void SamplePages::finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  if (thread_.joinable()) thread_.join();
}

void SamplePages::populate() {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  std::vector<std::pair<std::uintptr_t, std::size_t>> ranges;
  for (std::size_t offset = 0;; offset += kChunk) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (done_) return;
      ranges = ranges_;  // arrays registered after the helper started join at the next chunk
    }
    bool more = false;
    for (const auto& [begin, length] : ranges) {
      if (offset >= length) continue;
      more = true;
      void* chunk = reinterpret_cast<void*>(begin + offset);
      const std::size_t size = std::min(kChunk, length - offset);
      if (resident(chunk, size)) continue;  // reused memory: nothing to fault in
      if (madvise(chunk, size, MADV_POPULATE_WRITE) != 0) return;  // e.g. EINVAL before Linux 5.14
    }
    if (!more) return;
  }
#endif
}

bool SamplePages::resident(void* chunk, std::size_t size) {
#if defined(__linux__)
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  residency_.resize((size + page - 1) / page);
  if (mincore(chunk, size, residency_.data()) != 0) return false;
  return std::all_of(residency_.begin(), residency_.end(), [](unsigned char r) { return (r & 1) != 0; });
#else
  static_cast<void>(chunk);
  static_cast<void>(size);
  return false;
#endif
}

}  // namespace pesim::addon
