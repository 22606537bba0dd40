// Constant propagation and dead-store elimination on a method's bytecode (see bytecode.hpp,
// optimize): the classic data-flow analyses over the frame's number slots (Aho, Lam, Sethi,
// Ullman, "Compilers", §9.2.5 live variables and §9.4 constant propagation). A local assigned a
// constant once (`int n = 1000;`) then folds into the arithmetic that reads it, as javac folds a
// `final` one, and a store every path overwrites before reading it (`double y = 0;` before an
// if/else that assigns y either way) is not run. Every folded value is computed by the very
// functions the interpreter runs (arith.hpp), so a method gives the same results, bit for bit.
#include <cstring>
#include <vector>

#include "control/java/bytecode.hpp"

namespace pesim::java {

namespace {

bool inFrame(Reg r) { return r != kNoReg && r >> kSpaceShift == static_cast<Reg>(Space::Frame); }
bool inConstants(Reg r) { return r != kNoReg && r >> kSpaceShift == static_cast<Reg>(Space::Constant); }
bool inFields(Reg r) { return r != kNoReg && r >> kSpaceShift == static_cast<Reg>(Space::Field); }

// The number operands an instruction reads and writes (a frame slot, a field or a constant; array
// operands and pointer registers are not numbers). Codes missing here run nodes, which may read or
// write any slot: a method with one of them is left as it is.
struct Operands {
  bool known = true;  // false: a code this pass does not analyse
  bool readsA = false, readsB = false, writesD = false, writesA = false;
  // An expression node run from the bytecode: it may read and write any variable of the frame
  // (not the temporaries, which only the bytecode knows).
  bool opaque = false;
};

Operands operandsOf(const Instr& i) {
  Operands o;
  switch (i.code) {
    case Code::MoveK: case Code::Time: case Code::Step: case Code::LoadElementK: case Code::LoadPointer:
    case Code::Length: case Code::LoadFixed:
      o.writesD = true;
      break;
    case Code::Move: case Code::Convert: case Code::Truth: case Code::Unary: case Code::Cast:
      o.readsA = o.writesD = true;
      break;
    case Code::Add: case Code::Sub: case Code::Mul: case Code::Div: case Code::DivKept: case Code::AddInt:
    case Code::SubInt: case Code::MulInt: case Code::DivInt: case Code::RemInt: case Code::Arith: case Code::Compare:
      o.readsA = o.readsB = o.writesD = true;
      break;
    case Code::Native:
      o.readsA = i.a != kNoReg;
      o.readsB = i.b != kNoReg;
      o.writesD = true;
      break;
    case Code::Increment:
      o.readsA = o.writesA = true;
      o.writesD = i.d != kNoReg;
      break;
    case Code::IncrementAt:
      o.writesD = i.d != kNoReg;
      break;
    case Code::LoadElement: case Code::LoadAt: case Code::LoadRowK:
      o.readsB = o.writesD = true;
      break;
    case Code::StoreElementK: case Code::RowOf: case Code::Row: case Code::ElementAddress: case Code::StoreFixed:
      o.readsB = true;
      break;
    case Code::StorePointer: case Code::ReturnNumber:
      o.readsA = true;
      break;
    case Code::Jump: case Code::ElementAddressK: case Code::ArrayPointer: case Code::CheckNull: case Code::Spend:
    case Code::FixedAddress:
    case Code::Return: case Code::ReturnHeld: case Code::ReleaseArray:
      break;
    case Code::Node:  // the node's number into d
      o.opaque = o.writesD = true;
      break;
    case Code::Effect: case Code::AssignArray: case Code::HoldArray:  // d, if any, an array slot
      // A constant array literal (AssignArray's flag) reads and writes no number.
      o.opaque = !(i.code == Code::AssignArray && i.flag);
      break;
    default:
      if (i.code >= Code::JumpZero && i.code <= Code::JumpNotGeK) {
        o.readsA = true;
        o.readsB = i.code >= Code::JumpEq && i.code <= Code::JumpNotGe;
      } else {
        o.known = false;
      }
  }
  return o;
}


// The instructions control may go to after `at`.
void successors(const std::vector<Instr>& code, std::size_t at, std::vector<std::size_t>& next) {
  next.clear();
  const Instr& i = code[at];
  if (isReturn(i.code)) return;
  if (isJump(i.code)) next.push_back(i.target);
  if (i.code != Code::Jump && at + 1 < code.size()) next.push_back(at + 1);
}

// What is known of a frame slot's value on entry to an instruction.
struct Value {
  enum State : std::uint8_t { Unvisited, Constant, Varying } state = Unvisited;
  double v = 0.0;
};

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Meets `in` into `into`; true when `into` changed.
bool meet(std::vector<Value>& into, const std::vector<Value>& in) {
  bool changed = false;
  for (std::size_t s = 0; s < into.size(); ++s) {
    Value& a = into[s];
    const Value& b = in[s];
    if (b.state == Value::Unvisited || a.state == Value::Varying) continue;
    if (a.state == Value::Unvisited) {
      a = b;
      changed = true;
    } else if (b.state == Value::Varying || !sameBits(a.v, b.v)) {
      a.state = Value::Varying;
      changed = true;
    }
  }
  return changed;
}

class Optimizer {
 public:
  Optimizer(Bytecode& code, std::uint32_t slots, std::uint32_t locals)
      : code_(code.code), constants_(code.constants), slots_(slots), locals_(locals) {}

