// Lowering compiled methods into bytecode (see bytecode.hpp): the Lowering builder, the default
// lowering of nodes (run through the node itself) and lowerMethod.
#include "control/java/bytecode.hpp"

#include <cstring>
#include <typeinfo>
#include <vector>

namespace pesim::java {

Lowering::Lowering(Method& method) : method_(method) {}

Reg Lowering::number(const Expr& e, Reg want) { return e.lowerNumber(*this, want); }

void Lowering::into(const Expr& e, Reg dest) {
  const Reg r = e.lowerNumber(*this, dest);
  if (r == dest) return;
  Instr i;
  i.code = Code::Move;
  i.d = dest;
  i.a = r;
  emit(i);
}

void Lowering::branch(const Expr& condition, bool when, int label) { condition.lowerBranch(*this, when, label); }

void Lowering::effect(const Expr& e) { e.lowerEffect(*this); }

void Lowering::statement(const Stmt& s) {
  // The statement's expressions start with every temporary and pointer free: none is live
  // across statements.
  temps_ = keptTemps_;
  pointers_ = 0;
  const std::size_t codeSize = code_.code.size();
  const std::size_t breakableDepth = breakables_.size();
  const std::uint32_t kept = keptTemps_;
  try {
    s.lower(*this);
  } catch (const NotLowered&) {
    code_.code.resize(codeSize);
    breakables_.resize(breakableDepth);
    keptTemps_ = kept;
    temps_ = kept;
    pointers_ = 0;
    fallback(s);
  }
}

Reg Lowering::constant(double v) {
  // Bitwise equal constants share a slot (-0.0 and 0.0 do not).
  for (std::size_t i = 0; i < code_.constants.size(); ++i) {
    if (std::memcmp(&code_.constants[i], &v, sizeof v) == 0) return makeReg(Space::Constant, static_cast<std::uint32_t>(i));
  }
  code_.constants.push_back(v);
  return makeReg(Space::Constant, static_cast<std::uint32_t>(code_.constants.size() - 1));
}

Reg Lowering::temp() {
  const std::uint32_t index = static_cast<std::uint32_t>(method_.numberSlots) + temps_++;
  if (temps_ > maxTemps_) maxTemps_ = temps_;
  return makeReg(Space::Frame, index);
}

std::uint32_t Lowering::keepTemporaries() {
  const std::uint32_t before = keptTemps_;
  keptTemps_ = temps_;
  return before;
}

void Lowering::restoreTemporaries(std::uint32_t kept) { keptTemps_ = kept; }

Reg Lowering::arrayTemp() {
  return makeReg(Space::Frame, static_cast<std::uint32_t>(method_.arraySlots) + arrayTemps_++);
}

std::uint32_t Lowering::pointer() {
  if (pointers_ == kPointers) throw NotLowered{};
  return pointers_++;
}

int Lowering::label() {
  labels_.push_back(-1);
  return static_cast<int>(labels_.size() - 1);
}

void Lowering::place(int label) { labels_[static_cast<std::size_t>(label)] = static_cast<std::int64_t>(code_.code.size()); }

void Lowering::emit(const Instr& i) { code_.code.push_back(i); }

void Lowering::spend(int line) {
  Instr i;
  i.code = Code::Spend;
  i.line = line;
  emit(i);
}

void Lowering::jump(Code code, int label, Reg a, Reg b) {
  Instr i;
  i.code = code;
  i.target = static_cast<std::uint32_t>(label);
  i.a = a;
  i.b = b;
  emit(i);
}

void Lowering::convert(Reg dest, Reg value, Base kind, int line) {
  Instr i;
  i.line = line;
  i.d = dest;
  i.a = value;
  i.kind = kind;
  if (value >> kSpaceShift == static_cast<Reg>(Space::Constant)) {
    i.code = Code::Move;
    i.a = constant(castTo(kind, code_.constants[value & kIndexMask]));
  } else {
    i.code = kind == Base::Double ? Code::Move : Code::Convert;
  }
  if (i.code == Code::Move && i.a == dest) return;
  emit(i);
}

void Lowering::fallback(const Stmt& s) {
  Instr i;
  i.code = Code::Statement;
  i.node = &s;
  i.line = s.line();
  const int b = breakLabel(), c = continueLabel();
  i.target = b < 0 ? kNoReg : static_cast<std::uint32_t>(b);
  i.b = c < 0 ? kNoReg : static_cast<std::uint32_t>(c);
  emit(i);
}

void Lowering::enterBreakable(int breakLabel, int continueLabel) { breakables_.push_back({breakLabel, continueLabel}); }
void Lowering::leaveBreakable() { breakables_.pop_back(); }
int Lowering::breakLabel() const { return breakables_.empty() ? -1 : breakables_.back().breakLabel; }
int Lowering::continueLabel() const {
  for (auto it = breakables_.rbegin(); it != breakables_.rend(); ++it) {
    if (it->continueLabel >= 0) return it->continueLabel;
  }
  return -1;
}

static_assert(static_cast<int>(Code::JumpNotGeK) - static_cast<int>(Code::JumpEqK) ==
                  static_cast<int>(Code::JumpNotGe) - static_cast<int>(Code::JumpEq),
              "the K jumps follow the order of JumpEq .. JumpNotGe");

// A constant operand carried in the instruction (MoveK, the K jumps): one load fewer.
void withConstant(Instr& i, const std::vector<double>& constants) {
  auto isConstant = [](Reg r) { return r != kNoReg && r >> kSpaceShift == static_cast<Reg>(Space::Constant); };
  if (i.code == Code::Move && isConstant(i.a)) {
    i.code = Code::MoveK;
    i.k = constants[i.a & kIndexMask];
  } else if (i.code >= Code::JumpEq && i.code <= Code::JumpNotGe && isConstant(i.b)) {
    i.code = static_cast<Code>(static_cast<int>(i.code) - static_cast<int>(Code::JumpEq) + static_cast<int>(Code::JumpEqK));
    i.k = constants[i.b & kIndexMask];
  }
}

void Lowering::withConstant(Instr& i) const { pesim::java::withConstant(i, code_.constants); }

void Lowering::tableAssigned(Reg variable, const Expr& literal) { tables_.push_back({variable, &literal}); }
void Lowering::tableRead(Reg variable) { tableReads_.push_back(variable); }

// (DivKept lies between Jump and the conditional jumps in the codes' order, and is no jump.)
bool isJump(Code c) {
  return c == Code::Jump || (c >= Code::JumpZero && c <= Code::JumpNotGeK) || c == Code::ForEachNext;
}
bool isReturn(Code c) { return c == Code::Return || c == Code::ReturnNumber || c == Code::ReturnHeld; }

void compactCode(std::vector<Instr>& code, const std::vector<bool>& keep) {
  std::vector<std::uint32_t> moved(code.size() + 1);
  std::uint32_t kept = 0;
  for (std::size_t at = 0; at < code.size(); ++at) {
    moved[at] = kept;
    if (keep[at]) ++kept;
  }
  moved[code.size()] = kept;
  std::vector<Instr> result;
  result.reserve(kept);
  for (std::size_t at = 0; at < code.size(); ++at) {
    if (!keep[at]) continue;
    Instr i = code[at];
    if (isJump(i.code)) i.target = moved[i.target];
    result.push_back(i);
  }
  code = std::move(result);
}

namespace {

// Jump threading on resolved code: a jump to an unconditional Jump goes to that one's target
// instead, and an unconditional Jump to a return is that return (nested if/else chains end in
// such jumps). Only where control goes changes, not what runs: one dispatch less per hop.
void threadJumps(std::vector<Instr>& code) {
  for (Instr& i : code) {
    if (!isJump(i.code)) continue;
    // At most code.size() hops: a cycle of Jumps (an empty endless loop) keeps its jumps.
    for (std::size_t hops = 0; hops < code.size() && code[i.target].code == Code::Jump; ++hops) {
      if (code[i.target].target == i.target) break;
      i.target = code[i.target].target;
    }
    const Code end = code[i.target].code;
    if (i.code == Code::Jump && isReturn(end)) {
      i = code[i.target];
    }
  }
}

}  // namespace

std::shared_ptr<const Bytecode> Lowering::finish() {
  // A table whose variable the code mentions only to assign it once and to read its elements:
  // nothing can write its rows (the compiler counts each mention it makes in arrayMentions; a
  // read the bytecode runs through its node is not seen here and keeps the table compared).
  for (const Table& t : tables_) {
    if (!tableLiteral(*t.literal)) continue;
    const std::size_t slot = t.variable & kIndexMask;
    std::size_t assigned = 0, reads = 0;
    for (const Table& u : tables_) assigned += u.variable == t.variable ? 1 : 0;
    for (Reg r : tableReads_) reads += r == t.variable ? 1 : 0;
    const int mentions = slot < method_.arrayMentions.size() ? method_.arrayMentions[slot] : 0;
    if (assigned == 1 && static_cast<int>(reads + 1) == mentions) markTableUnwritten(*t.literal);
  }
  Instr end;
  end.code = Code::Return;
  emit(end);
  auto resolve = [&](std::uint32_t label) { return static_cast<std::uint32_t>(labels_[label]); };
  for (Instr& i : code_.code) {
    withConstant(i);
    if (i.code == Code::Statement) {
      if (i.target != kNoReg) i.target = resolve(i.target);
      if (i.b != kNoReg) i.b = resolve(i.b);
    } else if (isJump(i.code)) {
      i.target = resolve(i.target);
    }
  }
  code_.locals = static_cast<std::uint32_t>(method_.numberSlots);
  optimizeResolved(code_, code_.locals + maxTemps_);
  return std::make_shared<const Bytecode>(std::move(code_));
}

void optimizeResolved(Bytecode& code, std::uint32_t slots) {
  optimize(code, slots, code.locals);
  for (Instr& i : code.code) withConstant(i, code.constants);
  threadJumps(code.code);
}

// ---------------------------------------------------------------- default lowerings

Reg Expr::lowerNumber(Lowering& lw, Reg want) const {
  Instr i;
  i.code = Code::Node;
  i.d = want != kNoReg ? want : lw.temp();
  i.node = this;
  i.line = line();
  lw.emit(i);
  return i.d;
}

void Expr::lowerBranch(Lowering& lw, bool when, int label) const {
  const Reg r = lw.number(*this);
  lw.jump(when ? Code::JumpNonZero : Code::JumpZero, label, r);
}

void Expr::lowerEffect(Lowering& lw) const {
  if (!type().isReference() && !type().isString()) {
    lw.number(*this);
    return;
  }
  Instr i;
  i.code = Code::Effect;
  i.node = this;
  i.line = line();
  lw.emit(i);
}

std::uint32_t NumberTarget::lowerAddress(Lowering&) const { throw NotLowered{}; }
// An array variable (local or field): its reference loaded into a pointer register.
std::uint32_t ArrayTarget::lowerPointer(Lowering& lw) const {
  const Reg variable = lowerArrayVariable();
  if (variable == kNoReg) throw NotLowered{};
  Instr i;
  i.code = Code::ArrayPointer;
  i.line = line();
  i.d = lw.pointer();
  i.a = variable;
  lw.emit(i);
  return i.d;
}

void Stmt::lower(Lowering& lw) const { lw.fallback(*this); }

void lowerMethod(Method& method) {
  if (method.code) return;
  Lowering lw(method);
  for (const auto& s : method.body) lw.statement(*s);
  method.code = lw.finish();
  method.numberSlots += lw.temporaries();
  method.arraySlots += lw.arrayTemporaries();
}

}  // namespace pesim::java

