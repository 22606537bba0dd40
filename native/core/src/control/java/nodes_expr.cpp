// Expression nodes of compiled Java blocks (see nodes.hpp). Operators follow JLS §15: int and
// long arithmetic wraps in two's complement, integer division truncates and throws on a zero
// divisor, shifts use the low 5 (int) or 6 (long) bits of the distance, % on doubles is fmod.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <utility>

#include "control/java/arith.hpp"
#include "control/java/array_checks.hpp"
#include "control/java/bytecode.hpp"
#include "control/java/nodes.hpp"

namespace pesim::java {

void fail(const std::string& message, int line) { throw CodeFailure{message, line}; }

std::string Expr::text(Exec& ex) const {
  if (type_.isArray()) {
    ArrayRef a = array(ex);
    return a ? typeName(type_) + " of length " + std::to_string(a->length()) : "null";
  }
  if (type_.isReference()) return objectText(type_, array(ex));
  const double v = number(ex);
  if (type_.boxed && isNullBoxed(v)) return "null";
  return javaText(type_.base, v);
}

namespace {

Op opFromText(const std::string& s) {
  static const struct { const char* text; Op op; } kOps[] = {
      {"+", Op::Add}, {"-", Op::Sub}, {"*", Op::Mul}, {"/", Op::Div}, {"%", Op::Rem}, {"&", Op::And},
      {"|", Op::Or}, {"^", Op::Xor}, {"<<", Op::Shl}, {">>", Op::Shr}, {">>>", Op::Ushr}, {"==", Op::Eq},
      {"!=", Op::Ne}, {"<", Op::Lt}, {"<=", Op::Le}, {">", Op::Gt}, {">=", Op::Ge}};
  for (const auto& o : kOps) if (s == o.text) return o.op;
  fail("unknown operator '" + s + "'", 0);
}

// Lowering helpers (bytecode.hpp).
Instr instr(Code code, int line) {
  Instr i;
  i.code = code;
  i.line = line;
  return i;
}
Reg destination(Lowering& lw, Reg want) { return want != kNoReg ? want : lw.temp(); }
// True when lowering `e` emits no code (a constant or a variable): it cannot fail.
bool leaf(const Expr& e) {
  if (e.constant()) return true;
  const auto* target = dynamic_cast<const NumberTarget*>(&e);
  return target != nullptr && target->lowerVariable() != kNoReg;
}
// The nodes check the array for null before they evaluate its index: an index that is not a leaf
// (its evaluation may fail or have effects) gets that check first; for a leaf, the check of
// ElementAddress/LoadAt comes at the same point.
void checkNullBeforeIndex(Lowering& lw, std::uint32_t p, const Expr& index, int line) {
  if (leaf(index)) return;
  Instr check = instr(Code::CheckNull, line);
  check.a = p;
  lw.emit(check);
}
// The element at `index` of the array in pointer `p` (checked: null, bounds): its address in a
// pointer register. The null check comes before the index is evaluated, as the nodes do it.
std::uint32_t elementAddress(Lowering& lw, std::uint32_t p, const Expr& index, int line) {
  checkNullBeforeIndex(lw, p, index, line);
  Instr i = instr(Code::ElementAddress, line);
  i.b = lw.number(index);
  i.a = p;
  i.d = p;
  lw.emit(i);
  return p;
}

// The element at `index` of the array in pointer `p`, read (checked as elementAddress does).
Reg loadAt(Lowering& lw, std::uint32_t p, const Expr& index, Reg want, int line) {
  checkNullBeforeIndex(lw, p, index, line);
  Instr i = instr(Code::LoadAt, line);
  i.b = lw.number(index);
  i.a = p;
  i.d = destination(lw, want);
  lw.emit(i);
  return i.d;
}

// Stores number `value` (converted to `kind`) at the address in pointer `p`; when the assignment's
// value is used, it is read back from there (converted, as Java's assignment expression gives it).
Reg storeAt(Lowering& lw, std::uint32_t p, Reg value, Base kind, bool needed, Reg want, int line) {
  Instr store = instr(Code::StorePointer, line);
  store.kind = kind;
  store.a = value;
  store.d = p;
  lw.emit(store);
  if (!needed) return kNoReg;
  Instr load = instr(Code::LoadPointer, line);
  load.a = p;
  load.d = destination(lw, want);
  lw.emit(load);
  return load.d;
}

class Constant final : public Expr {
 public:
  Constant(Type t, double v, int line) : Expr(t, line), v_(v) {}
  double number(Exec&) const override { return v_; }
  bool constant() const override { return true; }
  bool sideEffectFree() const override { return true; }
  Reg lowerNumber(Lowering& lw, Reg) const override { return lw.constant(v_); }
  void lowerBranch(Lowering& lw, bool when, int label) const override {
    if ((v_ != 0.0) == when) lw.jump(Code::Jump, label);
  }

 private:
  double v_;
};

class StringConstant : public Expr {
 public:
  StringConstant(std::string s, int line) : Expr(scalar(Base::String), line), s_(std::move(s)) {}
  std::string text(Exec&) const override { return s_; }
  bool constant() const override { return true; }

 private:
  std::string s_;
};

class NullArray : public Expr {
 public:
  using Expr::Expr;
};

class LocalNumber final : public NumberTarget {
 public:
  LocalNumber(Type t, int slot, int line) : NumberTarget(t, line), slot_(slot) {}
  NumberPlace place(Exec& ex) const override { return {slot(ex), nullptr}; }
  bool hasSlot() const override { return true; }
  double* slot(Exec& ex) const override { return &ex.frame->numbers[static_cast<std::size_t>(slot_)]; }
  double number(Exec& ex) const override { return ex.frame->numbers[static_cast<std::size_t>(slot_)]; }
  bool sideEffectFree() const override { return true; }
  Reg lowerVariable() const override { return makeReg(Space::Frame, static_cast<std::uint32_t>(slot_)); }
  Reg lowerNumber(Lowering&, Reg) const override { return lowerVariable(); }
  int index() const { return slot_; }

 private:
  int slot_;
};

class FieldNumber final : public NumberTarget {
 public:
  FieldNumber(Type t, int slot, int line) : NumberTarget(t, line), slot_(slot) {}
  NumberPlace place(Exec& ex) const override { return {slot(ex), nullptr}; }
  bool hasSlot() const override { return true; }
  double* slot(Exec& ex) const override { return &ex.fieldNumbers[static_cast<std::size_t>(slot_)]; }
  double number(Exec& ex) const override { return ex.fieldNumbers[static_cast<std::size_t>(slot_)]; }
  bool sideEffectFree() const override { return true; }
  Reg lowerVariable() const override { return makeReg(Space::Field, static_cast<std::uint32_t>(slot_)); }
  Reg lowerNumber(Lowering&, Reg) const override { return lowerVariable(); }
  int index() const { return slot_; }

 private:
  int slot_;
};

class LocalArray final : public ArrayTarget {
 public:
  LocalArray(Type t, int slot, int line) : ArrayTarget(t, line), slot_(slot) {}
  ArrayRef* place(Exec& ex) const override { return &ex.frame->arrays[static_cast<std::size_t>(slot_)]; }
  bool sideEffectFree() const override { return true; }
  Reg lowerArrayVariable() const override { return makeReg(Space::Frame, static_cast<std::uint32_t>(slot_)); }
  int index() const { return slot_; }

 private:
  int slot_;
};

class FieldArray final : public ArrayTarget {
 public:
  FieldArray(Type t, int slot, int line) : ArrayTarget(t, line), slot_(slot) {}
  ArrayRef* place(Exec& ex) const override { return &ex.fieldArrays[static_cast<std::size_t>(slot_)]; }
  bool sideEffectFree() const override { return true; }
  Reg lowerArrayVariable() const override { return makeReg(Space::Field, static_cast<std::uint32_t>(slot_)); }
  int index() const { return slot_; }

 private:
  int slot_;
};

class LocalString : public StringTarget {
 public:
  LocalString(int slot, int line) : StringTarget(scalar(Base::String), line), slot_(slot) {}
  std::string* place(Exec& ex) const override { return &ex.frame->strings[static_cast<std::size_t>(slot_)]; }

 private:
  int slot_;
};

class FieldString : public StringTarget {
 public:
  FieldString(int slot, int line) : StringTarget(scalar(Base::String), line), slot_(slot) {}
  std::string* place(Exec& ex) const override { return &ex.fieldStrings[static_cast<std::size_t>(slot_)]; }

