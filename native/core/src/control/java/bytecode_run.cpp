// The bytecode interpreter (see bytecode.hpp): one switch over flat instructions. Every operation
// is the one its node performs (arith.hpp, castTo, the nodes' own checks and messages), so a
// method gives the same results, bit for bit, and the same failures as its nodes.
#include <string>

#include "control/java/bytecode.hpp"
#include "control/java/script.hpp"

// Threaded dispatch where the compiler has computed gotos (GCC, Clang); a switch elsewhere (and
// with PESIM_JAVA_SWITCH_DISPATCH defined, to test that form).
#if (defined(__GNUC__) || defined(__clang__)) && !defined(PESIM_JAVA_SWITCH_DISPATCH)
#define PESIM_JAVA_THREADED 1
#endif

namespace pesim::java {

namespace {

[[noreturn]] void nullArray(int line) { fail("NullPointerException: the array is null", line); }

[[noreturn]] void outOfBounds(const Array& a, double index, int line) {
  fail("ArrayIndexOutOfBoundsException: Index " + javaText(Base::Int, index) + " out of bounds for length " +
           std::to_string(a.length()), line);
}

inline std::size_t checkedIndex(const Array& a, double index, int line) {
  if (index < 0 || index >= static_cast<double>(a.length())) outOfBounds(a, index, line);
  return static_cast<std::size_t>(index);
}

// A constant index (i->target, i->k) into an array of numbers: its length is its numbers' count.
inline std::size_t checkedIndexK(const Array& a, const Instr* i) {
  if (i->target >= a.numbers.size()) outOfBounds(a, i->k, i->line);
  return i->target;
}

inline Array& checked(Array* a, int line) {
  if (a == nullptr) nullArray(line);
  return *a;
}

inline double converted(Base kind, double v) { return kind == Base::Double ? v : castTo(kind, v); }

}  // namespace

void execute(const Bytecode& bytecode, Exec& ex, Frame& frame) {
  const Instr* const code = bytecode.code.data();
  double* numbers[3] = {frame.numbers.data(), ex.fieldNumbers.data(), const_cast<double*>(bytecode.constants.data())};
  ArrayRef* arrays[2] = {frame.arrays.data(), ex.fieldArrays.data()};
  void* pointers[kPointers];
#define NUM(r) numbers[(r) >> kSpaceShift][(r) & kIndexMask]
#define ARR(r) arrays[(r) >> kSpaceShift][(r) & kIndexMask]
#define PTR(p) static_cast<Array*>(pointers[p])
  // A node run from the bytecode may run other code: the field vectors are read again after it.
#define RELOAD()                          \
  do {                                    \
    numbers[1] = ex.fieldNumbers.data();  \
    arrays[1] = ex.fieldArrays.data();    \
  } while (0)
  const Instr* pc = code;
  const Instr* i = nullptr;
#ifdef PESIM_JAVA_THREADED
  // Threaded dispatch: each instruction jumps straight to the next one's code.
  static const void* const kTargets[] = {
#define PESIM_JAVA_CODE_TARGET(name) &&op_##name,
      PESIM_JAVA_CODES(PESIM_JAVA_CODE_TARGET)
#undef PESIM_JAVA_CODE_TARGET
  };
#define OP(name) op_##name:
#define NEXT()                                                \
  do {                                                        \
    i = pc++;                                                 \
    goto* kTargets[static_cast<std::size_t>(i->code)];        \
  } while (0)
  NEXT();
#else
#define OP(name) case Code::name:
#define NEXT() goto next
next:
  i = pc++;
  switch (i->code) {
#endif
  OP(Move) NUM(i->d) = NUM(i->a); NEXT();
  OP(Convert) NUM(i->d) = converted(i->kind, NUM(i->a)); NEXT();
  OP(Add) NUM(i->d) = NUM(i->a) + NUM(i->b); NEXT();
  OP(Sub) NUM(i->d) = NUM(i->a) - NUM(i->b); NEXT();
  OP(Mul) NUM(i->d) = NUM(i->a) * NUM(i->b); NEXT();
  OP(Div) NUM(i->d) = NUM(i->a) / NUM(i->b); NEXT();
  OP(AddInt) NUM(i->d) = integral(Op::Add, false, NUM(i->a), NUM(i->b), i->line); NEXT();
  OP(SubInt) NUM(i->d) = integral(Op::Sub, false, NUM(i->a), NUM(i->b), i->line); NEXT();
  OP(MulInt) NUM(i->d) = integral(Op::Mul, false, NUM(i->a), NUM(i->b), i->line); NEXT();
  OP(DivInt) NUM(i->d) = integral(Op::Div, false, NUM(i->a), NUM(i->b), i->line); NEXT();
  OP(RemInt) NUM(i->d) = integral(Op::Rem, false, NUM(i->a), NUM(i->b), i->line); NEXT();
  OP(Arith) NUM(i->d) = apply(i->op, i->kind, NUM(i->a), NUM(i->b), i->line); NEXT();
  OP(Compare) NUM(i->d) = compare(i->op, NUM(i->a), NUM(i->b)) ? 1.0 : 0.0; NEXT();
  OP(Truth) NUM(i->d) = NUM(i->a) != 0.0 ? 1.0 : 0.0; NEXT();
  OP(Unary) NUM(i->d) = unaryValue(static_cast<char>(i->k), i->kind, NUM(i->a), i->line); NEXT();
  OP(Cast) NUM(i->d) = castValue(i->kind, i->flag, NUM(i->a)); NEXT();
  OP(Time) NUM(i->d) = ex.time; NEXT();
  OP(Step) NUM(i->d) = ex.dt; NEXT();
  OP(Native) {
    const double a = i->a == kNoReg ? 0.0 : NUM(i->a);
    NUM(i->d) = i->fn(*static_cast<const Expr*>(i->node), ex, a, i->b == kNoReg ? 0.0 : NUM(i->b));
    NEXT();
  }
  OP(Node) {
    const double v = static_cast<const Expr*>(i->node)->number(ex);
    RELOAD();
    NUM(i->d) = v;
    NEXT();
  }
  OP(Effect)
    evaluateForEffect(*static_cast<const Expr*>(i->node), ex);
    RELOAD();
    NEXT();
  OP(Increment) {
    double& at = NUM(i->a);
    const double before = at;
    const double after = incremented(i->kind, before, i->k, i->line);
    at = after;
    if (i->d != kNoReg) NUM(i->d) = i->flag ? after : before;
    NEXT();
  }
  OP(IncrementAt) {
    double& at = *static_cast<double*>(pointers[i->a]);
    const double before = at;
    const double after = incremented(i->kind, before, i->k, i->line);
    at = after;
    if (i->d != kNoReg) NUM(i->d) = i->flag ? after : before;
    NEXT();
  }
  OP(Jump) pc = code + i->target; NEXT();
  OP(JumpZero) if (NUM(i->a) == 0.0) pc = code + i->target; NEXT();
  OP(JumpNonZero) if (NUM(i->a) != 0.0) pc = code + i->target; NEXT();
  OP(JumpEq) if (NUM(i->a) == NUM(i->b)) pc = code + i->target; NEXT();
  OP(JumpNe) if (NUM(i->a) != NUM(i->b)) pc = code + i->target; NEXT();
  OP(JumpLt) if (NUM(i->a) < NUM(i->b)) pc = code + i->target; NEXT();
  OP(JumpLe) if (NUM(i->a) <= NUM(i->b)) pc = code + i->target; NEXT();
  OP(JumpGt) if (NUM(i->a) > NUM(i->b)) pc = code + i->target; NEXT();
  OP(JumpGe) if (NUM(i->a) >= NUM(i->b)) pc = code + i->target; NEXT();
  OP(JumpNotLt) if (!(NUM(i->a) < NUM(i->b))) pc = code + i->target; NEXT();
  OP(JumpNotLe) if (!(NUM(i->a) <= NUM(i->b))) pc = code + i->target; NEXT();
  OP(JumpNotGt) if (!(NUM(i->a) > NUM(i->b))) pc = code + i->target; NEXT();
  OP(JumpNotGe) if (!(NUM(i->a) >= NUM(i->b))) pc = code + i->target; NEXT();
  OP(LoadElementK) {
    Array& a = checked(ARR(i->a).get(), i->line);
    NUM(i->d) = a.numbers[checkedIndexK(a, i)];
    NEXT();
  }
  OP(LoadElement) {
    Array& a = checked(ARR(i->a).get(), i->line);
    NUM(i->d) = a.numbers[checkedIndex(a, NUM(i->b), i->line)];
    NEXT();
  }
  OP(StoreElementK) {
    Array& a = checked(ARR(i->a).get(), i->line);
    double& at = a.numbers[checkedIndexK(a, i)];
    at = converted(i->kind, NUM(i->b));
    NEXT();
  }
  OP(ElementAddressK) {
    Array& a = checked(ARR(i->a).get(), i->line);
    pointers[i->d] = &a.numbers[checkedIndexK(a, i)];
    NEXT();
  }
  OP(ArrayPointer) pointers[i->d] = ARR(i->a).get(); NEXT();
  OP(CheckNull) checked(PTR(i->a), i->line); NEXT();
  OP(RowOf) {
    Array& a = checked(ARR(i->a).get(), i->line);
    pointers[i->d] = a.rows[checkedIndex(a, NUM(i->b), i->line)].get();
    NEXT();
  }
  OP(Row) {
    Array& a = checked(PTR(i->a), i->line);
    pointers[i->d] = a.rows[checkedIndex(a, NUM(i->b), i->line)].get();
    NEXT();
  }
  OP(LoadAt) {
    Array& a = checked(PTR(i->a), i->line);
    NUM(i->d) = a.numbers[checkedIndex(a, NUM(i->b), i->line)];
    NEXT();
  }
  OP(ElementAddress) {
    Array& a = checked(PTR(i->a), i->line);
    pointers[i->d] = &a.numbers[checkedIndex(a, NUM(i->b), i->line)];
    NEXT();
  }
  OP(Length) NUM(i->d) = static_cast<double>(checked(PTR(i->a), i->line).length()); NEXT();
  OP(HoldArray) {
    ArrayRef held = i->node != nullptr ? static_cast<const Expr*>(i->node)->array(ex) : ARR(i->a);
    RELOAD();
    if (!held) nullArray(i->line);
    ARR(i->d) = std::move(held);
    NEXT();
  }
  OP(ForEachNext) {
    const Array& a = *ARR(i->a);
    double& index = NUM(i->b);
    if (!(index < static_cast<double>(a.length()))) {
      pc = code + i->target;
      NEXT();
    }
    spend(ex, i->line);
    NUM(i->d) = castTo(i->kind, a.numbers[static_cast<std::size_t>(index)]);
    index += 1.0;
    NEXT();
  }
  OP(ReleaseArray) ARR(i->d).reset(); NEXT();
  OP(LoadPointer) NUM(i->d) = *static_cast<double*>(pointers[i->a]); NEXT();
  OP(StorePointer) *static_cast<double*>(pointers[i->d]) = converted(i->kind, NUM(i->a)); NEXT();
  OP(AssignArray) {
    ArrayRef v = static_cast<const Expr*>(i->node)->array(ex);
    RELOAD();
    ARR(i->d) = std::move(v);
    NEXT();
  }
  OP(Statement) {
    const Flow f = static_cast<const Stmt*>(i->node)->run(ex);
    RELOAD();
    if (f == Flow::Normal) NEXT();
    // Break / continue of an enclosing loop or switch; with none, the method's body is left.
    const std::uint32_t to = f == Flow::Break ? i->target : f == Flow::Continue ? i->b : kNoReg;
    if (to == kNoReg) return;
    pc = code + to;
    NEXT();
  }
  OP(Spend) spend(ex, i->line); NEXT();
  OP(Count) {
    auto* count = static_cast<StatementCount*>(const_cast<void*>(i->node));
    if (++count->steps >= count->nextCheck) count->check(i->line);
    NEXT();
  }
  OP(Return) return;
  OP(ReturnNumber) ex.returnNumber = NUM(i->a); return;
  OP(ReturnHeld) ex.returnHeld = &ARR(i->a); return;
#ifndef PESIM_JAVA_THREADED
  }
#endif
#undef OP
#undef NEXT
#undef RELOAD
#undef NUM
#undef ARR
#undef PTR
}

}  // namespace pesim::java
