// Element lists of the time loop without a virtual call per element and step. Each element is
// tagged once, when added, with its concrete type among a few listed final classes; visiting an
// element branches on the tag (a short, well-predicted chain) and calls the final class's method,
// which the compiler inlines (the hot methods are defined in the element headers). Elements of
// other types are called through their base class, i.e. virtually. The order of the elements is
// the order they were added: loops over a list make the same calls in the same order as a loop of
// virtual calls, so sums accumulated across elements (the right-hand side) round identically.
// Loops whose calls are independent of one another (each element updates only itself) can take
// the elements grouped by type instead (forEachByType): no type test per element, and each
// group's loop is a plain loop over concrete pointers.
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
  void add(Base* element) {
    const std::size_t tag = tagOf<0>(element);
    addToGroup<0>(tag, items_.size(), element);
    items_.push_back({tag, element});
  }
  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  // Whether every element is of a listed type (none is called through the base class).
  bool allListed() const { return std::get<kOther>(groups_).empty(); }
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
  // Calls call(i, element) for every element (i: its position in the list): all elements of the
  // first listed type in list order, then those of the second, …, then the others. Only for
  // calls that do not depend on one another's effects.
  template <typename Call>
  void forEachByType(Call&& call) const {
    forEachGroup<0>(call);
  }

 private:
  static constexpr std::size_t kOther = sizeof...(Types);
  template <std::size_t I>
  using Type = std::tuple_element_t<I, std::tuple<Types...>>;

  struct Item {
    std::size_t tag;  // index in Types, or kOther
    Base* element;
  };
  template <typename T>
  struct Member {
    std::size_t index;  // position in the list
    T* element;
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

  template <std::size_t I>
  void addToGroup(std::size_t tag, std::size_t index, Base* element) {
    if constexpr (I == kOther) {
      std::get<kOther>(groups_).push_back({index, element});
    } else {
      if (tag == I) std::get<I>(groups_).push_back({index, static_cast<Type<I>*>(element)});
      else addToGroup<I + 1>(tag, index, element);
    }
  }

  template <std::size_t I, typename Call>
  void forEachGroup(Call& call) const {
    for (const auto& member : std::get<I>(groups_)) call(member.index, member.element);
    if constexpr (I < kOther) forEachGroup<I + 1>(call);
  }

  std::vector<Item> items_;
  // The same elements by type (groups_[I]: those of Types[I], the last: the others), list order.
  std::tuple<std::vector<Member<Types>>..., std::vector<Member<Base>>> groups_;
};

}  // namespace pesim
