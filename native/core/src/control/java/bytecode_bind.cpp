// Code bound to the frame it runs in (see bytecode.hpp, bindFixedArrays): direct element access
// for arrays that keep their object, number operands as offsets from one base, divisions that
// keep their last result, fields that the code never writes as constants.
// A Java block's xIN and its array fields (yOUT) are the same objects at every step unless the
// code assigns the variable: reading xIN[0] then needs neither the variable's array, nor the
// null check, nor the bounds check, which the generic instructions repeat at every access. An
// access that would fail (a null array, an index out of bounds) keeps its generic instruction, so
// it fails as before.
#include <cstdint>

#include "control/java/bytecode.hpp"

namespace pesim::java {

namespace {

// Codes that run a node, which may run any of the code's methods and so assign any variable. An
// AssignArray of a constant array literal (flag: a table written into the code) runs none.
bool runsNodes(const Instr& i) {
  return i.code == Code::Node || i.code == Code::Effect || i.code == Code::Statement ||
         (i.code == Code::AssignArray && !i.flag) || (i.code == Code::HoldArray && i.node != nullptr);
}

bool assignsArray(const Instr& i) {
  return i.code == Code::HoldArray || i.code == Code::ReleaseArray || i.code == Code::AssignArray;
}

// Which of an instruction's operands are number slots (the others are array slots, pointer
// registers, instruction indices or unused), as bytecode_run.cpp reads them; false for a code that
// bound code does not hold (it runs nodes).
struct NumberOperands {
  bool d = false, a = false, b = false;
};
bool numberOperands(const Instr& i, NumberOperands& o) {
  switch (i.code) {
    case Code::MoveK: case Code::Time: case Code::Step: case Code::LoadElementK: case Code::LoadPointer:
    case Code::Length: case Code::LoadFixed:
      o.d = true;
      return true;
    case Code::Move: case Code::Convert: case Code::Truth: case Code::Unary: case Code::Cast:
      o.d = o.a = true;
      return true;
    case Code::Add: case Code::Sub: case Code::Mul: case Code::Div: case Code::DivKept: case Code::AddInt:
    case Code::SubInt: case Code::MulInt: case Code::DivInt: case Code::RemInt: case Code::Arith: case Code::Compare:
    case Code::LoadElement: case Code::LoadAt: case Code::ForEachNext: case Code::LoadRowK:
      o.d = true;
      o.a = i.code != Code::LoadElement && i.code != Code::LoadAt && i.code != Code::ForEachNext && i.code != Code::LoadRowK;
      o.b = true;
      return true;
    case Code::Native:
      o.d = true;
      o.a = i.a != kNoReg;
      o.b = i.b != kNoReg;
      return true;
    case Code::Increment:
      o.a = true;
      o.d = i.d != kNoReg;
      return true;
    case Code::IncrementAt:
      o.d = i.d != kNoReg;
      return true;
    case Code::StoreElementK: case Code::RowOf: case Code::Row: case Code::ElementAddress: case Code::StoreFixed:
      o.b = true;
      return true;
    case Code::StorePointer: case Code::ReturnNumber:
      o.a = true;
      return true;
    case Code::Jump: case Code::ElementAddressK: case Code::ArrayPointer: case Code::CheckNull: case Code::HoldArray:
    case Code::ReleaseArray: case Code::Spend: case Code::Count: case Code::FixedAddress: case Code::Return:
    case Code::ReturnHeld: case Code::AssignArray:
      return true;
    default:
      if (i.code >= Code::JumpZero && i.code <= Code::JumpNotGeK) {
        o.a = true;
        o.b = i.code >= Code::JumpEq && i.code <= Code::JumpNotGe;
        return true;
      }
      return false;
  }
}

// Rewrites the number operands of `code` as byte offsets from the first of its spaces' numbers
// (Bytecode::directBase); leaves the code as it is when an offset does not fit the operand.
void addressDirectly(Bytecode& code, const FixedArrays& fixed) {
  const double* spaces[3] = {fixed.frameNumbers, fixed.fieldNumbers, code.constants.data()};
  const double* first = spaces[0] != nullptr ? spaces[0] : spaces[1] != nullptr ? spaces[1] : spaces[2];
  if (first == nullptr) return;
  const auto base = reinterpret_cast<std::intptr_t>(first);
  std::vector<Instr> direct = code.code;
  auto rewrite = [&](Reg& r) {
    const double* space = spaces[r >> kSpaceShift];
    if (space == nullptr) return false;
    const double* slot = space + (r & kIndexMask);
    const std::intptr_t offset = reinterpret_cast<std::intptr_t>(slot) - base;
    if (offset < INT32_MIN || offset > INT32_MAX) return false;
    r = static_cast<Reg>(static_cast<std::int32_t>(offset));
    return true;
  };
  for (Instr& i : direct) {
    NumberOperands o;
    if (!numberOperands(i, o)) return;
    if ((o.d && !rewrite(i.d)) || (o.a && !rewrite(i.a)) || (o.b && !rewrite(i.b))) return;
  }
  code.code = std::move(direct);
  code.directBase = first;
}

bool jumps(Code c) { return (c >= Code::Jump && c <= Code::JumpNotGeK) || c == Code::ForEachNext; }
bool ends(Code c) { return c == Code::Return || c == Code::ReturnNumber || c == Code::ReturnHeld; }

// Whether instruction `i` reads, or writes, pointer register p (as bytecode_run.cpp runs it).
bool readsPointer(const Instr& i, Reg p) {
  switch (i.code) {
    case Code::CheckNull: case Code::Row: case Code::LoadAt: case Code::ElementAddress: case Code::LoadPointer:
    case Code::Length: case Code::IncrementAt:
      return i.a == p;
    case Code::StorePointer: return i.d == p;
    default: return false;
  }
}
bool writesPointer(const Instr& i, Reg p) {
  switch (i.code) {
    case Code::ElementAddressK: case Code::ArrayPointer: case Code::RowOf: case Code::Row: case Code::ElementAddress:
    case Code::FixedAddress:
      return i.d == p;
    default: return false;
  }
}

// Drops the instructions not kept; a jump to a dropped one goes to the next one kept.
void compact(std::vector<Instr>& code, const std::vector<bool>& keep) {
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
    if (jumps(i.code)) i.target = moved[i.target];
    result.push_back(i);
  }
  code = std::move(result);
}

// An assignment to a fixed element of a value that is not a plain variable (yOUT[0] = t[s][0])
// takes the element's address before it computes the value (FixedAddress p, ..., StorePointer
// *p = value), as the generic access must check the array first. A fixed element's address cannot
// fail: the store becomes StoreFixed and the FixedAddress goes, when the code between them is
// straight, nothing there uses p and nothing after the store reads it (an assignment whose value
// is used reads it back through p: LoadPointer). Each statement's code sets a pointer before it
// reads it, so p is not read further on.
void storeFixedDirectly(std::vector<Instr>& code) {
  std::vector<bool> target(code.size() + 1, false);
  for (const Instr& i : code) {
    if (jumps(i.code)) target[i.target] = true;
  }
  std::vector<bool> keep(code.size(), true);
  bool any = false;
  for (std::size_t at = 0; at < code.size(); ++at) {
    if (code[at].code != Code::FixedAddress) continue;
    const Reg p = code[at].d;
    std::size_t store = at + 1;
    for (; store < code.size(); ++store) {
      const Instr& i = code[store];
      if (target[store] || jumps(i.code) || ends(i.code) || i.code == Code::Statement) break;
      if ((i.code == Code::StorePointer && i.d == p) || readsPointer(i, p) || writesPointer(i, p)) break;
    }
    if (store >= code.size() || target[store] || code[store].code != Code::StorePointer || code[store].d != p) continue;
    if (store + 1 < code.size() && readsPointer(code[store + 1], p)) continue;
    Instr& i = code[store];
    i.code = Code::StoreFixed;
    i.b = i.a;  // the value
    i.a = code[at].a;
    i.d = kNoReg;
    i.node = code[at].node;
    keep[at] = false;
    any = true;
  }
  if (any) compact(code, keep);
}

// The copy of a number that instruction `i` of direct code makes (its source and destination), if
// it makes nothing else: Move, MoveK (from its own k), LoadFixed, and StoreFixed of a double.
bool copyOf(const Instr& i, char* base, Bytecode::Copy& copy) {
  auto slot = [&](Reg r) { return reinterpret_cast<double*>(base + static_cast<std::int32_t>(r)); };
  switch (i.code) {
    case Code::Move: copy = {slot(i.a), slot(i.d)}; return true;
    case Code::MoveK: copy = {&i.k, slot(i.d)}; return true;
    case Code::LoadFixed: copy = {static_cast<const double*>(i.node), slot(i.d)}; return true;
    case Code::StoreFixed:
      if (i.kind != Base::Double) return false;
      copy = {slot(i.b), static_cast<double*>(const_cast<void*>(i.node))};
      return true;
    default: return false;
  }
}

// Runs of two or more copies in a row become one Copies instruction in place of the first (a block's
// step reads its inputs into locals, sets its outputs' locals in each branch and stores them into
// yOUT: one dispatch a run instead of one a value). A jump that lands inside a run finds there a
// Copies of the rest of the run; the other instructions of the run stay as they were, unused.
void joinCopies(Bytecode& code) {
  char* base = reinterpret_cast<char*>(const_cast<double*>(code.directBase));
  std::vector<bool> target(code.code.size() + 1, false);
  for (const Instr& i : code.code) {
    if (jumps(i.code)) target[i.target] = true;
  }
  // Each Copies to make: its instruction and where its copies start; all copies are listed from the
  // code as it is before any instruction becomes a Copies.
  struct Run {
    std::size_t at, first, count, next;  // next: the instruction to go on with
  };
  std::vector<Run> runs;
  std::vector<Bytecode::Copy> copies;
  for (std::size_t at = 0; at < code.code.size();) {
    std::size_t end = at;
    Bytecode::Copy copy{};
    while (end < code.code.size() && copyOf(code.code[end], base, copy)) ++end;
    // A run that ends in a jump to another run (the branches of an if/else that set the outputs'
    // locals, then the stores into yOUT) takes that run's copies too and goes on after it.
    std::size_t to = end, toEnd = end;
    if (end < code.code.size() && code.code[end].code == Code::Jump) {
      to = toEnd = code.code[end].target;
      while (toEnd < code.code.size() && copyOf(code.code[toEnd], base, copy)) ++toEnd;
    }
    for (std::size_t start = at; start < end; ++start) {
      if (start != at && !target[start]) continue;
      const std::size_t count = (end - start) + (toEnd - to);
      if (count < 2) continue;
      runs.push_back({start, copies.size(), count, toEnd > to ? toEnd : end});
      for (std::size_t n = start; n < end; ++n) copies.push_back((copyOf(code.code[n], base, copy), copy));
      for (std::size_t n = to; n < toEnd; ++n) copies.push_back((copyOf(code.code[n], base, copy), copy));
    }
    at = end == at ? at + 1 : end;
  }
  code.copies = std::move(copies);  // final: the runs point into it
  for (const Run& r : runs) {
    Instr& i = code.code[r.at];
    i.code = Code::Copies;
    i.node = &code.copies[r.first];
    i.target = static_cast<std::uint32_t>(r.count);
    i.b = static_cast<std::uint32_t>(r.next);
  }
}

}  // namespace