 private:
  int slot_;
};

class AssignString : public Expr {
 public:
  AssignString(std::unique_ptr<StringTarget> target, ExprPtr value, bool append, int line)
      : Expr(scalar(Base::String), line), target_(std::move(target)), value_(std::move(value)), append_(append) {}
  std::string text(Exec& ex) const override {
    std::string* at = target_->place(ex);
    // `s += value`: the text s had before the value is evaluated (JLS §15.26.2).
    std::string before = append_ ? *at : std::string();
    std::string v = value_->text(ex);
    if (append_) *at = shownText(before) + shownText(v);
    else *at = std::move(v);
    return *at;
  }

 private:
  std::unique_ptr<StringTarget> target_;
  ExprPtr value_;
  bool append_;
};

class TimeValue : public Expr {
 public:
  using Expr::Expr;
  double number(Exec& ex) const override { return ex.time; }
  bool sideEffectFree() const override { return true; }
  Reg lowerNumber(Lowering& lw, Reg want) const override {
    Instr i = instr(Code::Time, line());
    i.d = destination(lw, want);
    lw.emit(i);
    return i.d;
  }
};

class StepValue : public Expr {
 public:
  using Expr::Expr;
  double number(Exec& ex) const override { return ex.dt; }
  bool sideEffectFree() const override { return true; }
  Reg lowerNumber(Lowering& lw, Reg want) const override {
    Instr i = instr(Code::Step, line());
    i.d = destination(lw, want);
    lw.emit(i);
    return i.d;
  }
};

ArrayRef checkedArray(const Expr& e, Exec& ex, int line) {
  ArrayRef a = e.array(ex);
  if (!a) fail("NullPointerException: the array is null", line);
  return a;
}

class NumberElement final : public NumberTarget {
 public:
  NumberElement(Type t, ExprPtr array, ExprPtr index, int line)
      : NumberTarget(t, line), array_(std::move(array)), index_(std::move(index)) {
    // An array held by a variable (or by a row of one) stays held while side-effect-free
    // indices are evaluated: the element is then read without a reference of its own.
    if (array_->sideEffectFree() && index_->sideEffectFree()) held_ = dynamic_cast<const ArrayTarget*>(array_.get());
    if (held_ != nullptr) {
      variable_ = dynamic_cast<const LocalArray*>(held_);
      field_ = dynamic_cast<const FieldArray*>(held_);
    }
    if (index_->constant()) {
      Exec none;
      constantIndex_ = index_->number(none);
    }
  }
  NumberPlace place(Exec& ex) const override {
    ArrayRef a = checkedArray(*array_, ex, line());
    std::size_t i = checkedIndex(*a, index_->number(ex), line());
    return {&a->numbers[i], a};
  }
  bool hasSlot() const override { return held_ != nullptr; }
  double* slot(Exec& ex) const override {
    Array* a = (variable_ != nullptr ? variable_->place(ex) : field_ != nullptr ? field_->place(ex) : held_->place(ex))->get();
    if (a == nullptr) fail("NullPointerException: the array is null", line());
    return &a->numbers[checkedIndex(*a, constantIndex_ ? *constantIndex_ : index_->number(ex), line())];
  }
  double number(Exec& ex) const override {
    if (held_ != nullptr) return *slot(ex);
    ArrayRef a = checkedArray(*array_, ex, line());
    return a->numbers[checkedIndex(*a, index_->number(ex), line())];
  }
  bool sideEffectFree() const override { return array_->sideEffectFree() && index_->sideEffectFree(); }
  // Through the variables that hold the array (the slot() path); otherwise through the node.
  std::uint32_t lowerAddress(Lowering& lw) const override {
    if (held_ == nullptr) throw NotLowered{};
    return elementAddress(lw, held_->lowerPointer(lw), *index_, line());
  }
  Reg lowerNumber(Lowering& lw, Reg want) const override {
    if (held_ == nullptr) return Expr::lowerNumber(lw, want);
    reportTableRead(lw);
    const Reg direct = lowerRowElementK(lw, want);
    if (direct != kNoReg) return direct;
    return loadAt(lw, held_->lowerPointer(lw), *index_, want, line());
  }
  void reportTableRead(Lowering& lw) const;  // after RowElement
  Reg lowerRowElementK(Lowering& lw, Reg want) const;  // after RowElement

 private:
  ExprPtr array_, index_;
  const ArrayTarget* held_ = nullptr;
  const LocalArray* variable_ = nullptr;  // held_ when it is a local or field variable (called directly)
  const FieldArray* field_ = nullptr;
  std::optional<double> constantIndex_;  // the index when it is a constant (xIN[0], yOUT[1])
};

// `a[i]` for a number array held in a local or field variable and an index that is a constant or a
// side-effect-free expression: NumberElement's commonest shape (xIN[0], yOUT[k]), with the
// variable's slot and the constant index fixed when compiled, so a read is one load of the
// reference, one bounds check and one load of the element.
template <bool field, bool constantIndex>
class VariableElement final : public NumberTarget {
 public:
  VariableElement(Type t, int arraySlot, ExprPtr index, int line)
      : NumberTarget(t, line), arraySlot_(static_cast<std::size_t>(arraySlot)), index_(std::move(index)) {
    if constexpr (constantIndex) {
      Exec none;
      constant_ = index_->number(none);
    }
  }
  // An assignment's place keeps the array alive: its value may assign the variable another array.
  NumberPlace place(Exec& ex) const override {
    double* at = slot(ex);
    return {at, field ? ex.fieldArrays[arraySlot_] : ex.frame->arrays[arraySlot_]};
  }
  bool hasSlot() const override { return true; }
  double* slot(Exec& ex) const override {
    Array* a = (field ? ex.fieldArrays[arraySlot_] : ex.frame->arrays[arraySlot_]).get();
    if (a == nullptr) fail("NullPointerException: the array is null", line());
    return &a->numbers[checkedIndex(*a, constantIndex ? constant_ : index_->number(ex), line())];
  }
  double number(Exec& ex) const override { return *slot(ex); }
  bool sideEffectFree() const override { return true; }
  Reg arrayReg() const { return makeReg(field ? Space::Field : Space::Frame, static_cast<std::uint32_t>(arraySlot_)); }
  Reg lowerNumber(Lowering& lw, Reg want) const override {
    std::uint32_t k = 0;
    if (constantIndex && pesim::java::constantIndex(constant_, k)) {
      Instr i = instr(Code::LoadElementK, line());
      i.a = arrayReg();
      i.k = constant_;
      i.target = k;
      i.d = destination(lw, want);
      lw.emit(i);
      return i.d;
    }
    if (leaf(*index_)) {
      Instr i = instr(Code::LoadElement, line());
      i.a = arrayReg();
      i.b = lw.number(*index_);
      i.d = destination(lw, want);
      lw.emit(i);
      return i.d;
    }
    Instr pointer = instr(Code::ArrayPointer, line());
    pointer.d = lw.pointer();
    pointer.a = arrayReg();
    lw.emit(pointer);
    return loadAt(lw, pointer.d, *index_, want, line());
  }
  std::uint32_t lowerAddress(Lowering& lw) const override {
    Instr i = instr(Code::ArrayPointer, line());
    i.d = lw.pointer();
    i.a = arrayReg();
    lw.emit(i);
    return elementAddress(lw, i.d, *index_, line());
  }
  std::size_t arraySlot() const { return arraySlot_; }
  double indexValue() const { return constant_; }

