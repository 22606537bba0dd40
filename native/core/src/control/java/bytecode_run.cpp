// The bytecode interpreter (see bytecode.hpp): one dispatch loop over flat instructions, each
// instruction's work a small function inlined into it. Every operation is the one its node
// performs (arith.hpp, castTo, the nodes' own checks and messages), so a method gives the same
// results, bit for bit, and the same failures as its nodes.
#include <cstdint>
#include <cstring>
#include <string>

#include "control/java/array_checks.hpp"
#include "control/java/bytecode.hpp"
#include "control/java/script.hpp"

// Threaded dispatch where the compiler has computed gotos (GCC, Clang): each instruction jumps
// straight to the next one's code. A switch elsewhere (and with PESIM_JAVA_SWITCH_DISPATCH
// defined, to test that form).
#if (defined(__GNUC__) || defined(__clang__)) && !defined(PESIM_JAVA_SWITCH_DISPATCH)
#define PESIM_JAVA_THREADED 1
#endif
// GCC would merge the instructions' identical dispatch tails into a few shared jumps
// (cross-jumping), which the branch predictor then cannot tell apart: 25 % slower on if/else code.
#if defined(__GNUC__) && !defined(__clang__)
#define PESIM_JAVA_DISPATCH_LOOP __attribute__((optimize("no-crossjumping")))
#else
#define PESIM_JAVA_DISPATCH_LOOP
#endif
#if defined(_MSC_VER)
#define PESIM_JAVA_STEP static __forceinline const Instr*
#else
#define PESIM_JAVA_STEP [[gnu::always_inline]] static inline const Instr*
#endif

namespace pesim::java {

namespace {

[[noreturn]] void nullArray(int line) { fail("NullPointerException: the array is null", line); }

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

inline bool sameBits(double a, double b) {
  std::uint64_t x = 0, y = 0;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return x == y;
}

// The state of one run of a method's code: where its operands live. With kDirect a number operand
// is the byte offset of its slot from Bytecode::directBase.
template <bool kDirect>
struct Machine {
  // The pointer registers are written before they are read (each statement's code sets them).
  Machine(Exec& e, const Bytecode& bytecode, Frame& frame)
      : ex(e), code(bytecode.code.data()),
        numbers{frame.numbers.data(), e.fieldNumbers.data(), const_cast<double*>(bytecode.constants.data())},
        arrays{frame.arrays.data(), e.fieldArrays.data()},
        base(reinterpret_cast<char*>(const_cast<double*>(bytecode.directBase))) {}

  Exec& ex;
  const Instr* code;
  double* numbers[3];  // by Space: the frame's numbers, the fields, the constants
  ArrayRef* arrays[2];
  char* base;  // Bytecode::directBase
  void* pointers[kPointers];

