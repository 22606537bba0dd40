// Element lists of the time loop without a virtual call per element and step. Each element is
// tagged once, when added, with its concrete type among a few listed final classes; visiting an
// element branches on the tag (a short, well-predicted chain) and calls the final class's method,
// which the compiler inlines (the hot methods are defined in the element headers). Elements of
// other types are called through their base class, i.e. virtually. The order of the elements is
// the order they were added: loops over a list make the same calls in the same order as a loop of
// virtual calls, so sums accumulated across elements (the right-hand side) round identically.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace pesim {

template <typename Base, typename... Types>
class TypedList {
  // A listed class with subclasses would still be called correctly (virtually), but not inlined.
  static_assert((std::is_final_v<Types> && ...), "TypedList: list final classes");

 public:
  void add(Base* element) { items_.push_back({tagOf<0>(element), element}); }
  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  Base* operator[](std::size_t i) const { return items_[i].element; }

  // Calls call(element) with element as a pointer to its listed concrete type (or Base*).
  template <typename Call>
  void visit(std::size_t i, Call&& call) const {
    dispatch<0>(items_[i], call);
  }
  template <typename Call>
  void forEach(Call&& call) const {
    for (const Item& item : items_) dispatch<0>(item, call);
  }

 private:
  static constexpr std::size_t kOther = sizeof...(Types);
  template <std::size_t I>
  using Type = std::tuple_element_t<I, std::tuple<Types...>>;

  struct Item {
    std::size_t tag;  // index in Types, or kOther
    Base* element;
  };

  template <std::size_t I>
  static std::size_t tagOf(Base* element) {
    if constexpr (I == kOther) {
      return kOther;
    } else {
      return dynamic_cast<Type<I>*>(element) != nullptr ? I : tagOf<I + 1>(element);
    }
  }

  template <std::size_t I, typename Call>
  static void dispatch(const Item& item, Call& call) {
    if constexpr (I == kOther) {
      call(item.element);
    } else {
      if (item.tag == I) call(static_cast<Type<I>*>(item.element));
      else dispatch<I + 1>(item, call);
    }
  }

  std::vector<Item> items_;
};

}  // namespace pesim
