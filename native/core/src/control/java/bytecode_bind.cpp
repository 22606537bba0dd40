// Code bound to the frame it runs in (see bytecode.hpp, bindFixedArrays): direct element access
// for arrays that keep their object, number operands as offsets from one base, divisions that
// keep their last result, fields that the code never writes as constants.
// A Java block's xIN and its array fields (yOUT) are the same objects at every step unless the
// code assigns the variable: reading xIN[0] then needs neither the variable's array, nor the
// null check, nor the bounds check, which the generic instructions repeat at every access. An
// access that would fail (a null array, an index out of bounds) keeps its generic instruction, so
// it fails as before. The passes that then join instructions of the bound code are in
// bytecode_join.cpp.
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

// Whether instruction `i` names the array variable `v`, reading or assigning it (as bytecode_run.cpp
// reads its operands).
bool namesArray(const Instr& i, Reg v) {
  switch (i.code) {
    case Code::LoadElementK: case Code::LoadElement: case Code::StoreElementK: case Code::ElementAddressK:
    case Code::ArrayPointer: case Code::RowOf: case Code::LoadRowK: case Code::ForEachNext: case Code::ReturnHeld:
      return i.a == v;
    case Code::AssignArray: case Code::ReleaseArray: return i.d == v;
    case Code::HoldArray: return i.d == v || (i.node == nullptr && i.a == v);
    default: return false;
  }
}

// True when the code names xIN (frame array slot 0) only to read elements at constant indices below
// `inputs`: those reads may then take their values from wherever the inputs are.
bool readsInputsAtConstants(const Bytecode& code, std::size_t inputs) {
  const Reg xIn = makeReg(Space::Frame, 0);
  for (const Instr& i : code.code) {
    if (namesArray(i, xIn) && !(i.code == Code::LoadElementK && i.target < inputs)) return false;
  }
  return true;
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

// In direct code that reads its inputs in place (Bytecode::inputsInPlace): a frame slot that the
// code's straight start sets from an input (`double ref = xIN[0];`), or from such a slot (`double
// carr1 = ref;`), which no other instruction writes and none reads before, holds that input all
// through the call (the code never writes its inputs, and the next call sets the slot again before
// reading it): its reads read the input where it is, and the copy goes.
void readInputsWhereTheyAre(Bytecode& code, const FixedArrays& fixed) {
  if (!code.inputsInPlace || code.directBase == nullptr || code.directBase != fixed.frameNumbers) return;
  const auto base = reinterpret_cast<std::intptr_t>(code.directBase);
  const std::int64_t frameEnd = 8 * static_cast<std::int64_t>(fixed.frameSlots);
  auto frameSlot = [&](Reg r) {
    const auto offset = static_cast<std::int32_t>(r);
    return offset >= 0 && offset < frameEnd;
  };
  std::vector<Reg> written;  // every slot each write names, once per write
  for (const Instr& i : code.code) {
    NumberOperands o;
    if (!numberOperands(i, o)) return;
    if (o.d) written.push_back(i.d);
    if (i.code == Code::Increment) written.push_back(i.a);
    if (i.code == Code::ForEachNext) written.push_back(i.b);
  }
  auto writes = [&](Reg r) {
    std::size_t n = 0;
    for (Reg w : written) n += w == r ? 1 : 0;
    return n;
  };
  std::vector<bool> target(code.code.size() + 1, false);
  for (const Instr& i : code.code) {
    if (isJump(i.code)) target[i.target] = true;
  }
  struct Replaced {
    Reg slot, input;  // the input as an operand: its offset from directBase
  };
  std::vector<Replaced> replaced;
  auto replacement = [&](Reg r) -> const Reg* {
    for (const Replaced& x : replaced) {
      if (x.slot == r) return &x.input;
    }
    return nullptr;
  };
  std::vector<Reg> read;  // the slots the start reads before the instruction at hand
  std::vector<bool> keep(code.code.size(), true);
  for (std::size_t at = 0; at < code.code.size(); ++at) {
    const Instr& i = code.code[at];
    if (target[at] || isJump(i.code) || isReturn(i.code)) break;
    NumberOperands o;
    numberOperands(i, o);
    if (o.a) read.push_back(i.a);
    if (o.b) read.push_back(i.b);
    if (!o.d || !frameSlot(i.d) || writes(i.d) != 1) continue;
    bool readBefore = false;
    for (Reg r : read) readBefore = readBefore || r == i.d;
    if (readBefore) continue;
    Reg input = kNoReg;
    if (i.code == Code::LoadFixed) {
      for (const double* source : fixed.inputs) {
        if (source != i.node) continue;
        const std::intptr_t offset = reinterpret_cast<std::intptr_t>(source) - base;
        if (offset >= INT32_MIN && offset <= INT32_MAX) input = static_cast<Reg>(static_cast<std::int32_t>(offset));
      }
    } else if (i.code == Code::Move) {
      if (const Reg* from = replacement(i.a)) input = *from;
    }
    if (input == kNoReg) continue;
    replaced.push_back({i.d, input});
    keep[at] = false;
  }
  if (replaced.empty()) return;
  for (Instr& i : code.code) {
    NumberOperands o;
    numberOperands(i, o);
    if (o.a && i.code != Code::Increment) {
      if (const Reg* input = replacement(i.a)) i.a = *input;
    }
    if (o.b && i.code != Code::ForEachNext) {
      if (const Reg* input = replacement(i.b)) i.b = *input;
    }
  }
  compactCode(code.code, keep);
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
  // xIN's reads at the inputs' own addresses (a block's signals): no copy into xIN before a call.
  bound->inputsInPlace = !fixed.inputs.empty() && readsInputsAtConstants(*bound, fixed.inputs.size());
  for (Instr& i : bound->code) {
    if (bound->inputsInPlace && i.code == Code::LoadElementK && i.a == makeReg(Space::Frame, 0)) {
      i.code = Code::LoadFixed;
      i.node = fixed.inputs[i.target];
      any = true;
      continue;
    }
    if (i.code == Code::Div) {
      i.code = Code::DivKept;
      i.node = kept;
      kept += 3;
      any = true;
      continue;
    }
    if (i.code == Code::ReturnHeld && fixed.result != kNoReg && i.a == fixed.result) {
      i.code = Code::Return;  // the caller reads the variable's array itself
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
  readInputsWhereTheyAre(*bound, fixed);
  joinCopies(*bound);
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