  bool analysable() const {
    for (const Instr& i : code_) {
      if (!operandsOf(i).known) return false;
    }
    return !code_.empty();
  }

  void propagateConstants() {
    std::vector<std::vector<Value>> entry(code_.size(), std::vector<Value>(slots_));
    for (Value& v : entry[0]) v.state = Value::Varying;  // whatever earlier calls left
    std::vector<bool> queued(code_.size(), false), reached(code_.size(), false);
    std::vector<std::size_t> work{0}, next;
    queued[0] = true;
    while (!work.empty()) {
      const std::size_t at = work.back();
      work.pop_back();
      queued[at] = false;
      reached[at] = true;
      std::vector<Value> out = entry[at];
      transfer(code_[at], out);
      successors(code_, at, next);
      for (std::size_t n : next) {
        if (meet(entry[n], out) && !queued[n]) {
          queued[n] = true;
          work.push_back(n);
        }
      }
    }
    for (std::size_t at = 0; at < code_.size(); ++at) {
      if (reached[at]) rewrite(code_[at], entry[at]);
    }
  }

  void removeDeadStores() {
    // Live slots on entry to each instruction, by backward iteration to the fixed point. At the end
    // of the method the locals are live (the frame of a block's method is kept from call to call);
    // the temporaries are not (each statement's code writes them before it reads them).
    const std::size_t n = code_.size();
    std::vector<std::vector<bool>> live(n, std::vector<bool>(slots_, false));
    std::vector<std::size_t> next;
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t at = n; at-- > 0;) {
        std::vector<bool> in = liveOut(at, live, next);
        const Instr& i = code_[at];
        const Operands o = operandsOf(i);
        if (o.writesD && inFrame(i.d) && !(o.readsA && i.a == i.d) && !(o.readsB && i.b == i.d)) in[slot(i.d)] = false;
        if (o.opaque) {
          for (std::uint32_t s = 0; s < locals_ && s < slots_; ++s) in[s] = true;
        }
        if (o.readsA && inFrame(i.a)) in[slot(i.a)] = true;
        if (o.readsB && inFrame(i.b)) in[slot(i.b)] = true;
        if (in != live[at]) {
          live[at] = std::move(in);
          changed = true;
        }
      }
    }
    std::vector<bool> keep(n, true);
    for (std::size_t at = 0; at < n; ++at) {
      const Instr& i = code_[at];
      if (removable(i.code) && inFrame(i.d) && !liveOut(at, live, next)[slot(i.d)]) keep[at] = false;
    }
    compactCode(code_, keep);
  }