 private:
  std::size_t arraySlot_;
  ExprPtr index_;
  double constant_ = 0.0;
};

template <bool field>
std::unique_ptr<NumberTarget> variableElement(Type t, int arraySlot, ExprPtr index, int line) {
  if (index->constant()) return std::make_unique<VariableElement<field, true>>(t, arraySlot, std::move(index), line);
  return std::make_unique<VariableElement<field, false>>(t, arraySlot, std::move(index), line);
}

class RowElement final : public ArrayTarget {
 public:
  RowElement(Type t, ExprPtr array, ExprPtr index, int line)
      : ArrayTarget(t, line), array_(std::move(array)), index_(std::move(index)) {}
  ArrayRef* place(Exec& ex) const override {
    ArrayRef a = checkedArray(*array_, ex, line());
    // An assignment target: the outer array stays alive through the variable that holds it.
    return &a->rows[checkedIndex(*a, index_->number(ex), line())];
  }
  // A read copies the row's reference before the outer array is released: that array may be a
  // temporary (a call's result, `f()[0][2]`), held by nothing else.
  ArrayRef array(Exec& ex) const override {
    ArrayRef a = checkedArray(*array_, ex, line());
    return a->rows[checkedIndex(*a, index_->number(ex), line())];
  }
  bool sideEffectFree() const override { return array_->sideEffectFree() && index_->sideEffectFree(); }
  // The array variable (local or field) whose row this is, else ~0.
  Reg outerVariable() const {
    const auto* outer = dynamic_cast<const ArrayTarget*>(array_.get());
    return outer != nullptr ? outer->lowerArrayVariable() : kNoReg;
  }
  const Expr& index() const { return *index_; }
  // The local array variable whose row this is, else ~0.
  Reg outerLocalVariable() const {
    const auto* local = dynamic_cast<const LocalArray*>(array_.get());
    return local != nullptr ? local->lowerArrayVariable() : kNoReg;
  }
  // The row of an array held through variables (side-effect-free), as place() reaches it.
  std::uint32_t lowerPointer(Lowering& lw) const override {
    const auto* outer = dynamic_cast<const ArrayTarget*>(array_.get());
    if (outer == nullptr || !sideEffectFree()) throw NotLowered{};
    if (outer->lowerArrayVariable() != kNoReg && leaf(*index_)) {
      Instr i = instr(Code::RowOf, line());
      i.a = outer->lowerArrayVariable();
      i.b = lw.number(*index_);
      i.d = lw.pointer();
      lw.emit(i);
      return i.d;
    }
    const std::uint32_t p = outer->lowerPointer(lw);
    if (!leaf(*index_)) {
      Instr check = instr(Code::CheckNull, line());
      check.a = p;
      lw.emit(check);
    }
    Instr i = instr(Code::Row, line());
    i.b = lw.number(*index_);
    i.a = p;
    i.d = p;
    lw.emit(i);
    return p;
  }

 private:
  ExprPtr array_, index_;
};

// `table[i][k]` with k a constant: the row and its element in one instruction (LoadRowK), which
// checks what RowOf and LoadAt check, in their order; kNoReg when the read has another shape, or
// when the row and the element are on different lines (each instruction has one line to fail at).
Reg NumberElement::lowerRowElementK(Lowering& lw, Reg want) const {
  const auto* row = dynamic_cast<const RowElement*>(held_);
  std::uint32_t k = 0;
  if (row == nullptr || !constantIndex_ || !constantIndex(*constantIndex_, k) || row->line() != line()) return kNoReg;
  const Reg table = row->outerVariable();
  if (table == kNoReg || !leaf(row->index())) return kNoReg;
  Instr i = instr(Code::LoadRowK, line());
  i.a = table;
  i.b = lw.number(row->index());
  i.k = *constantIndex_;
  i.target = k;
  i.d = destination(lw, want);
  lw.emit(i);
  return i.d;
}

void NumberElement::reportTableRead(Lowering& lw) const {
  if (const auto* row = dynamic_cast<const RowElement*>(held_)) {
    const Reg variable = row->outerLocalVariable();
    if (variable != kNoReg) lw.tableRead(variable);
  }
}

class TextElement : public StringTarget {
 public:
  TextElement(ExprPtr array, ExprPtr index, int line) : StringTarget(scalar(Base::String), line), array_(std::move(array)), index_(std::move(index)) {}
  std::string* place(Exec& ex) const override {
    // An assignment target: the array stays alive through the variable that holds it.
    ArrayRef a = checkedArray(*array_, ex, line());
    return &a->texts[checkedIndex(*a, index_->number(ex), line())];
  }
  // A read copies the text while the array is held: it may be a temporary (a call's result).
  std::string text(Exec& ex) const override {
    ArrayRef a = checkedArray(*array_, ex, line());
    return a->texts[checkedIndex(*a, index_->number(ex), line())];
  }

 private:
  ExprPtr array_, index_;
};

class Length : public Expr {
 public:
  Length(ExprPtr a, int line) : Expr(scalar(Base::Int), line), a_(std::move(a)) {}
  double number(Exec& ex) const override { return static_cast<double>(checkedArray(*a_, ex, line())->length()); }
  bool sideEffectFree() const override { return a_->sideEffectFree(); }
  Reg lowerNumber(Lowering& lw, Reg want) const override {
    const auto* target = dynamic_cast<const ArrayTarget*>(a_.get());
    if (target == nullptr || !a_->sideEffectFree()) return Expr::lowerNumber(lw, want);
    Instr i = instr(Code::Length, line());
    i.a = target->lowerPointer(lw);
    i.d = destination(lw, want);
    lw.emit(i);
    return i.d;
  }

 private:
  ExprPtr a_;
};

class Unary final : public Expr {
 public:
  Unary(char op, ExprPtr e, Type t, int line) : Expr(t, line), op_(op), e_(std::move(e)) {}
  double number(Exec& ex) const override { return unaryValue(op_, type().base, e_->number(ex), line()); }
  Reg lowerNumber(Lowering& lw, Reg want) const override {
    Instr i = instr(Code::Unary, line());
    i.a = lw.number(*e_);
    i.k = op_;
    i.kind = type().base;
    i.d = destination(lw, want);
    lw.emit(i);
    return i.d;
  }
  void lowerBranch(Lowering& lw, bool when, int label) const override {
    if (op_ == '!') lw.branch(*e_, !when, label);
    else Expr::lowerBranch(lw, when, label);
  }
  bool sideEffectFree() const override { return e_->sideEffectFree(); }

 private:
  char op_;
  ExprPtr e_;
};

class Binary final : public Expr {
 public:
  Binary(Op op, Base kind, ExprPtr a, ExprPtr b, Type t, int line)
      : Expr(t, line), op_(op), kind_(kind), a_(std::move(a)), b_(std::move(b)) {}
  double number(Exec& ex) const override {
    double a = a_->number(ex);
    return apply(op_, kind_, a, b_->number(ex), line());
  }
  bool sideEffectFree() const override { return a_->sideEffectFree() && b_->sideEffectFree(); }
  Reg lowerNumber(Lowering& lw, Reg want) const override {
    Instr i = instr(op_ < Op::Eq ? arithmeticCode(op_, kind_) : Code::Arith, line());
    i.a = lw.number(*a_);
    i.b = lw.number(*b_);
    i.op = op_;
    i.kind = kind_;
    i.d = destination(lw, want);
    lw.emit(i);
    return i.d;
  }

