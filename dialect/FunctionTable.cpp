//===- FunctionTable.cpp - the functions the SFU family knows -------------===//
//
// The table of FunctionTable.h and the one query everything asks of it:
// how the SFU serves a function on an element type for a target.
//
//===----------------------------------------------------------------------===//

#include "approx/Dialect/FunctionTable.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::approx;

namespace {
constexpr SfuSupport N = SfuSupport::None;
constexpr SfuSupport S = SfuSupport::Native;
constexpr SfuSupport F = SfuSupport::ViaF32;
constexpr llvm::StringLiteral kNoPtxInstruction =
    "no SFU form: PTX has no approximate instruction for it";
} // namespace

// clang-format off
static const FunctionInfo kTable[] = {
  // function          name     math op       ar op    f32 f64 f16 bf16 sm32 sm16 smbf rr     newton PTX of the f32 SFU form / reason
  {Function::Sin,   "sin",   "math.sin",   1, true,  S, F, F, F, 0,  0,  0,  true,  false, "sin.approx.ftz.f32", ""},
  {Function::Cos,   "cos",   "math.cos",   1, true,  S, F, F, F, 0,  0,  0,  true,  false, "cos.approx.ftz.f32", ""},
  {Function::Tan,   "tan",   "math.tan",   1, true,  S, F, F, F, 0,  0,  0,  true,  false, "sin.approx.ftz.f32, cos.approx.ftz.f32, div.approx.ftz.f32", ""},
  {Function::Exp,   "exp",   "math.exp",   1, true,  S, F, F, F, 0,  0,  0,  false, false, "mul.f32 by log2(e), ex2.approx.ftz.f32", ""},
  {Function::Exp2,  "exp2",  "math.exp2",  1, true,  S, F, S, S, 0,  75, 90, false, false, "ex2.approx.ftz.f32", ""},
  {Function::Log,   "log",   "math.log",   1, true,  S, F, F, F, 0,  0,  0,  false, false, "lg2.approx.ftz.f32, mul.f32 by ln(2)", ""},
  {Function::Log2,  "log2",  "math.log2",  1, true,  S, F, F, F, 0,  0,  0,  false, false, "lg2.approx.ftz.f32", ""},
  {Function::Log10, "log10", "math.log10", 1, true,  S, F, F, F, 0,  0,  0,  false, false, "lg2.approx.ftz.f32, mul.f32 by log10(2)", ""},
  {Function::Pow,   "pow",   "math.powf",  2, true,  S, F, F, F, 0,  0,  0,  false, false, "lg2.approx.ftz.f32 of |x|, mul.f32, ex2.approx.ftz.f32, powf's sign and special cases", ""},
  {Function::Div,   "div",   "",           2, true,  S, S, F, F, 0,  0,  0,  false, true,  "div.approx.ftz.f32", ""},
  {Function::Rcp,   "rcp",   "",           1, true,  S, S, F, F, 0,  0,  0,  false, true,  "rcp.approx.ftz.f32", ""},
  {Function::Sqrt,  "sqrt",  "math.sqrt",  1, true,  S, S, F, F, 0,  0,  0,  false, true,  "sqrt.approx.ftz.f32", ""},
  {Function::Rsqrt, "rsqrt", "math.rsqrt", 1, true,  S, S, F, F, 0,  0,  0,  false, true,  "rsqrt.approx.ftz.f32", ""},
  {Function::Tanh,  "tanh",  "math.tanh",  1, true,  S, F, S, S, 75, 75, 90, false, false, "tanh.approx.f32", ""},
  {Function::Expm1, "expm1", "math.expm1", 1, false, N, N, N, N, 0,  0,  0,  false, false, "", "no SFU form: ex2.approx(x) - 1 cancels near 0 and loses all relative accuracy there"},
  {Function::Log1p, "log1p", "math.log1p", 1, false, N, N, N, N, 0,  0,  0,  false, false, "", "no SFU form: lg2.approx(1 + x) loses all relative accuracy near 0"},
  {Function::Atan,  "atan",  "math.atan",  1, false, N, N, N, N, 0,  0,  0,  false, false, "", kNoPtxInstruction},
  {Function::Atan2, "atan2", "math.atan2", 2, false, N, N, N, N, 0,  0,  0,  false, false, "", kNoPtxInstruction},
  {Function::Asin,  "asin",  "math.asin",  1, false, N, N, N, N, 0,  0,  0,  false, false, "", kNoPtxInstruction},
  {Function::Acos,  "acos",  "math.acos",  1, false, N, N, N, N, 0,  0,  0,  false, false, "", kNoPtxInstruction},
  {Function::Sinh,  "sinh",  "math.sinh",  1, false, N, N, N, N, 0,  0,  0,  false, false, "", kNoPtxInstruction},
  {Function::Cosh,  "cosh",  "math.cosh",  1, false, N, N, N, N, 0,  0,  0,  false, false, "", kNoPtxInstruction},
  {Function::Asinh, "asinh", "math.asinh", 1, false, N, N, N, N, 0,  0,  0,  false, false, "", kNoPtxInstruction},
  {Function::Acosh, "acosh", "math.acosh", 1, false, N, N, N, N, 0,  0,  0,  false, false, "", kNoPtxInstruction},
  {Function::Atanh, "atanh", "math.atanh", 1, false, N, N, N, N, 0,  0,  0,  false, false, "", kNoPtxInstruction},
  {Function::Erf,   "erf",   "math.erf",   1, false, N, N, N, N, 0,  0,  0,  false, false, "", kNoPtxInstruction},
  {Function::Erfc,  "erfc",  "math.erfc",  1, false, N, N, N, N, 0,  0,  0,  false, false, "", kNoPtxInstruction},
  {Function::Cbrt,  "cbrt",  "math.cbrt",  1, false, N, N, N, N, 0,  0,  0,  false, false, "", kNoPtxInstruction},
};
// clang-format on