  double& number(Reg r) {
    if constexpr (kDirect) {
      return *reinterpret_cast<double*>(base + static_cast<std::int32_t>(r));
    } else {
      return numbers[r >> kSpaceShift][r & kIndexMask];
    }
  }
  ArrayRef& array(Reg r) { return arrays[r >> kSpaceShift][r & kIndexMask]; }
  Array* pointer(std::uint32_t p) const { return static_cast<Array*>(pointers[p]); }
  double*& element(std::uint32_t p) { return reinterpret_cast<double*&>(pointers[p]); }
  // A node run from the bytecode may run other code: the field vectors are read again after it.
  void reload() {
    numbers[1] = ex.fieldNumbers.data();
    arrays[1] = ex.fieldArrays.data();
  }
};

// Each instruction's work (bytecode.hpp lists them): `next` is the following instruction, the
// result the one to run after it.
template <class Machine>
struct Steps {
  PESIM_JAVA_STEP Move(Machine& m, const Instr* i, const Instr* next) { return m.number(i->d) = m.number(i->a), next; }
  PESIM_JAVA_STEP MoveK(Machine& m, const Instr* i, const Instr* next) { return m.number(i->d) = i->k, next; }
  PESIM_JAVA_STEP Convert(Machine& m, const Instr* i, const Instr* next) { return m.number(i->d) = converted(i->kind, m.number(i->a)), next; }
  PESIM_JAVA_STEP Add(Machine& m, const Instr* i, const Instr* next) { return m.number(i->d) = m.number(i->a) + m.number(i->b), next; }
  PESIM_JAVA_STEP Sub(Machine& m, const Instr* i, const Instr* next) { return m.number(i->d) = m.number(i->a) - m.number(i->b), next; }
  PESIM_JAVA_STEP Mul(Machine& m, const Instr* i, const Instr* next) { return m.number(i->d) = m.number(i->a) * m.number(i->b), next; }
  PESIM_JAVA_STEP Div(Machine& m, const Instr* i, const Instr* next) { return m.number(i->d) = m.number(i->a) / m.number(i->b), next; }
  // The kept operands and result (Bytecode::kept) of a DivKept; the same bits of the operands give
  // the same quotient, so the kept one is the division's.
  PESIM_JAVA_STEP DivKept(Machine& m, const Instr* i, const Instr* next) {
    double* kept = static_cast<double*>(const_cast<void*>(i->node));
    const double a = m.number(i->a), b = m.number(i->b);
    if (!sameBits(a, kept[0]) || !sameBits(b, kept[1])) {
      kept[0] = a;
      kept[1] = b;
      kept[2] = a / b;
    }
    return m.number(i->d) = kept[2], next;
  }
  PESIM_JAVA_STEP AddInt(Machine& m, const Instr* i, const Instr* next) { return integer(Op::Add, m, i, next); }
  PESIM_JAVA_STEP SubInt(Machine& m, const Instr* i, const Instr* next) { return integer(Op::Sub, m, i, next); }
  PESIM_JAVA_STEP MulInt(Machine& m, const Instr* i, const Instr* next) { return integer(Op::Mul, m, i, next); }
  PESIM_JAVA_STEP DivInt(Machine& m, const Instr* i, const Instr* next) { return integer(Op::Div, m, i, next); }
  PESIM_JAVA_STEP RemInt(Machine& m, const Instr* i, const Instr* next) { return integer(Op::Rem, m, i, next); }
  PESIM_JAVA_STEP integer(Op op, Machine& m, const Instr* i, const Instr* next) {
    return m.number(i->d) = integral(op, false, m.number(i->a), m.number(i->b), i->line), next;
  }
  PESIM_JAVA_STEP Arith(Machine& m, const Instr* i, const Instr* next) {
    return m.number(i->d) = apply(i->op, i->kind, m.number(i->a), m.number(i->b), i->line), next;
  }
  PESIM_JAVA_STEP Compare(Machine& m, const Instr* i, const Instr* next) {
    return m.number(i->d) = compare(i->op, m.number(i->a), m.number(i->b)) ? 1.0 : 0.0, next;
  }
  PESIM_JAVA_STEP Truth(Machine& m, const Instr* i, const Instr* next) { return m.number(i->d) = m.number(i->a) != 0.0 ? 1.0 : 0.0, next; }
  PESIM_JAVA_STEP Unary(Machine& m, const Instr* i, const Instr* next) {
    return m.number(i->d) = unaryValue(static_cast<char>(i->k), i->kind, m.number(i->a), i->line), next;
  }
  PESIM_JAVA_STEP Cast(Machine& m, const Instr* i, const Instr* next) { return m.number(i->d) = castValue(i->kind, i->flag, m.number(i->a)), next; }
  PESIM_JAVA_STEP Time(Machine& m, const Instr* i, const Instr* next) { return m.number(i->d) = m.ex.time, next; }
  PESIM_JAVA_STEP Step(Machine& m, const Instr* i, const Instr* next) { return m.number(i->d) = m.ex.dt, next; }
  PESIM_JAVA_STEP Native(Machine& m, const Instr* i, const Instr* next) {
    const double a = i->a == kNoReg ? 0.0 : m.number(i->a);
    return m.number(i->d) = i->fn(*static_cast<const Expr*>(i->node), m.ex, a, i->b == kNoReg ? 0.0 : m.number(i->b)), next;
  }
  PESIM_JAVA_STEP Node(Machine& m, const Instr* i, const Instr* next) {
    const double v = static_cast<const Expr*>(i->node)->number(m.ex);
    m.reload();
    return m.number(i->d) = v, next;
  }
  PESIM_JAVA_STEP Effect(Machine& m, const Instr* i, const Instr* next) {
    evaluateForEffect(*static_cast<const Expr*>(i->node), m.ex);
    m.reload();
    return next;
  }
  PESIM_JAVA_STEP Increment(Machine& m, const Instr* i, const Instr* next) { return increment(m, m.number(i->a), i, next); }
  PESIM_JAVA_STEP IncrementAt(Machine& m, const Instr* i, const Instr* next) { return increment(m, *m.element(i->a), i, next); }
  PESIM_JAVA_STEP increment(Machine& m, double& at, const Instr* i, const Instr* next) {
    const double before = at;
    const double after = incremented(i->kind, before, i->k, i->line);
    at = after;
    if (i->d != kNoReg) m.number(i->d) = i->flag ? after : before;
    return next;
  }
  PESIM_JAVA_STEP Jump(Machine& m, const Instr* i, const Instr*) { return m.code + i->target; }
  PESIM_JAVA_STEP LoadElementK(Machine& m, const Instr* i, const Instr* next) {
    Array& a = checked(m.array(i->a).get(), i->line);
    return m.number(i->d) = a.numbers[checkedIndexK(a, i)], next;
  }
  PESIM_JAVA_STEP LoadElement(Machine& m, const Instr* i, const Instr* next) {
    Array& a = checked(m.array(i->a).get(), i->line);
    return m.number(i->d) = a.numbers[checkedIndex(a, m.number(i->b), i->line)], next;
  }
  PESIM_JAVA_STEP StoreElementK(Machine& m, const Instr* i, const Instr* next) {
    Array& a = checked(m.array(i->a).get(), i->line);
    double& at = a.numbers[checkedIndexK(a, i)];
    return at = converted(i->kind, m.number(i->b)), next;
  }
  PESIM_JAVA_STEP ElementAddressK(Machine& m, const Instr* i, const Instr* next) {
    Array& a = checked(m.array(i->a).get(), i->line);
    return m.element(i->d) = &a.numbers[checkedIndexK(a, i)], next;
  }
  PESIM_JAVA_STEP ArrayPointer(Machine& m, const Instr* i, const Instr* next) { return m.pointers[i->d] = m.array(i->a).get(), next; }
  PESIM_JAVA_STEP CheckNull(Machine& m, const Instr* i, const Instr* next) { return checked(m.pointer(i->a), i->line), next; }
  PESIM_JAVA_STEP RowOf(Machine& m, const Instr* i, const Instr* next) { return row(m, m.array(i->a).get(), i, next); }
  PESIM_JAVA_STEP Row(Machine& m, const Instr* i, const Instr* next) { return row(m, m.pointer(i->a), i, next); }
  PESIM_JAVA_STEP row(Machine& m, Array* outer, const Instr* i, const Instr* next) {
    Array& a = checked(outer, i->line);
    return m.pointers[i->d] = a.rows[checkedIndex(a, m.number(i->b), i->line)].get(), next;
  }
  PESIM_JAVA_STEP LoadAt(Machine& m, const Instr* i, const Instr* next) {
    Array& a = checked(m.pointer(i->a), i->line);
    return m.number(i->d) = a.numbers[checkedIndex(a, m.number(i->b), i->line)], next;
  }
  PESIM_JAVA_STEP LoadRowK(Machine& m, const Instr* i, const Instr* next) {
    Array& table = checked(m.array(i->a).get(), i->line);
    Array& row = checked(table.rows[checkedIndex(table, m.number(i->b), i->line)].get(), i->line);
    return m.number(i->d) = row.numbers[checkedIndexK(row, i)], next;
  }
  PESIM_JAVA_STEP ElementAddress(Machine& m, const Instr* i, const Instr* next) {
    Array& a = checked(m.pointer(i->a), i->line);
    return m.element(i->d) = &a.numbers[checkedIndex(a, m.number(i->b), i->line)], next;
  }
  PESIM_JAVA_STEP LoadPointer(Machine& m, const Instr* i, const Instr* next) { return m.number(i->d) = *m.element(i->a), next; }
  PESIM_JAVA_STEP StorePointer(Machine& m, const Instr* i, const Instr* next) { return *m.element(i->d) = converted(i->kind, m.number(i->a)), next; }
  PESIM_JAVA_STEP Length(Machine& m, const Instr* i, const Instr* next) {
    return m.number(i->d) = static_cast<double>(checked(m.pointer(i->a), i->line).length()), next;
  }
  PESIM_JAVA_STEP HoldArray(Machine& m, const Instr* i, const Instr* next) {
    ArrayRef held = i->node != nullptr ? static_cast<const Expr*>(i->node)->array(m.ex) : m.array(i->a);
    m.reload();
    if (!held) nullArray(i->line);
    m.array(i->d) = std::move(held);
    return next;
  }
  PESIM_JAVA_STEP ForEachNext(Machine& m, const Instr* i, const Instr* next) {
    const Array& a = *m.array(i->a);
    double& index = m.number(i->b);
    if (!(index < static_cast<double>(a.length()))) return m.code + i->target;
    spend(m.ex, i->line);
    m.number(i->d) = castTo(i->kind, a.numbers[static_cast<std::size_t>(index)]);
    index += 1.0;
    return next;
  }
  PESIM_JAVA_STEP ReleaseArray(Machine& m, const Instr* i, const Instr* next) { return m.array(i->d).reset(), next; }
  PESIM_JAVA_STEP AssignArray(Machine& m, const Instr* i, const Instr* next) {
    ArrayRef v = static_cast<const Expr*>(i->node)->array(m.ex);
    m.reload();
    m.array(i->d) = std::move(v);
    return next;
  }
  PESIM_JAVA_STEP Spend(Machine& m, const Instr* i, const Instr* next) { return spend(m.ex, i->line), next; }
  // The element of a fixed array (bindFixedArrays): its address in `node`, the array's own
  // (writable) storage.
  static double* fixedElement(const Instr* i) { return static_cast<double*>(const_cast<void*>(i->node)); }
  PESIM_JAVA_STEP LoadFixed(Machine& m, const Instr* i, const Instr* next) { return m.number(i->d) = *fixedElement(i), next; }
  PESIM_JAVA_STEP StoreFixed(Machine& m, const Instr* i, const Instr* next) {
    return *fixedElement(i) = converted(i->kind, m.number(i->b)), next;
  }
  // A run of copies (bindFixedArrays) in one dispatch: each number copied as it is, as its own
  // instruction (Move, MoveK, LoadFixed, StoreFixed of a double) copies it; then on with
  // instruction b.
  PESIM_JAVA_STEP Copies(Machine& m, const Instr* i, const Instr*) {
    const auto* copy = static_cast<const Bytecode::Copy*>(i->node);
    for (std::uint32_t n = 0; n < i->target; ++n) *copy[n].to = *copy[n].from;
    return m.code + i->b;
  }
  PESIM_JAVA_STEP FixedAddress(Machine& m, const Instr* i, const Instr* next) { return m.element(i->d) = fixedElement(i), next; }
  PESIM_JAVA_STEP Count(Machine&, const Instr* i, const Instr* next) {
    auto* count = static_cast<StatementCount*>(const_cast<void*>(i->node));
    if (++count->steps >= count->nextCheck) count->check(i->line);
    return next;
  }
  // A statement run by its node: Return ends the method (null), Break / Continue jump to the
  // enclosing loop's or switch's target; with none, the method's body is left.
  static const Instr* statement(Machine& m, const Instr* i, const Instr* next) {
    const Flow f = static_cast<const Stmt*>(i->node)->run(m.ex);
    m.reload();
    if (f == Flow::Normal) return next;
    const std::uint32_t to = f == Flow::Break ? i->target : f == Flow::Continue ? i->b : kNoReg;
    return to == kNoReg ? nullptr : m.code + to;
  }
};

}  // namespace

namespace {

template <bool kDirect>
PESIM_JAVA_DISPATCH_LOOP void run(const Bytecode& bytecode, Exec& ex, Frame& frame) {
  using Run = Steps<Machine<kDirect>>;
  Machine<kDirect> m(ex, bytecode, frame);
  const Instr* pc = m.code;
  const Instr* i = nullptr;
#ifdef PESIM_JAVA_THREADED
  static const void* const kTargets[] = {
#define PESIM_JAVA_CODE_TARGET(name) &&op_##name,
#define PESIM_JAVA_JUMP_TARGET(name, condition) &&op_##name,
      PESIM_JAVA_CODES(PESIM_JAVA_CODE_TARGET, PESIM_JAVA_JUMP_TARGET)
#undef PESIM_JAVA_CODE_TARGET
#undef PESIM_JAVA_JUMP_TARGET
  };
#define OP(name) op_##name:
#define NEXT()                                         \
  do {                                                 \
    i = pc++;                                          \
    goto* kTargets[static_cast<std::size_t>(i->code)]; \
  } while (0)
  NEXT();
#else
#define OP(name) case Code::name:
#define NEXT() goto next
next:
  i = pc++;
  switch (i->code) {
#endif
#define PESIM_JAVA_CODE_RUN(name) \
  OP(name) pc = Run::name(m, i, pc); \
  NEXT();
  PESIM_JAVA_STEP_CODES(PESIM_JAVA_CODE_RUN)
  PESIM_JAVA_ARRAY_CODES(PESIM_JAVA_CODE_RUN)
#undef PESIM_JAVA_CODE_RUN
  // Conditional jumps as branches (a select would make the next dispatch wait for the comparison).
#define A m.number(i->a)
#define B m.number(i->b)
#define K i->k
#define PESIM_JAVA_JUMP_RUN(name, condition) \
  OP(name) if (condition) pc = m.code + i->target; \
  NEXT();
  PESIM_JAVA_JUMP_CODES(PESIM_JAVA_JUMP_RUN)
#undef PESIM_JAVA_JUMP_RUN
#undef A
#undef B
#undef K
  OP(Statement) pc = Run::statement(m, i, pc);
  if (pc == nullptr) return;
  NEXT();
  OP(Return) return;
  OP(ReturnNumber) ex.returnNumber = m.number(i->a);
  return;
  OP(ReturnHeld) ex.returnHeld = &m.array(i->a);
  return;
#ifndef PESIM_JAVA_THREADED
  }
#endif
#undef OP
#undef NEXT
}

}  // namespace

void runDirect(const Bytecode& bytecode, Exec& ex, Frame& frame) { run<true>(bytecode, ex, frame); }
void runIndexed(const Bytecode& bytecode, Exec& ex, Frame& frame) { run<false>(bytecode, ex, frame); }

}  // namespace pesim::java