 private:
  Op op_;
  Base kind_;
  ExprPtr a_, b_;
};

// The commonest shapes of Binary without its dispatch: a comparison (any kind) or double
// arithmetic, `op` fixed at compile time, the right operand read in place when it is a constant.
// The same operations as apply(), so the same results.
template <Op op>
double direct(double a, double b) {
  if constexpr (op == Op::Add) return a + b;
  if constexpr (op == Op::Sub) return a - b;
  if constexpr (op == Op::Mul) return a * b;
  if constexpr (op == Op::Div) return a / b;
  if constexpr (op == Op::Eq) return a == b;
  if constexpr (op == Op::Ne) return a != b;
  if constexpr (op == Op::Lt) return a < b;
  if constexpr (op == Op::Le) return a <= b;
  if constexpr (op == Op::Gt) return a > b;
  if constexpr (op == Op::Ge) return a >= b;
}

// How a node reads an operand: through its node, or (the commonest leaves: constants, local and
// field variables, elements at a constant index of arrays held in variables: xIN[0], yOUT[1]) in
// place, one virtual call fewer per operand. Element reads check as VariableElement does.
enum class Operand { Node, Constant, Local, Field, LocalElement, FieldElement };

Operand operandKind(const Expr& e) {
  if (e.constant()) return Operand::Constant;
  if (dynamic_cast<const LocalNumber*>(&e) != nullptr) return Operand::Local;
  if (dynamic_cast<const FieldNumber*>(&e) != nullptr) return Operand::Field;
  if (dynamic_cast<const VariableElement<false, true>*>(&e) != nullptr) return Operand::LocalElement;
  if (dynamic_cast<const VariableElement<true, true>*>(&e) != nullptr) return Operand::FieldElement;
  return Operand::Node;
}

struct OperandRead {
  const Expr* node;
  std::size_t slot;  // the variable's slot (of the array for elements)
  double constant;   // the value of a constant, the index of an element
};

OperandRead operandRead(const Expr& e, Operand kind) {
  OperandRead r{&e, 0, 0.0};
  switch (kind) {
    case Operand::Constant: {
      Exec none;
      r.constant = e.number(none);
      break;
    }
    case Operand::Local: r.slot = static_cast<std::size_t>(static_cast<const LocalNumber&>(e).index()); break;
    case Operand::Field: r.slot = static_cast<std::size_t>(static_cast<const FieldNumber&>(e).index()); break;
    case Operand::LocalElement:
      r.slot = static_cast<const VariableElement<false, true>&>(e).arraySlot();
      r.constant = static_cast<const VariableElement<false, true>&>(e).indexValue();
      break;
    case Operand::FieldElement:
      r.slot = static_cast<const VariableElement<true, true>&>(e).arraySlot();
      r.constant = static_cast<const VariableElement<true, true>&>(e).indexValue();
      break;
    case Operand::Node: break;
  }
  return r;
}

inline double element(const ArrayRef& ref, const OperandRead& r) {
  const Array* a = ref.get();
  if (a == nullptr) fail("NullPointerException: the array is null", r.node->line());
  return a->numbers[checkedIndex(*a, r.constant, r.node->line())];
}

template <Operand kind>
double read(const OperandRead& r, Exec& ex) {
  if constexpr (kind == Operand::Constant) return r.constant;
  if constexpr (kind == Operand::Local) return ex.frame->numbers[r.slot];
  if constexpr (kind == Operand::Field) return ex.fieldNumbers[r.slot];
  if constexpr (kind == Operand::LocalElement) return element(ex.frame->arrays[r.slot], r);
  if constexpr (kind == Operand::FieldElement) return element(ex.fieldArrays[r.slot], r);
  if constexpr (kind == Operand::Node) return r.node->number(ex);
}

template <Op op, Operand left, Operand right>
class DirectBinary final : public Expr {
 public:
  DirectBinary(ExprPtr a, ExprPtr b, Type t, int line)
      : Expr(t, line), a_(std::move(a)), b_(std::move(b)), left_(operandRead(*a_, left)), right_(operandRead(*b_, right)) {}
  double number(Exec& ex) const override {
    const double a = read<left>(left_, ex);  // the left operand first (JLS §15.7.1)
    return direct<op>(a, read<right>(right_, ex));
  }
  bool sideEffectFree() const override { return a_->sideEffectFree() && b_->sideEffectFree(); }
  Reg lowerNumber(Lowering& lw, Reg want) const override {
    Instr i = instr(Code::Compare, line());
    if constexpr (op == Op::Add) i.code = Code::Add;
    if constexpr (op == Op::Sub) i.code = Code::Sub;
    if constexpr (op == Op::Mul) i.code = Code::Mul;
    if constexpr (op == Op::Div) i.code = Code::Div;
    i.op = op;
    i.a = lw.number(*a_);
    i.b = lw.number(*b_);
    i.d = destination(lw, want);
    lw.emit(i);
    return i.d;
  }
  // A comparison jumps on its operands (compare-and-branch); NaN makes every test but != false.
  void lowerBranch(Lowering& lw, bool when, int label) const override {
    if constexpr (op < Op::Eq) {
      Expr::lowerBranch(lw, when, label);
    } else {
      const Reg a = lw.number(*a_);
      const Reg b = lw.number(*b_);
      Code c = Code::JumpEq;
      switch (op) {
        case Op::Eq: c = when ? Code::JumpEq : Code::JumpNe; break;
        case Op::Ne: c = when ? Code::JumpNe : Code::JumpEq; break;
        case Op::Lt: c = when ? Code::JumpLt : Code::JumpNotLt; break;
        case Op::Le: c = when ? Code::JumpLe : Code::JumpNotLe; break;
        case Op::Gt: c = when ? Code::JumpGt : Code::JumpNotGt; break;
        default: c = when ? Code::JumpGe : Code::JumpNotGe; break;
      }
      lw.jump(c, label, a, b);
    }
  }

 private:
  ExprPtr a_, b_;
  OperandRead left_, right_;
};

template <Op op, Operand left>
ExprPtr directBinary(ExprPtr a, ExprPtr b, Type t, int line) {
  switch (operandKind(*b)) {
    case Operand::Constant: return std::make_unique<DirectBinary<op, left, Operand::Constant>>(std::move(a), std::move(b), t, line);
    case Operand::Local: return std::make_unique<DirectBinary<op, left, Operand::Local>>(std::move(a), std::move(b), t, line);
    case Operand::Field: return std::make_unique<DirectBinary<op, left, Operand::Field>>(std::move(a), std::move(b), t, line);
    default: return std::make_unique<DirectBinary<op, left, Operand::Node>>(std::move(a), std::move(b), t, line);
  }
}

// A constant left operand is read through its node (rare: most code puts the constant right).
template <Op op>
ExprPtr directBinary(ExprPtr a, ExprPtr b, Type t, int line) {
  switch (operandKind(*a)) {
    case Operand::Local: return directBinary<op, Operand::Local>(std::move(a), std::move(b), t, line);
    case Operand::Field: return directBinary<op, Operand::Field>(std::move(a), std::move(b), t, line);
    default: return directBinary<op, Operand::Node>(std::move(a), std::move(b), t, line);
  }
}

// int or long arithmetic with `op` fixed at compile time: integral() without apply()'s dispatch.
template <Op op, bool isLong>
class IntegralBinary final : public Expr {
 public:
  IntegralBinary(ExprPtr a, ExprPtr b, Type t, int line) : Expr(t, line), a_(std::move(a)), b_(std::move(b)) {}
  double number(Exec& ex) const override {
    const double a = a_->number(ex);
    return integral(op, isLong, a, b_->number(ex), line());
  }
  bool sideEffectFree() const override { return a_->sideEffectFree() && b_->sideEffectFree(); }
  Reg lowerNumber(Lowering& lw, Reg want) const override {
    Code code = Code::Arith;
    if (!isLong) {
      if constexpr (op == Op::Add) code = Code::AddInt;
      if constexpr (op == Op::Sub) code = Code::SubInt;
      if constexpr (op == Op::Mul) code = Code::MulInt;
      if constexpr (op == Op::Div) code = Code::DivInt;
      if constexpr (op == Op::Rem) code = Code::RemInt;
    }
    Instr i = instr(code, line());
    i.a = lw.number(*a_);
    i.b = lw.number(*b_);
    i.op = op;
    i.kind = isLong ? Base::Long : Base::Int;
    i.d = destination(lw, want);
    lw.emit(i);
    return i.d;
  }

 private:
  ExprPtr a_, b_;
};

template <Op op>
ExprPtr integralBinary(bool isLong, ExprPtr& a, ExprPtr& b, Type t, int line) {
  if (isLong) return std::make_unique<IntegralBinary<op, true>>(std::move(a), std::move(b), t, line);
  return std::make_unique<IntegralBinary<op, false>>(std::move(a), std::move(b), t, line);
}

// A DirectBinary or IntegralBinary for `op` in `kind`, or null when the shape needs apply().
ExprPtr directBinary(Op op, Base kind, ExprPtr& a, ExprPtr& b, Type t, int line) {
  const bool arithmetic = kind == Base::Double;
  if (kind == Base::Int || kind == Base::Long) {
    const bool isLong = kind == Base::Long;
    switch (op) {
      case Op::Add: return integralBinary<Op::Add>(isLong, a, b, t, line);
      case Op::Sub: return integralBinary<Op::Sub>(isLong, a, b, t, line);
      case Op::Mul: return integralBinary<Op::Mul>(isLong, a, b, t, line);
      case Op::Div: return integralBinary<Op::Div>(isLong, a, b, t, line);
      case Op::Rem: return integralBinary<Op::Rem>(isLong, a, b, t, line);
      default: break;
    }
  }
  switch (op) {
    case Op::Eq: return directBinary<Op::Eq>(std::move(a), std::move(b), t, line);
    case Op::Ne: return directBinary<Op::Ne>(std::move(a), std::move(b), t, line);
    case Op::Lt: return directBinary<Op::Lt>(std::move(a), std::move(b), t, line);
    case Op::Le: return directBinary<Op::Le>(std::move(a), std::move(b), t, line);
    case Op::Gt: return directBinary<Op::Gt>(std::move(a), std::move(b), t, line);
    case Op::Ge: return directBinary<Op::Ge>(std::move(a), std::move(b), t, line);
    case Op::Add: return arithmetic ? directBinary<Op::Add>(std::move(a), std::move(b), t, line) : nullptr;
    case Op::Sub: return arithmetic ? directBinary<Op::Sub>(std::move(a), std::move(b), t, line) : nullptr;
    case Op::Mul: return arithmetic ? directBinary<Op::Mul>(std::move(a), std::move(b), t, line) : nullptr;
    case Op::Div: return arithmetic ? directBinary<Op::Div>(std::move(a), std::move(b), t, line) : nullptr;
    default: return nullptr;
  }
}

// == and != on arrays and lists compare references.
class SameArray : public Expr {
 public:
  SameArray(bool equal, ExprPtr a, ExprPtr b, int line) : Expr(scalar(Base::Boolean), line), equal_(equal), a_(std::move(a)), b_(std::move(b)) {}
  double number(Exec& ex) const override { return (a_->array(ex) == b_->array(ex)) == equal_ ? 1.0 : 0.0; }

