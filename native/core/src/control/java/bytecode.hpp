// The fast form of a compiled method: its statement and expression nodes lowered to a flat
// register bytecode run by one dispatch loop (bytecode_run.cpp), so that a Java block's step costs
// a few instructions per operation instead of a virtual call per node. Numbers live in typed slots:
// the frame's numbers (locals, then the temporaries of the bytecode), the fields, or the code's
// constants. Array elements are read and written through the variables that hold the arrays,
// without reference counting; jumps carry the comparisons of conditions (compare-and-branch).
//
// Each node lowers itself (Expr::lowerNumber, Stmt::lower, ...); a node with no lowering of its
// own is run by the bytecode through the node (the Node, Effect and Statement instructions), so
// every construct of the language keeps one implementation and the fast path covers the
// arithmetic, conditions, loops, element access, Math and assignments that the hot code is made of.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "control/java/arith.hpp"
#include "control/java/nodes.hpp"

namespace pesim::java {

// A number operand: a slot of the frame's numbers, of the fields or of the constants, the space in
// the top two bits. Array variables use the same encoding over the array slots (Frame or Field).
enum class Space : std::uint32_t { Frame = 0, Field = 1, Constant = 2 };
constexpr int kSpaceShift = 30;
constexpr Reg kIndexMask = (Reg{1} << kSpaceShift) - 1;
constexpr Reg kNoReg = ~Reg{0};
constexpr Reg makeReg(Space s, std::uint32_t index) { return (static_cast<Reg>(s) << kSpaceShift) | index; }

// Pointer registers (an array or an element reached through variables) of one statement.
constexpr std::uint32_t kPointers = 16;

// The instructions, by name (the X-macro keeps the enum, the interpreter's dispatch table and the
// listing in one order):
//   numbers (d = ...): Move d=a; MoveK d=k; Convert d=castTo(kind, a); Add Sub Mul Div (double);
//   AddInt SubInt MulInt DivInt RemInt (int: integral()); Arith d=apply(op, kind, a, b); Compare
//   d=(a op b); Truth d=(a != 0); Unary d=unaryValue(op char in k, kind, a); Cast d=castValue(kind, flag: from long, a); Time, Step
//   d=time, dt; Native d=fn(node, a, b) (a node's own operation on lowered operands: Math.*);
//   Node d=node->number() (a node without a lowering of its own); Effect: evaluateForEffect(node);
//   Increment a+=k (x++ on a variable of type kind; d, if any, the value before, or after when
//   flag); IncrementAt the same on the element at pointer a.
//   jumps to `target`: Jump; JumpZero, JumpNonZero on a; JumpEq .. JumpNotGe on a op b; JumpEqK ..
//   JumpNotGeK on a op k.
//   arrays (`a` an array variable; p[n] pointer registers; K: the constant index k, also in target
//   as an integer): LoadElementK d=a[k]; LoadElement d=a[b]; StoreElementK a[k]=castTo(kind, b);
//   ElementAddressK p[d]=&a[k]; ArrayPointer p[d]=a (may be null); CheckNull p[a]; RowOf p[d]=a[b]
//   (a row); Row p[d]=p[a][b]; LoadAt d=p[a][b]; LoadRowK d=a[b][k] (RowOf and LoadAt in one); ElementAddress p[d]=&p[a][b]; LoadPointer d=*p[a];
//   StorePointer *p[d]=castTo(kind, a); Length d=p[a].length; AssignArray: array variable
//   d = node->array() (flag: the node is a constant array literal, which runs no code); HoldArray: array slot d = the array variable a, or node->array() (a for-each's
//   array, null checked); ForEachNext: when the index b has reached the length of the array in
//   slot a, jump to target, else spend an iteration and d = castTo(kind, element b), b += 1;
//   ReleaseArray: array slot d = null.
//   elements of the arrays that keep their object from call to call (bindFixedArrays; the
//   element's address in `node`): LoadFixed d=element; StoreFixed element=castTo(kind, b);
//   FixedAddress p[d]=&element.
//   Copies: `target` copies of numbers (Bytecode::copies from `node`), then on with instruction b:
//   in bound code, a run of instructions that each copy a number (Move, MoveK, LoadFixed,
//   StoreFixed of a double), and the run a Jump after it goes to, as one instruction in place of
//   the first (the others stay in place for jumps into the run).
//   DivKept: Div keeping its last operands and result (in Bytecode::kept, at `node`): operands
//   with the same bits as last time give the kept result instead of a new division.
//   statements: Statement node->run() (Return ends the method, Break / Continue jump to target / b);
//   Spend (a loop iteration against the budget); Count (a script statement: node the
//   StatementCount); Return; ReturnNumber a; ReturnHeld (the field array a, held).
#define PESIM_JAVA_STEP_CODES(X)                                                                                         \
  X(Move) X(Convert) X(Add) X(Sub) X(Mul) X(Div) X(AddInt) X(SubInt) X(MulInt) X(DivInt) X(RemInt) X(Arith)         \
  X(Compare) X(Truth) X(Unary) X(Cast) X(Time) X(Step) X(Native) X(Node) X(Effect) X(Increment) X(IncrementAt)      \
  X(MoveK) X(Jump) X(DivKept)
// The conditional jumps with their conditions on the operands A (a) and B (b); the K forms compare
// with the constant K (k) instead of B, in the same order as JumpEq .. JumpNotGe.
#define PESIM_JAVA_JUMP_CODES(X)                                                                                         \
  X(JumpZero, A == 0.0) X(JumpNonZero, A != 0.0) X(JumpEq, A == B) X(JumpNe, A != B) X(JumpLt, A < B)                \
  X(JumpLe, A <= B) X(JumpGt, A > B) X(JumpGe, A >= B) X(JumpNotLt, !(A < B)) X(JumpNotLe, !(A <= B))                \
  X(JumpNotGt, !(A > B)) X(JumpNotGe, !(A >= B)) X(JumpEqK, A == K) X(JumpNeK, A != K) X(JumpLtK, A < K)            \
  X(JumpLeK, A <= K) X(JumpGtK, A > K) X(JumpGeK, A >= K) X(JumpNotLtK, !(A < K)) X(JumpNotLeK, !(A <= K))          \
  X(JumpNotGtK, !(A > K)) X(JumpNotGeK, !(A >= K))
#define PESIM_JAVA_ARRAY_CODES(X)                                                                                        \
  X(LoadElementK) X(LoadElement) X(StoreElementK) X(ElementAddressK) X(ArrayPointer) X(CheckNull) X(RowOf) X(Row)    \
  X(LoadAt) X(ElementAddress) X(LoadPointer) X(Length) X(HoldArray) X(ForEachNext) X(ReleaseArray) X(StorePointer)  \
  X(AssignArray) X(Spend) X(Count) X(LoadFixed) X(StoreFixed) X(FixedAddress) X(Copies) X(LoadRowK)
// The instructions that may end the method (the interpreter runs them in its loop).
#define PESIM_JAVA_END_CODES(X) X(Statement) X(Return) X(ReturnNumber) X(ReturnHeld)
// Every code in one order: X(name) for each, but J(name, condition) for the conditional jumps.
#define PESIM_JAVA_CODES(X, J) \
  PESIM_JAVA_STEP_CODES(X) PESIM_JAVA_JUMP_CODES(J) PESIM_JAVA_ARRAY_CODES(X) PESIM_JAVA_END_CODES(X)

enum class Code : std::uint8_t {
#define PESIM_JAVA_CODE_ENUM(name) name,
#define PESIM_JAVA_JUMP_ENUM(name, condition) name,
  PESIM_JAVA_CODES(PESIM_JAVA_CODE_ENUM, PESIM_JAVA_JUMP_ENUM)
#undef PESIM_JAVA_CODE_ENUM
#undef PESIM_JAVA_JUMP_ENUM
};

using NativeOp = double (*)(const Expr& node, Exec& ex, double a, double b);

struct Instr {
  Code code = Code::Move;
  Op op = Op::Add;
  Base kind = Base::Double;
  bool flag = false;
  int line = 0;
  Reg d = kNoReg, a = kNoReg, b = kNoReg;
  std::uint32_t target = 0;
  double k = 0.0;
  const void* node = nullptr;
  NativeOp fn = nullptr;
};

struct Bytecode {
  std::vector<Instr> code;
  std::vector<double> constants;
  // Per DivKept instruction of bound code: its last operands a, b and a / b (bindFixedArrays).
  std::vector<double> kept;
  // The copies of the Copies instructions of bound code, by run (bindFixedArrays).
  struct Copy {
    const double* from;
    double* to;
  };
  std::vector<Copy> copies;
  // Bound code whose number operands are the byte offsets of their slots from this address, the
  // first number of the frame, the fields or the constants (bindFixedArrays): one addition reaches
  // a slot, in any space. Null: operands by space and index.
  const double* directBase = nullptr;
  // The frame's number slots that are the method's variables (the temporaries of the code follow).
  std::uint32_t locals = 0;
  // Bound code that reads xIN's elements where FixedArrays::inputs says, not from xIN (bindFixedArrays).
  bool inputsInPlace = false;
};

// The element index `k` as the integer the K instructions carry (in `target`); false when it is
// negative or too large (the instruction with the index as an operand checks it then).
inline bool constantIndex(double k, std::uint32_t& index) {
  if (!(k >= 0.0 && k < 2147483648.0) || k != static_cast<double>(static_cast<std::uint32_t>(k))) return false;
  index = static_cast<std::uint32_t>(k);
  return true;
}

// The instruction of `op` carried out in `kind`: the double or int arithmetic codes where there is
// one, else Arith (apply()).
inline Code arithmeticCode(Op op, Base kind) {
  if (kind == Base::Double) {
    switch (op) {
      case Op::Add: return Code::Add;
      case Op::Sub: return Code::Sub;
      case Op::Mul: return Code::Mul;
      case Op::Div: return Code::Div;
      default: return Code::Arith;
    }
  }
  if (kind == Base::Int) {
    switch (op) {
      case Op::Add: return Code::AddInt;
      case Op::Sub: return Code::SubInt;
      case Op::Mul: return Code::MulInt;
      case Op::Div: return Code::DivInt;
      case Op::Rem: return Code::RemInt;
      default: return Code::Arith;
    }
  }
  return Code::Arith;
}

// Thrown by a node that cannot lower itself here (e.g. too many pointer registers): the statement
// being lowered then runs through its node.
struct NotLowered {};

// Builds the bytecode of one method; the nodes call it to lower themselves.
class Lowering {
 public:
  explicit Lowering(Method& method);