std::shared_ptr<const Bytecode> bindFixedArrays(const Bytecode& code, const FixedArrays& fixed) {
  std::vector<Reg> assigned;
  for (const Instr& i : code.code) {
    if (runsNodes(i)) return nullptr;
    if (assignsArray(i)) assigned.push_back(i.d);
  }
  auto fixedArray = [&](Reg variable) -> const Array* {
    for (Reg r : assigned) {
      if (r == variable) return nullptr;
    }
    const auto space = static_cast<Space>(variable >> kSpaceShift);
    const std::size_t slot = variable & kIndexMask;
    const std::vector<const Array*>& arrays = space == Space::Frame ? fixed.frame : fixed.fields;
    if (space == Space::Constant || slot >= arrays.size()) return nullptr;
    const Array* a = arrays[slot];
    return a != nullptr && !a->ofRows && !a->ofTexts ? a : nullptr;
  };
  auto bound = std::make_shared<Bytecode>(code);
  // The fields the code never writes are constants from now on: folded into the code (a block's
  // parameters kept in fields, `static double dT = 1;`).
  bool any = fixUnwrittenFields(*bound, fixed.fieldNumbers);
  if (any) optimizeResolved(*bound, fixed.frameSlots);
  // Divisions keep their last operands and result: 1 / 1 = 1 before the first.
  std::size_t divisions = 0;
  for (const Instr& i : bound->code) divisions += i.code == Code::Div ? 1 : 0;
  bound->kept.assign(3 * divisions, 1.0);
  double* kept = bound->kept.data();
  for (Instr& i : bound->code) {
    if (i.code == Code::Div) {
      i.code = Code::DivKept;
      i.node = kept;
      kept += 3;
      any = true;
      continue;
    }
    Code direct;
    if (i.code == Code::LoadElementK) direct = Code::LoadFixed;
    else if (i.code == Code::StoreElementK) direct = Code::StoreFixed;
    else if (i.code == Code::ElementAddressK) direct = Code::FixedAddress;
    else continue;
    const Array* a = fixedArray(i.a);
    if (a == nullptr || i.target >= a->numbers.size()) continue;
    i.code = direct;
    i.node = &a->numbers[i.target];
    any = true;
  }
  if (!any) return nullptr;
  storeFixedDirectly(bound->code);
  addressDirectly(*bound, fixed);
  if (bound->directBase != nullptr) joinCopies(*bound);
  return bound;
}

bool returnsOnlyField(const Bytecode& code, Reg field) {
  for (const Instr& i : code.code) {
    if (runsNodes(i) || i.code == Code::ReturnNumber) return false;
    if (i.code == Code::ReturnHeld && i.a != field) return false;
    if (assignsArray(i) && i.d == field) return false;
  }
  return true;
}

}  // namespace pesim::java