 private:
  bool equal_;
  ExprPtr a_, b_;
};

class Logical final : public Expr {
 public:
  Logical(bool isAnd, ExprPtr a, ExprPtr b, int line) : Expr(scalar(Base::Boolean), line), and_(isAnd), a_(std::move(a)), b_(std::move(b)) {}
  double number(Exec& ex) const override {
    bool a = a_->number(ex) != 0.0;
    if (and_ ? !a : a) return a ? 1.0 : 0.0;
    return b_->number(ex) != 0.0 ? 1.0 : 0.0;
  }
  bool sideEffectFree() const override { return a_->sideEffectFree() && b_->sideEffectFree(); }
  // Short-circuit jumps: `a && b` is false as soon as a is, `a || b` true as soon as a is.
  Reg lowerNumber(Lowering& lw, Reg want) const override {
    const Reg d = destination(lw, want);
    const int decided = lw.label(), end = lw.label();
    lw.branch(*a_, !and_, decided);
    Instr truth = instr(Code::Truth, line());
    truth.a = lw.number(*b_);
    truth.d = d;
    lw.emit(truth);
    lw.jump(Code::Jump, end);
    lw.place(decided);
    Instr set = instr(Code::Move, line());
    set.a = lw.constant(and_ ? 0.0 : 1.0);
    set.d = d;
    lw.emit(set);
    lw.place(end);
    return d;
  }
  void lowerBranch(Lowering& lw, bool when, int label) const override {
    if (and_ == when) {
      // and-when-true / or-when-false: both operands must decide it
      const int skip = lw.label();
      lw.branch(*a_, !when, skip);
      lw.branch(*b_, when, label);
      lw.place(skip);
    } else {
      lw.branch(*a_, when, label);
      lw.branch(*b_, when, label);
    }
  }

 private:
  bool and_;
  ExprPtr a_, b_;
};

class Conditional final : public Expr {
 public:
  Conditional(ExprPtr c, ExprPtr a, ExprPtr b, Type t, int line)
      : Expr(t, line), c_(std::move(c)), a_(std::move(a)), b_(std::move(b)) {}
  double number(Exec& ex) const override { return castTo(type().base, c_->number(ex) != 0.0 ? a_->number(ex) : b_->number(ex)); }
  Reg lowerNumber(Lowering& lw, Reg want) const override {
    const Reg d = destination(lw, want);
    const int otherwise = lw.label(), end = lw.label();
    lw.branch(*c_, false, otherwise);
    lw.convert(d, lw.number(*a_, type().base == Base::Double ? d : kNoReg), type().base, line());
    lw.jump(Code::Jump, end);
    lw.place(otherwise);
    lw.convert(d, lw.number(*b_, type().base == Base::Double ? d : kNoReg), type().base, line());
    lw.place(end);
    return d;
  }
  ArrayRef array(Exec& ex) const override { return c_->number(ex) != 0.0 ? a_->array(ex) : b_->array(ex); }
  std::string text(Exec& ex) const override {
    if (type().isString()) return c_->number(ex) != 0.0 ? a_->text(ex) : b_->text(ex);
    return Expr::text(ex);
  }
  bool sideEffectFree() const override { return c_->sideEffectFree() && a_->sideEffectFree() && b_->sideEffectFree(); }

 private:
  ExprPtr c_, a_, b_;
};

class Cast final : public Expr {
 public:
  Cast(Base to, ExprPtr e, int line) : Expr(scalar(to), line), e_(std::move(e)), fromLong_(e_->type().base == Base::Long) {}
  double number(Exec& ex) const override {
    return castValue(type().base, fromLong_, e_->number(ex));
  }
  bool sideEffectFree() const override { return e_->sideEffectFree(); }
  Reg lowerNumber(Lowering& lw, Reg want) const override {
    Instr i = instr(Code::Cast, line());
    i.a = lw.number(*e_);
    i.kind = type().base;
    i.flag = fromLong_;
    i.d = destination(lw, want);
    lw.emit(i);
    return i.d;
  }

 private:
  ExprPtr e_;
  bool fromLong_;
};

class AssignNumber final : public Expr {
 public:
  AssignNumber(std::unique_ptr<NumberTarget> target, Op op, bool compound, ExprPtr value, Base operation, int line)
      : Expr(target->type(), line), target_(std::move(target)), op_(op), compound_(compound), value_(std::move(value)), operation_(operation),
        direct_(target_->hasSlot() && value_->sideEffectFree()) {}
  double number(Exec& ex) const override {
    if (direct_) return store(target_->slot(ex), ex);
    NumberPlace p = target_->place(ex);
    return store(p.at, ex);
  }
  Reg lowerNumber(Lowering& lw, Reg want) const override { return lowered(lw, want, true); }
  void lowerEffect(Lowering& lw) const override { lowered(lw, kNoReg, false); }

 private:
  // A variable's slot stays where it is whatever the value does; an element's only while the
  // value is side-effect-free (direct_), otherwise the node runs it.
  Reg lowered(Lowering& lw, Reg want, bool needed) const {
    const Reg variable = target_->lowerVariable();
    if (variable == kNoReg && !direct_) return needed ? Expr::lowerNumber(lw, want) : (Expr::lowerEffect(lw), kNoReg);
    const std::uint32_t p = variable == kNoReg ? target_->lowerAddress(lw) : 0;
    // A compound assignment operates on the variable's value from before the right-hand side,
    // which may change it (JLS §15.26.2): kept in a temporary unless the value is side-effect-free.
    Reg before = variable;
    if (compound_ && variable != kNoReg && !value_->sideEffectFree()) {
      Instr keep = instr(Code::Move, line());
      keep.a = variable;
      keep.d = before = lw.temp();
      lw.emit(keep);
    }
    // A double variable receives the value's last operation directly: every read of the value
    // comes before that write.
    const bool inPlace = variable != kNoReg && !compound_ && type().base == Base::Double;
    const Reg value = lw.number(*value_, inPlace ? variable : kNoReg);
    Reg v = value;
    if (compound_) {
      if (variable == kNoReg) {
        Instr load = instr(Code::LoadPointer, line());
        load.a = p;
        load.d = lw.temp();
        lw.emit(load);
        v = load.d;
      } else {
        v = before;
      }
      // The operation straight into a double variable (load-op-store), else into a temporary.
      Instr op = instr(arithmeticCode(op_, operation_), line());
      op.op = op_;
      op.kind = operation_;
      op.a = v;
      op.b = value;
      op.d = variable != kNoReg && type().base == Base::Double && operation_ == Base::Double ? variable : lw.temp();
      lw.emit(op);
      v = op.d;
    }
    if (variable != kNoReg) {
      lw.convert(variable, v, type().base, line());
      return variable;
    }
    return storeAt(lw, p, v, type().base, needed, want, line());
  }

  double store(double* at, Exec& ex) const {
    // A compound assignment operates on the target's value from before the right-hand side is
    // evaluated (JLS §15.26.2: the right-hand side may change it).
    const double before = *at;
    double v = value_->number(ex);
    if (compound_) v = apply(op_, operation_, before, v, line());
    *at = type().base == Base::Double ? v : castTo(type().base, v);
    return *at;
  }

