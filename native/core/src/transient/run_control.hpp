// Atomic access to the caller's control and progress buffers. The buffers are shared with another
// thread (a JavaScript SharedArrayBuffer), so every access is an atomic load or store.
#pragma once

#include <cstdint>

#include "pesim/engine.hpp"

namespace pesim {

inline int32_t loadFlag(const RunControl& control, ControlFlag flag) {
  if (control.flags == nullptr) return 0;
#if defined(_MSC_VER)
  return static_cast<volatile int32_t*>(control.flags)[flag];
#else
  return __atomic_load_n(control.flags + flag, __ATOMIC_ACQUIRE);
#endif
}

inline void storeProgress(const RunControl& control, ProgressSlot slot, double value) {
  if (control.progress == nullptr) return;
#if defined(_MSC_VER)
  static_cast<volatile double*>(control.progress)[slot] = value;
#else
  __atomic_store(control.progress + slot, &value, __ATOMIC_RELEASE);
#endif
}

}  // namespace pesim