  // The value of a number expression: a slot holding it (`want` when given and the expression
  // computes into it, else a temporary, a variable or a constant).
  Reg number(const Expr& e, Reg want = kNoReg);
  // The value of `e` into `dest`.
  void into(const Expr& e, Reg dest);
  // Jumps to `label` when the truth of `condition` is `when`.
  void branch(const Expr& condition, bool when, int label);
  // Evaluates `e` for its effect only (an expression statement, a for update).
  void effect(const Expr& e);
  void statement(const Stmt& s);

  Reg constant(double v);
  Reg temp();
  // Temporaries taken until now stay taken through the statements lowered next (a loop's
  // counter); returns what restoreTemporaries takes back.
  std::uint32_t keepTemporaries();
  void restoreTemporaries(std::uint32_t kept);
  // A hidden array slot of the frame (a for-each's array): its reference lives there.
  Reg arrayTemp();
  std::uint32_t pointer();
  int label();
  void place(int label);
  void emit(const Instr& i);
  void jump(Code code, int label, Reg a = kNoReg, Reg b = kNoReg);
  // One iteration of a loop at `line` spent from the run's budget (Spend).
  void spend(int line);
  // dest = castTo(kind, value): a Move for doubles, a converted constant for constants.
  void convert(Reg dest, Reg value, Base kind, int line);
  // A node run as a statement (Statement instruction) with the enclosing break and continue targets.
  void fallback(const Stmt& s);

