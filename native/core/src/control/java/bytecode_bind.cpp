// Code bound to the frame it runs in (see bytecode.hpp, bindFixedArrays): direct element access
// for arrays that keep their object, divisions that keep their last result.
// A Java block's xIN and its array fields (yOUT) are the same objects at every step unless the
// code assigns the variable: reading xIN[0] then needs neither the variable's array, nor the
// null check, nor the bounds check, which the generic instructions repeat at every access. An
// access that would fail (a null array, an index out of bounds) keeps its generic instruction, so
// it fails as before.
#include "control/java/bytecode.hpp"

namespace pesim::java {

namespace {

// Codes that run a node, which may run any of the code's methods and so assign any variable.
bool runsNodes(const Instr& i) {
  return i.code == Code::Node || i.code == Code::Effect || i.code == Code::Statement || i.code == Code::AssignArray ||
         (i.code == Code::HoldArray && i.node != nullptr);
}

bool assignsArray(const Instr& i) { return i.code == Code::HoldArray || i.code == Code::ReleaseArray; }

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
  bool any = false;
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
  return any ? bound : nullptr;
}

}  // namespace pesim::java