llvm::ArrayRef<FunctionInfo> mlir::approx::getFunctionTable() {
  return kTable;
}

const FunctionInfo &mlir::approx::getFunctionInfo(Function fn) {
  const FunctionInfo &row = kTable[static_cast<unsigned>(fn)];
  assert(row.function == fn && "function table out of order");
  return row;
}

const FunctionInfo *mlir::approx::lookupFunction(llvm::StringRef name) {
  for (const FunctionInfo &row : kTable)
    if (row.name == name)
      return &row;
  return nullptr;
}

const FunctionInfo *mlir::approx::lookupMathOp(llvm::StringRef opName) {
  if (opName.empty())
    return nullptr;
  for (const FunctionInfo &row : kTable)
    if (row.mathOp == opName)
      return &row;
  return nullptr;
}

std::optional<unsigned> mlir::approx::parseSmVersion(llvm::StringRef chip) {
  if (!chip.consume_front("sm_"))
    return std::nullopt;
  // sm_90a / sm_100f: architecture-specific suffixes keep the number.
  llvm::StringRef digits = chip.take_while(llvm::isDigit);
  llvm::StringRef suffix = chip.drop_front(digits.size());
  if (suffix.size() > 1 || (suffix.size() == 1 && !llvm::isAlpha(suffix[0])))
    return std::nullopt;
  unsigned sm = 0;
  if (digits.empty() || digits.getAsInteger(10, sm))
    return std::nullopt;
  return sm;
}

bool mlir::approx::hasCorrectForm(Function fn, Type elem,
                                  std::string *reason) {
  bool covered = fn == Function::Exp || fn == Function::Exp2 ||
                 fn == Function::Log || fn == Function::Log2;
  if (covered && elem.isF32())
    return true;
  if (reason) {
    std::string type;
    llvm::raw_string_ostream os(type);
    elem.print(os);
    *reason = "no correctly rounded form for " + type + " " +
              getFunctionInfo(fn).name.str() +
              ": form(correct) covers f32 exp, exp2, log and log2";
  }
  return false;
}

/// "sm_75" for a table threshold.
static std::string smName(unsigned sm) { return "sm_" + std::to_string(sm); }

SfuSupport mlir::approx::sfuSupport(const FunctionInfo &fn, Type elem,
                                    const FormQuery &query,
                                    std::string *reason) {
  auto say = [&](const std::string &why) {
    if (reason)
      *reason = why;
  };
  if (reason)
    reason->clear();
  if (!fn.hasOp) {
    say(fn.noSfuReason.str());
    return SfuSupport::None;
  }
  auto tooOld = [&](unsigned minSm) {
    return minSm != 0 && query.sm != 0 && query.sm < minSm;
  };
  std::string f32Missing;
  if (tooOld(fn.minSmF32))
    f32Missing = fn.sfuPtx.str() + " needs " + smName(fn.minSmF32) +
                 ", the target is " + smName(query.sm);
  std::string name = fn.name.str();

  if (elem.isF32()) {
    if (!f32Missing.empty()) {
      say(f32Missing);
      return SfuSupport::None;
    }
    return SfuSupport::Native;
  }
  if (elem.isF64()) {
    if (fn.f64 == SfuSupport::Native)
      return SfuSupport::Native;
    if (!query.demote) {
      say("f64 " + name + " has no SFU form; pass f64-demote for the " +
          "f32-demoted form");
      return SfuSupport::None;
    }
    if (!f32Missing.empty()) {
      say(f32Missing);
      return SfuSupport::None;
    }
    say("f64 " + name + " demoted: computed in f32");
    return SfuSupport::ViaF32;
  }
  bool isF16 = elem.isF16(), isBF16 = elem.isBF16();
  if (!isF16 && !isBF16) {
    say("no SFU form for " + name + " on this type");
    return SfuSupport::None;
  }
  SfuSupport half = isF16 ? fn.f16 : fn.bf16;
  unsigned minSm = isF16 ? fn.minSmF16 : fn.minSmBF16;
  const char *typeName = isF16 ? "f16" : "bf16";
  if (half == SfuSupport::Native && !tooOld(minSm))
    return SfuSupport::Native;
  if (!f32Missing.empty()) {
    say(f32Missing);
    return SfuSupport::None;
  }
  if (half == SfuSupport::Native)
    say(std::string("the native ") + typeName + " form needs " +
        smName(minSm) + ", the target is " + smName(query.sm) +
        ": computed in f32");
  else
    say(std::string("no ") + typeName + " SFU form: computed in f32");
  return SfuSupport::ViaF32;
}
