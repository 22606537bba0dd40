// The array helpers Java blocks use from the JDK: System.arraycopy (overlapping ranges copy as if
// through a temporary, as the JDK documents), java.util.Arrays.fill and Arrays.copyOf, and
// array.clone() (shallow for arrays of arrays, as in Java).
#include <algorithm>

#include "control/java/nodes.hpp"

namespace pesim::java {

namespace {

ArrayRef notNull(ArrayRef a, int line) {
  if (!a) fail("NullPointerException: the array is null", line);
  return a;
}

class ArrayCopy : public Expr {
 public:
  ArrayCopy(std::vector<ExprPtr> args, int line) : Expr(scalar(Base::Void), line), args_(std::move(args)) {}
  double number(Exec& ex) const override {
    ArrayRef src = notNull(args_[0]->array(ex), line());
    double from = args_[1]->number(ex);
    ArrayRef dst = notNull(args_[2]->array(ex), line());
    double to = args_[3]->number(ex);
    double n = args_[4]->number(ex);
    if (from < 0 || to < 0 || n < 0 || from + n > static_cast<double>(src->length()) || to + n > static_cast<double>(dst->length())) {
      fail("ArrayIndexOutOfBoundsException: arraycopy of " + javaText(Base::Int, n) + " elements from " + javaText(Base::Int, from) +
               " (length " + std::to_string(src->length()) + ") to " + javaText(Base::Int, to) + " (length " + std::to_string(dst->length()) + ")",
           line());
    }
    auto f = static_cast<std::ptrdiff_t>(from), t = static_cast<std::ptrdiff_t>(to), k = static_cast<std::ptrdiff_t>(n);
    if (src->ofRows) {
      std::vector<ArrayRef> tmp(src->rows.begin() + f, src->rows.begin() + f + k);
      std::copy(tmp.begin(), tmp.end(), dst->rows.begin() + t);
    } else {
      std::vector<double> tmp(src->numbers.begin() + f, src->numbers.begin() + f + k);
      std::copy(tmp.begin(), tmp.end(), dst->numbers.begin() + t);
    }
    return 0.0;
  }

 private:
  std::vector<ExprPtr> args_;
};

class ArrayFill : public Expr {
 public:
  ArrayFill(ExprPtr array, ExprPtr value, int line) : Expr(scalar(Base::Void), line), array_(std::move(array)), value_(std::move(value)) {}
  double number(Exec& ex) const override {
    ArrayRef a = notNull(array_->array(ex), line());
    double v = castTo(array_->type().base, value_->number(ex));
    std::fill(a->numbers.begin(), a->numbers.end(), v);
    return 0.0;
  }

 private:
  ExprPtr array_, value_;
};

// clone() (length −1) or Arrays.copyOf(a, length): zeros (or null rows) past the original's end.
class ArrayCopyOf : public Expr {
 public:
  ArrayCopyOf(ExprPtr array, ExprPtr length, int line) : Expr(array->type(), line), array_(std::move(array)), length_(std::move(length)) {}
  ArrayRef array(Exec& ex) const override {
    ArrayRef a = notNull(array_->array(ex), line());
    double n = length_ ? length_->number(ex) : static_cast<double>(a->length());
    if (n < 0) fail("NegativeArraySizeException: " + javaText(Base::Int, n), line());
    if (n > 1e8) fail("array of " + javaText(Base::Int, n) + " elements is too large", line());
    auto copy = std::make_shared<Array>(*a);
    copy->rows.resize(a->ofRows ? static_cast<std::size_t>(n) : 0);
    copy->numbers.resize(a->ofRows ? 0 : static_cast<std::size_t>(n), 0.0);
    return copy;
  }

 private:
  ExprPtr array_, length_;
};

}  // namespace

ExprPtr arrayCopy(std::vector<ExprPtr> arguments, int line) { return std::make_unique<ArrayCopy>(std::move(arguments), line); }
ExprPtr arrayFill(ExprPtr array, ExprPtr value, int line) { return std::make_unique<ArrayFill>(std::move(array), std::move(value), line); }
ExprPtr arrayCopyOf(ExprPtr array, ExprPtr length, int line) { return std::make_unique<ArrayCopyOf>(std::move(array), std::move(length), line); }

}  // namespace pesim::java