 private:
  std::size_t slot(Reg r) const { return r & kIndexMask; }

  std::vector<bool> liveOut(std::size_t at, const std::vector<std::vector<bool>>& live, std::vector<std::size_t>& next) const {
    std::vector<bool> out(slots_, false);
    // Any instruction that may fail ends the method there too: the locals count as read.
    if (isReturn(code_[at].code) || mayFail(code_[at].code)) {
      for (std::uint32_t s = 0; s < locals_ && s < slots_; ++s) out[s] = true;
    }
    successors(code_, at, next);
    for (std::size_t n : next) {
      for (std::size_t s = 0; s < slots_; ++s) out[s] = out[s] || live[n][s];
    }
    return out;
  }

  // The instructions whose only effect is their number in d: dropped when nothing reads it.
  static bool removable(Code c) {
    switch (c) {
      case Code::Move: case Code::MoveK: case Code::Convert: case Code::Add: case Code::Sub: case Code::Mul:
      case Code::Div: case Code::Compare: case Code::Truth: case Code::Cast: case Code::Time: case Code::Step:
        return true;
      default:
        return false;
    }
  }

  static bool mayFail(Code c) {
    return !removable(c) && !isJump(c) && !isReturn(c) && c != Code::ArrayPointer;
  }

  bool known(Reg r, const std::vector<Value>& values, double& v) const {
    if (inConstants(r)) {
      v = constants_[r & kIndexMask];
      return true;
    }
    if (!inFrame(r) || values[slot(r)].state != Value::Constant) return false;
    v = values[slot(r)].v;
    return true;
  }

  // The value the instruction computes into d when its operands are known (as the interpreter
  // computes it); false when it is not a pure computation, an operand is unknown or it fails.
  bool fold(const Instr& i, const std::vector<Value>& values, double& result) const {
    double a = 0.0, b = 0.0;
    const Operands o = operandsOf(i);
    if ((o.readsA && !known(i.a, values, a)) || (o.readsB && !known(i.b, values, b))) return false;
    try {
      switch (i.code) {
        case Code::MoveK: result = i.k; return true;
        case Code::Move: result = a; return true;
        case Code::Convert: result = i.kind == Base::Double ? a : castTo(i.kind, a); return true;
        case Code::Add: result = a + b; return true;
        case Code::Sub: result = a - b; return true;
        case Code::Mul: result = a * b; return true;
        case Code::Div: result = a / b; return true;
        case Code::AddInt: result = integral(Op::Add, false, a, b, i.line); return true;
        case Code::SubInt: result = integral(Op::Sub, false, a, b, i.line); return true;
        case Code::MulInt: result = integral(Op::Mul, false, a, b, i.line); return true;
        case Code::DivInt: result = integral(Op::Div, false, a, b, i.line); return true;
        case Code::RemInt: result = integral(Op::Rem, false, a, b, i.line); return true;
        case Code::Arith: result = apply(i.op, i.kind, a, b, i.line); return true;
        case Code::Compare: result = compare(i.op, a, b) ? 1.0 : 0.0; return true;
        case Code::Truth: result = a != 0.0 ? 1.0 : 0.0; return true;
        case Code::Unary: result = unaryValue(static_cast<char>(i.k), i.kind, a, i.line); return true;
        case Code::Cast: result = castValue(i.kind, i.flag, a); return true;
        default: return false;
      }
    } catch (const CodeFailure&) {
      return false;  // left to fail when it runs
    }
  }