 private:
  std::unique_ptr<NumberTarget> target_;
  Op op_;
  bool compound_;
  ExprPtr value_;
  Base operation_;
  bool direct_;  // the target's slot stays valid while the value is evaluated
};

// `variable = value` for a local or field number variable and a side-effect-free value (AssignNumber's
// commonest shape, with the variable's slot fixed, a constant value converted once and a leaf
// value read in place).
template <bool field, Operand value>
class StoreVariable final : public Expr {
 public:
  StoreVariable(Type t, int slot, ExprPtr v, int line)
      : Expr(t, line), slot_(static_cast<std::size_t>(slot)), value_(std::move(v)), read_(operandRead(*value_, value)) {
    if constexpr (value == Operand::Constant) read_.constant = convert(read_.constant);
  }
  double number(Exec& ex) const override {
    const double v = value == Operand::Constant ? read_.constant : convert(read<value>(read_, ex));
    double& at = field ? ex.fieldNumbers[slot_] : ex.frame->numbers[slot_];
    at = v;
    return at;
  }
  // A double variable receives the value's last operation directly (load-op-store).
  Reg lowerNumber(Lowering& lw, Reg) const override {
    const Reg variable = makeReg(field ? Space::Field : Space::Frame, static_cast<std::uint32_t>(slot_));
    if (type().base == Base::Double) {
      lw.into(*value_, variable);
      return variable;
    }
    lw.convert(variable, lw.number(*value_), type().base, line());
    return variable;
  }

 private:
  double convert(double v) const { return type().base == Base::Double ? v : castTo(type().base, v); }

  std::size_t slot_;
  ExprPtr value_;
  OperandRead read_;
};

template <bool field>
ExprPtr storeVariable(Type t, int slot, ExprPtr value, int line) {
  switch (operandKind(*value)) {
    case Operand::Constant: return std::make_unique<StoreVariable<field, Operand::Constant>>(t, slot, std::move(value), line);
    case Operand::Local: return std::make_unique<StoreVariable<field, Operand::Local>>(t, slot, std::move(value), line);
    case Operand::Field: return std::make_unique<StoreVariable<field, Operand::Field>>(t, slot, std::move(value), line);
    case Operand::LocalElement: return std::make_unique<StoreVariable<field, Operand::LocalElement>>(t, slot, std::move(value), line);
    case Operand::FieldElement: return std::make_unique<StoreVariable<field, Operand::FieldElement>>(t, slot, std::move(value), line);
    default: return std::make_unique<StoreVariable<field, Operand::Node>>(t, slot, std::move(value), line);
  }
}

// `array[k] = value` for an array held in a variable, a constant index and a side-effect-free value
// (yOUT[0] = y):
// AssignNumber's direct path (the element checked, then the value read) without its virtual calls.
template <bool field, Operand value>
class StoreElement final : public Expr {
 public:
  StoreElement(Type t, std::size_t arraySlot, double index, int elementLine, ExprPtr v, int line)
      : Expr(t, line), arraySlot_(arraySlot), index_(index), elementLine_(elementLine), value_(std::move(v)),
        read_(operandRead(*value_, value)) {}
  double number(Exec& ex) const override {
    Array* a = (field ? ex.fieldArrays[arraySlot_] : ex.frame->arrays[arraySlot_]).get();
    if (a == nullptr) fail("NullPointerException: the array is null", elementLine_);
    double& at = a->numbers[checkedIndex(*a, index_, elementLine_)];
    const double v = read<value>(read_, ex);
    at = type().base == Base::Double ? v : castTo(type().base, v);
    return at;
  }
  Reg lowerNumber(Lowering& lw, Reg want) const override { return lowered(lw, want, true); }
  void lowerEffect(Lowering& lw) const override { lowered(lw, kNoReg, false); }

 private:
  // The element is checked before the value is read: a value that cannot fail (a constant or a
  // variable) is stored in one instruction, any other through the element's address.
  Reg lowered(Lowering& lw, Reg want, bool needed) const {
    const Reg array = makeReg(field ? Space::Field : Space::Frame, static_cast<std::uint32_t>(arraySlot_));
    std::uint32_t p = 0;
    std::uint32_t k = 0;
    const bool integerIndex = constantIndex(index_, k);
    if (integerIndex && (value == Operand::Constant || value == Operand::Local || value == Operand::Field)) {
      Instr i = instr(Code::StoreElementK, elementLine_);
      i.target = k;
      i.a = array;
      i.k = index_;
      i.b = lw.number(*value_);
      i.kind = type().base;
      lw.emit(i);
      if (!needed) return kNoReg;
      Instr load = instr(Code::LoadElementK, elementLine_);
      load.a = array;
      load.k = index_;
      load.target = k;
      load.d = destination(lw, want);
      lw.emit(load);
      return load.d;
    }
    if (integerIndex) {
      Instr address = instr(Code::ElementAddressK, elementLine_);
      address.d = p = lw.pointer();
      address.a = array;
      address.k = index_;
      address.target = k;
      lw.emit(address);
    } else {
      Instr pointer = instr(Code::ArrayPointer, elementLine_);
      pointer.d = p = lw.pointer();
      pointer.a = array;
      lw.emit(pointer);
      Instr address = instr(Code::ElementAddress, elementLine_);
      address.a = address.d = p;
      address.b = lw.constant(index_);
      lw.emit(address);
    }
    return storeAt(lw, p, lw.number(*value_), type().base, needed, want, line());
  }

 public:

 private:
  std::size_t arraySlot_;
  double index_;
  int elementLine_;  // where the element is written (its failures point there)
  ExprPtr value_;
  OperandRead read_;
};

template <bool field>
ExprPtr storeElement(const VariableElement<field, true>& target, ExprPtr value, int line) {
  const Type t = target.type();
  const std::size_t slot = target.arraySlot();
  const double index = target.indexValue();
  const int at = target.line();
  switch (operandKind(*value)) {
    case Operand::Constant: return std::make_unique<StoreElement<field, Operand::Constant>>(t, slot, index, at, std::move(value), line);
    case Operand::Local: return std::make_unique<StoreElement<field, Operand::Local>>(t, slot, index, at, std::move(value), line);
    case Operand::Field: return std::make_unique<StoreElement<field, Operand::Field>>(t, slot, index, at, std::move(value), line);
    case Operand::LocalElement: return std::make_unique<StoreElement<field, Operand::LocalElement>>(t, slot, index, at, std::move(value), line);
    case Operand::FieldElement: return std::make_unique<StoreElement<field, Operand::FieldElement>>(t, slot, index, at, std::move(value), line);
    default: return std::make_unique<StoreElement<field, Operand::Node>>(t, slot, index, at, std::move(value), line);
  }
}

class AssignArray : public Expr {
 public:
  AssignArray(std::unique_ptr<ArrayTarget> target, ExprPtr value, int line)
      : Expr(target->type(), line), target_(std::move(target)), value_(std::move(value)) {}
  ArrayRef array(Exec& ex) const override {
    ArrayRef v = value_->array(ex);
    *target_->place(ex) = v;
    return v;
  }
  double number(Exec& ex) const override {
    array(ex);
    return 0.0;
  }
  // `variable = array value`: the value made by its node, stored by the bytecode.
  void lowerEffect(Lowering& lw) const override {
    const Reg variable = target_->lowerArrayVariable();
    if (variable == kNoReg) return Expr::lowerEffect(lw);
    if (variable >> kSpaceShift == static_cast<Reg>(Space::Frame)) lw.tableAssigned(variable, *value_);
    Instr i = instr(Code::AssignArray, line());
    i.d = variable;
    i.node = value_.get();
    i.flag = constantArrayLiteral(*value_);  // runs no code: code bound to its frame keeps it (bytecode_bind.cpp)
    lw.emit(i);
  }

 private:
  std::unique_ptr<ArrayTarget> target_;
  ExprPtr value_;
};

class Increment : public Expr {
 public:
  Increment(std::unique_ptr<NumberTarget> target, double delta, bool prefix, int line)
      : Expr(target->type(), line), target_(std::move(target)), delta_(delta), prefix_(prefix) {}
  double number(Exec& ex) const override {
    if (target_->hasSlot()) return add(target_->slot(ex));
    NumberPlace p = target_->place(ex);
    return add(p.at);
  }
  Reg lowerNumber(Lowering& lw, Reg want) const override { return lowered(lw, destination(lw, want)); }
  void lowerEffect(Lowering& lw) const override { lowered(lw, kNoReg); }