namespace pesim::java {

namespace {

const char* codeName(Code c) {
  static const char* const kNames[] = {
#define PESIM_JAVA_CODE_NAME(name) #name,
#define PESIM_JAVA_JUMP_NAME(name, condition) #name,
      PESIM_JAVA_CODES(PESIM_JAVA_CODE_NAME, PESIM_JAVA_JUMP_NAME)
#undef PESIM_JAVA_CODE_NAME
#undef PESIM_JAVA_JUMP_NAME
  };
  return kNames[static_cast<std::size_t>(c)];
}

std::string regText(Reg r) {
  if (r == kNoReg) return "-";
  // Direct code: a number slot below directBase (a negative offset; no space has these top bits).
  if (r >> kSpaceShift == 3) return "@" + std::to_string(static_cast<std::int32_t>(r));
  static const char* const kSpaces[] = {"f", "g", "c", "?"};
  return std::string(kSpaces[r >> kSpaceShift]) + std::to_string(r & kIndexMask);
}

}  // namespace

std::string listing(const Bytecode& code) {
  std::string out = code.directBase != nullptr ? "(number operands: byte offsets from directBase)\n" : "";
  for (std::size_t n = 0; n < code.code.size(); ++n) {
    const Instr& i = code.code[n];
    out += std::to_string(n) + ": " + codeName(i.code) + " d=" + regText(i.d) + " a=" + regText(i.a) + " b=" + regText(i.b);
    if (isJump(i.code)) out += " -> " + std::to_string(i.target);
    if (i.code == Code::Copies) out += " copies " + std::to_string(i.target) + " -> " + std::to_string(i.b);
    if (i.code == Code::Node || i.code == Code::Effect) out += std::string(" ") + typeid(*static_cast<const Expr*>(i.node)).name();
    if (i.code == Code::Statement) out += std::string(" ") + typeid(*static_cast<const Stmt*>(i.node)).name();
    out += "\n";
  }
  return out;
}

std::size_t fallbacks(const Bytecode& code) {
  std::size_t n = 0;
  for (const Instr& i : code.code) n += i.code == Code::Node || i.code == Code::Effect || i.code == Code::Statement ? 1 : 0;
  return n;
}

}  // namespace pesim::java