  void transfer(const Instr& i, std::vector<Value>& values) const {
    const Operands o = operandsOf(i);
    if (o.opaque) {
      for (std::uint32_t s = 0; s < locals_ && s < slots_; ++s) values[s].state = Value::Varying;
    }
    if (o.writesA && inFrame(i.a)) values[slot(i.a)].state = Value::Varying;
    if (!o.writesD || !inFrame(i.d)) return;
    double v = 0.0;
    Value& d = values[slot(i.d)];
    if (fold(i, values, v)) {
      d.state = Value::Constant;
      d.v = v;
    } else {
      d.state = Value::Varying;
    }
  }

  // Known operands read from the constants; a computation of known operands becomes a Move of its
  // value (a MoveK once the lowering carries constants in the instructions).
  void rewrite(Instr& i, const std::vector<Value>& values) {
    const Operands o = operandsOf(i);
    double v = 0.0;
    if (o.writesD && inFrame(i.d) && i.code != Code::MoveK && i.code != Code::Move && fold(i, values, v)) {
      Instr move;
      move.code = Code::Move;
      move.line = i.line;
      move.d = i.d;
      move.a = constant(v);
      i = move;
      return;
    }
    if (o.readsA && !o.writesA && inFrame(i.a) && known(i.a, values, v)) i.a = constant(v);
    if (o.readsB && inFrame(i.b) && known(i.b, values, v)) i.b = constant(v);
  }

  Reg constant(double v) {
    for (std::size_t c = 0; c < constants_.size(); ++c) {
      if (sameBits(constants_[c], v)) return makeReg(Space::Constant, static_cast<std::uint32_t>(c));
    }
    constants_.push_back(v);
    return makeReg(Space::Constant, static_cast<std::uint32_t>(constants_.size() - 1));
  }


  std::vector<Instr>& code_;
  std::vector<double>& constants_;
  std::uint32_t slots_, locals_;
};

// The constant slot holding v (bitwise), added when there is none.
Reg constantSlot(std::vector<double>& constants, double v) {
  for (std::size_t c = 0; c < constants.size(); ++c) {
    if (sameBits(constants[c], v)) return makeReg(Space::Constant, static_cast<std::uint32_t>(c));
  }
  constants.push_back(v);
  return makeReg(Space::Constant, static_cast<std::uint32_t>(constants.size() - 1));
}

}  // namespace

bool fixUnwrittenFields(Bytecode& code, const double* fields) {
  if (fields == nullptr) return false;
  std::vector<Reg> written;
  for (const Instr& i : code.code) {
    const Operands o = operandsOf(i);
    if (!o.known || o.opaque) return false;  // a node may write any field
    if (o.writesD && inFields(i.d)) written.push_back(i.d);
    if (o.writesA && inFields(i.a)) written.push_back(i.a);
  }
  auto fixed = [&](Reg r) {
    if (!inFields(r)) return false;
    for (Reg w : written) {
      if (w == r) return false;
    }
    return true;
  };
  bool any = false;
  for (Instr& i : code.code) {
    const Operands o = operandsOf(i);
    if (o.readsA && !o.writesA && fixed(i.a)) {
      i.a = constantSlot(code.constants, fields[i.a & kIndexMask]);
      any = true;
    }
    if (o.readsB && fixed(i.b)) {
      i.b = constantSlot(code.constants, fields[i.b & kIndexMask]);
      any = true;
    }
  }
  return any;
}

void optimize(Bytecode& code, std::uint32_t slots, std::uint32_t locals) {
  // The analyses keep a value per slot and instruction: a method beyond this (far larger than any
  // block's) runs as lowered rather than have its compilation take much time and memory.
  constexpr std::size_t kLargestAnalysis = std::size_t{1} << 20;
  if (static_cast<std::size_t>(slots) * code.code.size() > kLargestAnalysis) return;
  Optimizer optimizer(code, slots, locals);
  if (!optimizer.analysable()) return;
  optimizer.propagateConstants();
  optimizer.removeDeadStores();
}

}  // namespace pesim::java