 private:
  Reg lowered(Lowering& lw, Reg result) const {
    const Reg variable = target_->lowerVariable();
    if (variable == kNoReg && !target_->hasSlot()) return result == kNoReg ? (Expr::lowerEffect(lw), kNoReg) : Expr::lowerNumber(lw, result);
    Instr i = instr(variable != kNoReg ? Code::Increment : Code::IncrementAt, line());
    i.a = variable != kNoReg ? variable : target_->lowerAddress(lw);
    i.k = delta_;
    i.kind = type().base;
    i.flag = prefix_;
    i.d = result;
    lw.emit(i);
    return result;
  }
  double add(double* at) const {
    double before = *at;
    double after = incremented(type().base, before, delta_, line());
    *at = after;
    return prefix_ ? after : before;
  }

 public:

 private:
  std::unique_ptr<NumberTarget> target_;
  double delta_;
  bool prefix_;
};

class Concat : public Expr {
 public:
  Concat(std::vector<ExprPtr> parts, int line) : Expr(scalar(Base::String), line), parts_(std::move(parts)) {}
  std::string text(Exec& ex) const override {
    std::string s;
    for (const auto& p : parts_) s += shownText(p->text(ex));
    return s;
  }

 private:
  std::vector<ExprPtr> parts_;
};

// The array a node made last time, made fresh again when the code no longer holds it: `made`
// then holds the only reference, so no variable, array or result can tell it from a new one
// (code that builds a table every step allocates nothing). Null when it is still held.
void clearArray(Array& a) {
  a.numbers.clear();
  a.rows.clear();
  a.texts.clear();
  a.ofRows = false;
  a.ofTexts = false;
  a.state.reset();
  a.modCount = 0;
}

// True when `a` is a plain array of numbers holding exactly `values`, bit for bit (-0.0 and NaN
// payloads included): renewing it to `values` would change nothing.
// Bitwise equality of n doubles, inline (the rows of a table are short: a call of memcmp each costs more).
bool sameBits(const double* a, const double* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t x, y;
    std::memcpy(&x, a + i, sizeof x);
    std::memcpy(&y, b + i, sizeof y);
    if (x != y) return false;
  }
  return true;
}

bool holdsExactly(const Array& a, const std::vector<double>& values) {
  return !a.ofRows && !a.ofTexts && !a.state && a.modCount == 0 && a.rows.empty() && a.texts.empty() &&
         a.numbers.size() == values.size() &&
         sameBits(a.numbers.data(), values.data(), values.size());
}

ArrayRef renewed(ArrayRef& made) {
  if (!made || made.use_count() != 1) return nullptr;
  clearArray(*made);
  return made;
}

// A one-dimensional array of numbers of length n, recycled from `made` when possible.
ArrayRef numberArray(ArrayRef& made, std::size_t n) {
  ArrayRef a = renewed(made);
  if (!a) made = a = std::make_shared<Array>();
  a->numbers.assign(n, 0.0);
  return a;
}

ArrayRef allocate(const Type& type, const std::vector<double>& lengths, std::size_t level, int line) {
  double n = lengths[level];
  if (n < 0) fail("NegativeArraySizeException: " + javaText(Base::Int, n), line);
  if (n > 1e8) fail("array of " + javaText(Base::Int, n) + " elements is too large", line);
  auto a = std::make_shared<Array>();
  auto count = static_cast<std::size_t>(n);
  if (type.dims - static_cast<int>(level) > 1) {
    a->ofRows = true;
    a->rows.resize(count);
    if (level + 1 < lengths.size()) for (auto& row : a->rows) row = allocate(type, lengths, level + 1, line);
  } else if (type.base == Base::String) {
    a->ofTexts = true;
    a->texts.assign(count, nullText());
  } else {
    a->numbers.assign(count, 0.0);
  }
  return a;
}

class NewArray : public Expr {
 public:
  NewArray(Type t, std::vector<ExprPtr> lengths, int line) : Expr(t, line), lengths_(std::move(lengths)) {}
  ArrayRef array(Exec& ex) const override {
    if (type().dims == 1 && type().base != Base::String) {
      // new double[n] (and the other number types): the commonest shape, recycled.
      const double n = lengths_[0]->number(ex);
      if (n < 0) fail("NegativeArraySizeException: " + javaText(Base::Int, n), line());
      if (n > 1e8) fail("array of " + javaText(Base::Int, n) + " elements is too large", line());
      return numberArray(made_, static_cast<std::size_t>(n));
    }
    std::vector<double> n;
    for (const auto& l : lengths_) n.push_back(l->number(ex));
    return allocate(type(), n, 0, line());
  }

 private:
  std::vector<ExprPtr> lengths_;
  mutable ArrayRef made_;  // the last array of numbers made (renewed)
};

class ArrayLiteral : public Expr {
 public:
  ArrayLiteral(Type t, std::vector<ExprPtr> items, int line) : Expr(t, line), items_(std::move(items)) {
    // A row of constant numbers (tables written into the code, often built every step): its values
    // are computed once; each evaluation still makes a new array, as Java does.
    allConstant_ = t.dims == 1 && t.base != Base::String;
    for (const auto& item : items_) allConstant_ = allConstant_ && item->constant();
    if (allConstant_) {
      Exec none;
      for (const auto& item : items_) constants_.push_back(castTo(t.base, item->number(none)));
    }
    // A table of such rows: renewed with its rows in place (below).
    if (t.dims == 2) {
      for (const auto& item : items_) {
        const auto* row = dynamic_cast<const ArrayLiteral*>(item.get());
        if (row == nullptr || !row->allConstant_) {
          constantRows_.clear();
          break;
        }
        constantRows_.push_back(row);
      }
    }
  }
  ArrayRef array(Exec& ex) const override {
    if (!constantRows_.empty() && made_ && made_.use_count() == 1) return rowsUnwritten_ ? made_ : renewTable(ex);
    ArrayRef a = renewed(made_);
    if (!a) made_ = a = std::make_shared<Array>();
    if (allConstant_) {
      a->numbers = constants_;
      return a;
    }
    a->ofRows = type().dims > 1;
    a->ofTexts = !a->ofRows && type().base == Base::String;
    if (a->ofRows) a->rows.reserve(items_.size());
    else if (a->ofTexts) a->texts.reserve(items_.size());
    else a->numbers.reserve(items_.size());
    for (const auto& item : items_) {
      if (a->ofRows) a->rows.push_back(item->array(ex));
      else if (a->ofTexts) a->texts.push_back(item->text(ex));
      else a->numbers.push_back(castTo(type().base, item->number(ex)));
    }
    return a;
  }

 private:
  // The table made last, which nothing else holds: a row still held only by it and by the row's
  // own node is made fresh where it is (no reference changes hands); any other row is made anew.
  ArrayRef renewTable(Exec& ex) const {
    Array& table = *made_;
    for (std::size_t i = 0; i < constantRows_.size(); ++i) {
      ArrayRef& row = table.rows[i];
      const ArrayLiteral& node = *constantRows_[i];
      if (row && row == node.made_ && row.use_count() == 2) {
        if (holdsExactly(*row, node.constants_)) continue;  // untouched since: already fresh
        clearArray(*row);
        row->numbers = node.constants_;
      } else {
        row = node.array(ex);
      }
    }
    return made_;
  }

  std::vector<ExprPtr> items_;
  bool allConstant_ = false;
  std::vector<double> constants_;
  std::vector<const ArrayLiteral*> constantRows_;  // a table of rows of constants: the rows' nodes
  // Set when compiled: no code can write the rows or reach them but to read elements (bytecode.cpp),
  // so the table made last is still as made.
  mutable bool rowsUnwritten_ = false;
  friend void pesim::java::markTableUnwritten(const Expr& literal);

