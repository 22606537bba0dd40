// The memory of a run's sample arrays, faulted in ahead of the recorder. The first write to each
// 4 KiB page of fresh memory costs a kernel trap plus zeroing, for the arrays of a long run a large
// fraction of the run again (the engine section of `npm run bench`). The recorder writes the arrays
// front to back, all at the same index, so a helper thread walks them the same way, one chunk of
// each at a time, and runs ahead of it. MADV_POPULATE_WRITE (Linux ≥ 5.14) maps pages writable
// without touching their contents: it never races with the recorder's writes. Pages already mapped
// (memory that malloc reuses) cost it little; where the call is unavailable the helper stops and
// the recorder takes the faults itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace pesim::addon {

class SamplePages {
 public:
  SamplePages() = default;
  SamplePages(const SamplePages&) = delete;
  SamplePages& operator=(const SamplePages&) = delete;
  ~SamplePages() { finish(); }

  // Registers a fresh array of `count` doubles (small ones are left to the recorder); starts the
  // helper with the first one.
  void add(double* data, std::size_t count);
  // Stops the helper (within one chunk) and waits for it; the run has written every page by then.
  void finish();

 private:
  static constexpr std::size_t kSmallest = std::size_t{1} << 20;
  static constexpr std::size_t kChunk = std::size_t{64} << 10;  // a multiple of the page size

  void populate();
  // True when every page of the chunk is mapped already (a few times cheaper to ask than to
  // populate mapped pages).
  bool resident(void* chunk, std::size_t size);

  std::mutex mutex_;
  std::vector<std::pair<std::uintptr_t, std::size_t>> ranges_;  // page-aligned interiors of the arrays
  std::vector<unsigned char> residency_;  // mincore() output, used by the helper only
  bool done_ = false;
  std::thread thread_;
};

}  // namespace pesim::addon
