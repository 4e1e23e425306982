//===- FunctionTable.h - the functions the SFU family knows ------*- C++ -*-===//
//
// One table row per math function the compiler recognises: its approx op (if
// it has an SFU form at all), the math op it comes from, which element types
// the SFU serves natively or through f32, which per-op options apply, and the
// reason it stays precise where it does. approx-from-math, the op verifiers,
// approx-warp-split and the NVVM lowering all read this table, so adding a
// function is one row here, one ODS line in SfuOps.td and its PTX sequence in
// passes/sfu/SfuToNVVM.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef APPROX_DIALECT_FUNCTIONTABLE_H
#define APPROX_DIALECT_FUNCTIONTABLE_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::approx {

/// Every function of the table, in table order.
enum class Function : unsigned {
  Sin,
  Cos,
  Tan,
  Exp,
  Exp2,
  Log,
  Log2,
  Log10,
  Pow,
  Div,
  Rcp,
  Sqrt,
  Rsqrt,
  Tanh,
  // Recognised, no SFU form: listed as precise sites with their reason.
  Expm1,
  Log1p,
  Atan,
  Atan2,
  Asin,
  Acos,
  Sinh,
  Cosh,
  Asinh,
  Acosh,
  Atanh,
  Erf,
  Erfc,
  Cbrt,
};

/// How the SFU serves one element type of a function.
enum class SfuSupport : unsigned {
  None,   ///< no SFU form: the function stays precise on this type.
  Native, ///< a PTX `.approx` sequence of this very type.
  ViaF32, ///< converted to f32, the f32 SFU form, converted back (f16/bf16
          ///< always; f64 only with `demote`).
};

/// One row of the table.
struct FunctionInfo {
  Function function;
  llvm::StringLiteral name;   ///< "exp": the op mnemonic and `functions=` name.
  llvm::StringLiteral mathOp; ///< "math.exp"; "" for div/rcp (arith.divf).
  unsigned arity;
  bool hasOp; ///< an approx op exists (the function has some SFU form).
  SfuSupport f32, f64, f16, bf16;
  /// Lowest sm_XY whose PTX has the native f32 / f16 / bf16 form (0: any).
  unsigned minSmF32, minSmF16, minSmBF16;
  bool rangeReduction; ///< `range_reduction` applies (sin/cos/tan).
  bool newtonSteps;    ///< `newton_steps` applies (native f64 SFU estimates).
  /// The f32 SFU form's PTX, as the manifest shows it.
  llvm::StringLiteral sfuPtx;
  /// Why there is no SFU form (functions without an op).
  llvm::StringLiteral noSfuReason;
};

/// The whole table, in Function order.
llvm::ArrayRef<FunctionInfo> getFunctionTable();
/// The row of `fn`.
const FunctionInfo &getFunctionInfo(Function fn);
/// The row named `name` ("exp"), or null.
const FunctionInfo *lookupFunction(llvm::StringRef name);
/// The row whose math op is `opName` ("math.exp"), or null.
const FunctionInfo *lookupMathOp(llvm::StringRef opName);

/// The options that decide an op's form, as the verifier and the passes see
/// them.
struct FormQuery {
  bool demote = false;
  /// Target chip as a number (90 for sm_90); 0: unknown, assume the newest.
  unsigned sm = 0;
};

/// What the SFU side of `fn` on element type `elem` (f16/bf16/f32/f64) is
/// under `query`: Native, ViaF32, or None with `reason` set to a one-line
/// explanation ("f64 sin has no SFU form; pass f64-demote for the f32-demoted
/// form", "tanh.approx.f32 needs sm_75, the target is sm_70").
SfuSupport sfuSupport(const FunctionInfo &fn, Type elem, const FormQuery &query,
                      std::string *reason = nullptr);

/// Whether `fn` on element type `elem` has a correctly rounded form,
/// `form(correct)` (f32 exp, exp2, log and log2: passes/correct/); if not,
/// `reason` says so in one line.
bool hasCorrectForm(Function fn, Type elem, std::string *reason = nullptr);

/// Parses "sm_90" / "sm_90a" into 90; std::nullopt if it is not of that form.
std::optional<unsigned> parseSmVersion(llvm::StringRef chip);

} // namespace mlir::approx

#endif // APPROX_DIALECT_FUNCTIONTABLE_H