  // break and continue targets of the enclosing loops and switches (-1: none).
  void enterBreakable(int breakLabel, int continueLabel);
  void leaveBreakable();
  int breakLabel() const;
  int continueLabel() const;

  // A local array variable assigned a table literal, and one read of an element of a row of a
  // local array variable: a table whose every mention is one assignment and such reads is only read.
  void tableAssigned(Reg variable, const Expr& literal);
  void tableRead(Reg variable);

  std::shared_ptr<const Bytecode> finish();
  int temporaries() const { return static_cast<int>(maxTemps_); }
  int arrayTemporaries() const { return static_cast<int>(arrayTemps_); }

 private:
  void withConstant(Instr& i) const;

  Method& method_;
  Bytecode code_;
  std::vector<std::int64_t> labels_;  // code position of each label (-1 until placed)
  struct Breakable {
    int breakLabel, continueLabel;
  };
  std::vector<Breakable> breakables_;
  std::uint32_t temps_ = 0, maxTemps_ = 0;
  std::uint32_t keptTemps_ = 0;  // temporaries live across statements
  std::uint32_t arrayTemps_ = 0;
  struct Table {
    Reg variable;
    const Expr* literal;
  };
  std::vector<Table> tables_;
  std::vector<Reg> tableReads_;
  std::uint32_t pointers_ = 0;
};

// Instructions whose `target` is the index of an instruction (the jumps and ForEachNext), and the
// instructions that end the code.
bool isJump(Code c);
bool isReturn(Code c);
// Drops the instructions of resolved code not kept; a jump to a dropped one goes to the next one kept.
void compactCode(std::vector<Instr>& code, const std::vector<bool>& keep);

// Constant propagation and dead-store elimination over the frame's number slots of resolved code
// (bytecode_optimize.cpp): `slots` in all, the first `locals` of them the method's variables, the
// others temporaries. Code that runs nodes (fallbacks) is left as it is.
void optimize(Bytecode& code, std::uint32_t slots, std::uint32_t locals);
// optimize, then constants carried in the instructions (MoveK, the K jumps) and jumps threaded:
// the passes over resolved code (`slots` the frame's number slots, code.locals of them variables).
void optimizeResolved(Bytecode& code, std::uint32_t slots);
// Reads of the fields that `code` never writes become reads of constants, the values the fields
// hold in `fields` now (bytecode_optimize.cpp); true when any read changed. For code that runs
// alone from now on (bound code runs no node, so no other method): the fields keep these values.
bool fixUnwrittenFields(Bytecode& code, const double* fields);
// Lowers the method's body into method.code (once; adds its temporaries to its number slots).
void lowerMethod(Method& method);
// A readable listing of the code (one instruction a line), for tests and diagnostics.
std::string listing(const Bytecode& code);
// The instructions that run a node (Node, Effect, Statement): 0 when the method runs entirely as bytecode.
std::size_t fallbacks(const Bytecode& code);
// The interpreter (bytecode_run.cpp) for code whose number operands are offsets from its
// directBase, and for code whose operands are by space and index.
void runDirect(const Bytecode& code, Exec& ex, Frame& frame);
void runIndexed(const Bytecode& code, Exec& ex, Frame& frame);
// Runs the method's bytecode in `frame` (ex.frame is `frame`).
inline void execute(const Bytecode& code, Exec& ex, Frame& frame) {
  if (code.directBase != nullptr) runDirect(code, ex, frame);
  else runIndexed(code, ex, frame);
}

// The array objects that an array variable holds from one call of a method to the next, by slot
// (null: none, or not known to stay): `frame` over the method's frame slots, `fields` over the
// class's field slots.
struct FixedArrays {
  std::vector<const Array*> frame;
  std::vector<const Array*> fields;
  // The number slots of the frame and of the fields the code will run with (null: operands as they are).
  double* frameNumbers = nullptr;
  double* fieldNumbers = nullptr;
  std::uint32_t frameSlots = 0;  // the frame's number slots (variables and temporaries)
  // Where xIN's elements come from at each call (a block's input signals), one address per element;
  // empty: xIN is read. The values there must be the ones xIN would hold, all through the call.
  std::vector<const double*> inputs;
  // The array variable that the caller reads when the code ends with a plain Return (a block's
  // yOUT): a ReturnHeld of it becomes Return. kNoReg: none.
  Reg result = kNoReg;
};
// A copy of `code` for the repeated calls of one method in one frame (bytecode_bind.cpp): its
// element accesses at constant indices of the arrays in `fixed` address the element directly
// (LoadFixed, StoreFixed, FixedAddress): no variable, null or bounds check left to run, as an
// array keeps its length and the variable its array; its divisions keep their last result
// (DivKept), as a block's step often divides the same constants and parameters again; the fields
// it never writes are read as the constants they hold now (fixUnwrittenFields). Only for
// code that runs no node, which could assign the variables; null when nothing is bound. The copy
// runs in the frame and Exec the arrays were taken from, while they hold those arrays. With the
// frame's and fields' numbers given, its number operands address their slots directly (directBase).
// With `fixed.inputs` given and xIN (frame array slot 0) only read at constant indices within its
// length, those reads take the values at the inputs' addresses instead (Bytecode::inputsInPlace):
// xIN's own elements are then neither read nor written by the code.
std::shared_ptr<const Bytecode> bindFixedArrays(const Bytecode& code, const FixedArrays& fixed);
// Passes over bound code (bytecode_join.cpp): a store to a fixed element whose address the code
// takes first (FixedAddress p, the value's code, StorePointer *p) becomes StoreFixed where nothing
// else uses p; in direct code (directBase set), runs of instructions that each copy a number become
// one Copies instruction.
void storeFixedDirectly(std::vector<Instr>& code);
void joinCopies(Bytecode& code);
// True when every way `code` ends gives the array variable `field` (ReturnHeld of it, or a Return,
// after which calculate() reads yOUT: for yOUT's slot only) and the code never assigns the
// variable: each call then gives the array that the variable holds now.
bool returnsOnlyField(const Bytecode& code, Reg field);

}  // namespace pesim::java