 public:
  bool isTable() const { return !constantRows_.empty(); }
  // Made of constants only (a row, or a table of rows): making it reads nothing and runs no code.
  bool ofConstants() const { return allConstant_ || isTable(); }
  mutable ArrayRef made_;  // the last array made (renewed)
};

class CallMethod : public Expr {
 public:
  CallMethod(const Method& m, std::vector<ExprPtr> args, int line) : Expr(m.result, line), method_(m), args_(std::move(args)) {}
  double number(Exec& ex) const override {
    call(ex);
    return castTo(type().base, ex.returnNumber);
  }
  ArrayRef array(Exec& ex) const override {
    call(ex);
    if (const ArrayRef* held = std::exchange(ex.returnHeld, nullptr)) return *held;
    return std::move(ex.returnArray);
  }
  std::string text(Exec& ex) const override {
    if (!type().isString()) return Expr::text(ex);
    call(ex);
    return std::move(ex.returnString);
  }

 private:
  void call(Exec& ex) const {
    spend(ex, line());
    Frame frame = frameFor(method_);
    for (std::size_t i = 0; i < args_.size(); ++i) {
      auto slot = static_cast<std::size_t>(method_.parameterSlots[i]);
      if (method_.parameters[i].isReference()) frame.arrays[slot] = args_[i]->array(ex);
      else if (method_.parameters[i].isString()) frame.strings[slot] = args_[i]->text(ex);
      else frame.numbers[slot] = castTo(method_.parameters[i].base, args_[i]->number(ex));
    }
    if (ex.depth + 1 > 200) fail("StackOverflowError: calls nested deeper than 200 in " + method_.name, line());
    struct Depth {
      Exec& ex;
      explicit Depth(Exec& e) : ex(e) { ++ex.depth; }
      ~Depth() { --ex.depth; }
    } depth(ex);
    invoke(ex, method_, frame);
  }

  const Method& method_;
  std::vector<ExprPtr> args_;
};

}  // namespace

ExprPtr numberConstant(Type type, double value, int line) { return std::make_unique<Constant>(type, value, line); }
ExprPtr stringConstant(std::string value, int line) { return std::make_unique<StringConstant>(std::move(value), line); }
ExprPtr nullArray(Type type, int line) { return std::make_unique<NullArray>(type, line); }
std::unique_ptr<NumberTarget> localNumber(Type type, int slot, int line) { return std::make_unique<LocalNumber>(type, slot, line); }
std::unique_ptr<NumberTarget> fieldNumber(Type type, int slot, int line) { return std::make_unique<FieldNumber>(type, slot, line); }
std::unique_ptr<ArrayTarget> localArray(Type type, int slot, int line) { return std::make_unique<LocalArray>(type, slot, line); }
std::unique_ptr<ArrayTarget> fieldArray(Type type, int slot, int line) { return std::make_unique<FieldArray>(type, slot, line); }
int fieldArraySlot(const Expr& e) {
  const auto* field = dynamic_cast<const FieldArray*>(&e);
  return field != nullptr ? field->index() : -1;
}
std::unique_ptr<StringTarget> localString(int slot, int line) { return std::make_unique<LocalString>(slot, line); }
std::unique_ptr<StringTarget> fieldString(int slot, int line) { return std::make_unique<FieldString>(slot, line); }
ExprPtr assignString(std::unique_ptr<StringTarget> target, ExprPtr value, bool append, int line) {
  return std::make_unique<AssignString>(std::move(target), std::move(value), append, line);
}
ExprPtr timeValue(int line) { return std::make_unique<TimeValue>(scalar(Base::Double), line); }
ExprPtr stepValue(int line) { return std::make_unique<StepValue>(scalar(Base::Double), line); }
std::unique_ptr<NumberTarget> numberElement(ExprPtr array, ExprPtr index, int line) {
  Type t = array->type().element();
  if (index->sideEffectFree()) {
    if (const auto* local = dynamic_cast<const LocalArray*>(array.get())) return variableElement<false>(t, local->index(), std::move(index), line);
    if (const auto* field = dynamic_cast<const FieldArray*>(array.get())) return variableElement<true>(t, field->index(), std::move(index), line);
  }
  return std::make_unique<NumberElement>(t, std::move(array), std::move(index), line);
}
std::unique_ptr<StringTarget> textElement(ExprPtr array, ExprPtr index, int line) {
  return std::make_unique<TextElement>(std::move(array), std::move(index), line);
}
std::unique_ptr<ArrayTarget> rowElement(ExprPtr array, ExprPtr index, int line) {
  Type t = array->type().element();
  return std::make_unique<RowElement>(t, std::move(array), std::move(index), line);
}
ExprPtr arrayLength(ExprPtr array, int line) { return std::make_unique<Length>(std::move(array), line); }
ExprPtr unary(const std::string& op, ExprPtr operand, Type type, int line) {
  return std::make_unique<Unary>(op[0], std::move(operand), type, line);
}
ExprPtr binary(const std::string& op, ExprPtr left, ExprPtr right, Type type, int line) {
  if (left->type().isReference()) return std::make_unique<SameArray>(op == "==", std::move(left), std::move(right), line);
  Base kind = left->type().isBoolean() ? Base::Boolean
              : (op == "<<" || op == ">>" || op == ">>>") ? promote(left->type().base, Base::Int)
                                                          : promote(left->type().base, right->type().base);
  const Op o = opFromText(op);
  if (ExprPtr direct = directBinary(o, kind, left, right, type, line)) return direct;
  return std::make_unique<Binary>(o, kind, std::move(left), std::move(right), type, line);
}
ExprPtr logical(bool isAnd, ExprPtr left, ExprPtr right, int line) {
  return std::make_unique<Logical>(isAnd, std::move(left), std::move(right), line);
}
ExprPtr conditional(ExprPtr condition, ExprPtr whenTrue, ExprPtr whenFalse, Type type, int line) {
  return std::make_unique<Conditional>(std::move(condition), std::move(whenTrue), std::move(whenFalse), type, line);
}
ExprPtr cast(Base to, ExprPtr operand, int line) { return std::make_unique<Cast>(to, std::move(operand), line); }
ExprPtr assignNumber(std::unique_ptr<NumberTarget> target, const std::string& op, ExprPtr value, Base operation, int line) {
  bool compound = op != "=";
  Op o = compound ? opFromText(op.substr(0, op.size() - 1)) : Op::Add;
  if (!compound && value->sideEffectFree()) {
    if (const auto* local = dynamic_cast<const LocalNumber*>(target.get())) return storeVariable<false>(target->type(), local->index(), std::move(value), line);
    if (const auto* field = dynamic_cast<const FieldNumber*>(target.get())) return storeVariable<true>(target->type(), field->index(), std::move(value), line);
    if (const auto* local = dynamic_cast<const VariableElement<false, true>*>(target.get())) return storeElement(*local, std::move(value), line);
    if (const auto* field = dynamic_cast<const VariableElement<true, true>*>(target.get())) return storeElement(*field, std::move(value), line);
  }
  return std::make_unique<AssignNumber>(std::move(target), o, compound, std::move(value), operation, line);
}
ExprPtr assignArray(std::unique_ptr<ArrayTarget> target, ExprPtr value, int line) {
  return std::make_unique<AssignArray>(std::move(target), std::move(value), line);
}
ExprPtr increment(std::unique_ptr<NumberTarget> target, double delta, bool prefix, int line) {
  return std::make_unique<Increment>(std::move(target), delta, prefix, line);
}
ExprPtr concat(std::vector<ExprPtr> parts, int line) { return std::make_unique<Concat>(std::move(parts), line); }
ExprPtr newArray(Type type, std::vector<ExprPtr> lengths, int line) { return std::make_unique<NewArray>(type, std::move(lengths), line); }
ExprPtr arrayLiteral(Type type, std::vector<ExprPtr> items, int line) { return std::make_unique<ArrayLiteral>(type, std::move(items), line); }
bool tableLiteral(const Expr& e) {
  const auto* table = dynamic_cast<const ArrayLiteral*>(&e);
  return table != nullptr && table->isTable();
}
bool constantArrayLiteral(const Expr& e) {
  const auto* literal = dynamic_cast<const ArrayLiteral*>(&e);
  return literal != nullptr && literal->ofConstants();
}
void markTableUnwritten(const Expr& literal) {
  if (const auto* table = dynamic_cast<const ArrayLiteral*>(&literal)) table->rowsUnwritten_ = true;
}
ExprPtr callMethod(const Method& method, std::vector<ExprPtr> arguments, int line) {
  return std::make_unique<CallMethod>(method, std::move(arguments), line);
}

}  // namespace pesim::java
