// LRU bookkeeping of factorisations (see lu_cache.hpp).
#include "mna/lu_cache.hpp"

namespace pesim {

const Factorization* LuCache::find(const std::string& key) {
  auto it = index_.find(key);
  if (it == index_.end()) return nullptr;
  order_.splice(order_.begin(), order_, it->second);
  return it->second->second.get();
}

const Factorization* LuCache::insert(const std::string& key, std::unique_ptr<Factorization> lu) {
  if (order_.size() >= capacity_) {
    index_.erase(order_.back().first);
    order_.pop_back();
  }
  order_.emplace_front(key, std::move(lu));
  index_[key] = order_.begin();
  return order_.front().second.get();
}

}  // namespace pesim
