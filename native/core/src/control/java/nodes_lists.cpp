// java.util lists in Java blocks (see nodes.hpp): ArrayList / List of boxed numbers or booleans,
// with the JDK's semantics (java.util.ArrayList, JDK 17): index checks and their messages
// (Objects.checkIndex for get, set and remove(int); "Index: i, Size: n" for add(int, e)), equality
// of elements as Double.equals / Integer.equals (Double: same bits, so NaN equals NaN and 0.0 is
// not -0.0; a value of another boxed type never equals), and the fail-fast iterator of a for-each
// loop (ConcurrentModificationException when the body adds or removes elements; the loop ends
// without one when the removal leaves the cursor at the end, as the JDK's hasNext() decides).
#include <algorithm>
#include <cmath>

#include "control/java/nodes.hpp"

namespace pesim::java {

namespace {

// Elements a list may hold (as arrays may: nodes_expr.cpp), so that runaway code fails instead of
// exhausting the memory.
constexpr std::size_t kMaxElements = 100'000'000;

void checkRoom(const std::vector<double>& v, int line) {
  if (v.size() >= kMaxElements) fail("a list of more than " + std::to_string(kMaxElements) + " elements is too large", line);
}

ArrayRef checkedList(const Expr& e, Exec& ex, int line) {
  ArrayRef list = e.array(ex);
  if (!list) fail("NullPointerException: the list is null", line);
  return list;
}

std::size_t checkedListIndex(const Array& list, double index, int line) {
  if (index < 0 || index >= static_cast<double>(list.numbers.size())) {
    fail("IndexOutOfBoundsException: Index " + javaText(Base::Int, index) + " out of bounds for length " +
             std::to_string(list.numbers.size()),
         line);
  }
  return static_cast<std::size_t>(index);
}

// Boxed equality of two values of one boxed type (Double.equals compares doubleToLongBits, which
// maps every NaN to one value; Float.equals likewise with floatToIntBits).
bool sameValue(Base type, double a, double b) {
  if (type != Base::Double && type != Base::Float) return a == b;
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

class NewList : public Expr {
 public:
  NewList(Type t, ExprPtr source, int line) : Expr(t, line), source_(std::move(source)) {}
  ArrayRef array(Exec& ex) const override {
    auto list = std::make_shared<Array>();
    list->ofTexts = type().item == Base::String;
    if (!source_) return list;
    if (source_->type().isList()) {
      ArrayRef from = checkedList(*source_, ex, line());
      list->numbers = from->numbers;
      list->texts = from->texts;
      return list;
    }
    const double capacity = source_->number(ex);
    if (capacity < 0) fail("IllegalArgumentException: Illegal Capacity: " + javaText(Base::Int, capacity), line());
    if (capacity > static_cast<double>(kMaxElements)) fail("a list of " + javaText(Base::Int, capacity) + " elements is too large", line());
    list->numbers.reserve(std::min(static_cast<std::size_t>(capacity), std::size_t{1} << 16));  // a hint
    return list;
  }

 private:
  ExprPtr source_;  // null, the initial capacity, or the list to copy
};

class ListCall : public Expr {
 public:
  ListCall(ListOp op, ExprPtr list, std::vector<ExprPtr> args, Type result, int line)
      : Expr(result, line), op_(op), list_(std::move(list)), args_(std::move(args)) {}
  // As Java: the list reference, then the arguments, then the call (null list: NullPointerException).
  double number(Exec& ex) const override {
    ArrayRef list = list_->array(ex);
    double a[2] = {0.0, 0.0};
    for (std::size_t i = 0; i < args_.size() && i < 2; ++i) {
      if (args_[i]->type().dims == 0 && args_[i]->type().base != Base::String && args_[i]->type().base != Base::List) {
        a[i] = args_[i]->number(ex);
      } else {
        evaluateForEffect(*args_[i], ex);
      }
    }
    if (!list) fail("NullPointerException: the list is null", line());
    return apply(*list, a);
  }

 private:
  double apply(Array& list, const double* a) const {
    std::vector<double>& v = list.numbers;
    const Base item = list_->type().item;
    switch (op_) {
      case ListOp::Size: return static_cast<double>(v.size());
      case ListOp::IsEmpty: return v.empty() ? 1.0 : 0.0;
      case ListOp::Get: return v[checkedListIndex(list, a[0], line())];
      case ListOp::Set: {
        const std::size_t i = checkedListIndex(list, a[0], line());
        const double old = v[i];
        v[i] = castTo(item, a[1]);
        return old;
      }
      case ListOp::Add:
        checkRoom(v, line());
        v.push_back(castTo(item, a[0]));
        ++list.modCount;
        return 1.0;
      case ListOp::Insert:
        if (a[0] < 0 || a[0] > static_cast<double>(v.size())) {
          fail("IndexOutOfBoundsException: Index: " + javaText(Base::Int, a[0]) + ", Size: " + std::to_string(v.size()), line());
        }
        checkRoom(v, line());
        v.insert(v.begin() + static_cast<std::ptrdiff_t>(a[0]), castTo(item, a[1]));
        ++list.modCount;
        return 0.0;
      case ListOp::RemoveAt: {
        const std::size_t i = checkedListIndex(list, a[0], line());
        const double old = v[i];
        v.erase(v.begin() + static_cast<std::ptrdiff_t>(i));
        ++list.modCount;
        return old;
      }
      case ListOp::Clear:
        v.clear();
        ++list.modCount;
        return 0.0;
      case ListOp::RemoveValue: {
        const long i = find(v, item, a[0], false);
        if (i < 0) return 0.0;
        v.erase(v.begin() + i);
        ++list.modCount;
        return 1.0;
      }
      case ListOp::Contains: return find(v, item, a[0], false) >= 0 ? 1.0 : 0.0;
      case ListOp::IndexOf: return static_cast<double>(find(v, item, a[0], false));
      case ListOp::LastIndexOf: return static_cast<double>(find(v, item, a[0], true));
    }
    return 0.0;
  }

  // Index of the first (last) element equal to the argument `value`, −1 when none is. An argument
  // of another type than the elements' (an Integer for a list of Double, a String) is never equal.
  long find(const std::vector<double>& v, Base item, double value, bool last) const {
    const Type& probe = args_[0]->type();
    if (probe.dims != 0 || probe.base != item) return -1;
    for (std::size_t k = 0; k < v.size(); ++k) {
      const std::size_t i = last ? v.size() - 1 - k : k;
      if (sameValue(item, v[i], value)) return static_cast<long>(i);
    }
    return -1;
  }

  ListOp op_;
  ExprPtr list_;
  std::vector<ExprPtr> args_;
};

class Boxed : public Expr {
 public:
  Boxed(ExprPtr value, int line) : Expr(Type{value->type().base, 0, Base::Void, true}, line), value_(std::move(value)) {}
  double number(Exec& ex) const override { return value_->number(ex); }
  bool constant() const override { return value_->constant(); }

 private:
  ExprPtr value_;
};

class ForEachList : public Stmt {
 public:
  ForEachList(std::unique_ptr<NumberTarget> variable, ExprPtr list, StmtPtr body, int line)
      : Stmt(line), variable_(std::move(variable)), list_(std::move(list)), body_(std::move(body)) {}
  Flow run(Exec& ex) const override {
    ArrayRef list = checkedList(*list_, ex, line());
    const std::uint64_t expected = list->modCount;
    for (std::size_t cursor = 0; cursor != list->numbers.size(); ++cursor) {  // Itr.hasNext()
      if (list->modCount != expected) fail("ConcurrentModificationException", line());
      spend(ex, line());
      *variable_->place(ex).at = castTo(variable_->type().base, list->numbers[cursor]);
      Flow f = body_->run(ex);
      if (f == Flow::Break) break;
      if (f == Flow::Return) return f;
    }
    return Flow::Normal;
  }

 private:
  std::unique_ptr<NumberTarget> variable_;
  ExprPtr list_;
  StmtPtr body_;
};

}  // namespace

std::string listText(const Array& list, Base item) {
  std::string s = "[";
  for (std::size_t i = 0; i < list.numbers.size(); ++i) s += (i > 0 ? ", " : "") + javaText(item, list.numbers[i]);
  return s + "]";
}

ExprPtr box(ExprPtr value, int line) { return std::make_unique<Boxed>(std::move(value), line); }
ExprPtr newList(Type type, ExprPtr source, int line) { return std::make_unique<NewList>(type, std::move(source), line); }
ExprPtr listCall(ListOp op, ExprPtr list, std::vector<ExprPtr> arguments, Type result, int line) {
  return std::make_unique<ListCall>(op, std::move(list), std::move(arguments), result, line);
}
StmtPtr forEachListStatement(std::unique_ptr<NumberTarget> variable, ExprPtr list, StmtPtr body, int line) {
  return std::make_unique<ForEachList>(std::move(variable), std::move(list), std::move(body), line);
}

}  // namespace pesim::java
