// Least-recently-used cache of factorisations keyed by the switch-state bits plus the integration
// coefficients in use, so a converter cycling through a few states factorises each state once.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <string>
#include <unordered_map>

#include "mna/factorization.hpp"

namespace pesim {

class LuCache {
 public:
  explicit LuCache(std::size_t capacity) : capacity_(capacity < 1 ? 1 : capacity) {}

  // The cached factorisation for `key`, or null.
  const Factorization* find(const std::string& key);
  const Factorization* insert(const std::string& key, std::unique_ptr<Factorization> lu);

 private:
  using Entry = std::pair<std::string, std::unique_ptr<Factorization>>;
  std::size_t capacity_;
  std::list<Entry> order_;  // most recently used first
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
};

}  // namespace pesim
