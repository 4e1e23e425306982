//===- Registration.cpp - register approx and what its pipeline needs -----===//
//
// Implements InitApprox.h: a frontend (or approx-opt) calls these to get the
// approx dialect, the GPU -> NVVM -> PTX path it relies on, and the passes.
//
//===----------------------------------------------------------------------===//

#include "approx/InitApprox.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ComplexToLLVM/ComplexToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void approx::registerApproxDialect(DialectRegistry &registry) {
  registry.insert<approx::ApproxDialect>();
}

void approx::registerApproxCompilerDependencies(DialectRegistry &registry) {
  // The dialects GPU kernels (and the host code around them, which the
  // pipeline leaves alone) are written in, as mlir-opt parses them.
  registry.insert<approx::ApproxDialect, affine::AffineDialect,
                  async::AsyncDialect,
                  arith::ArithDialect, cf::ControlFlowDialect,
                  complex::ComplexDialect, DLTIDialect, func::FuncDialect,
                  gpu::GPUDialect,
                  index::IndexDialect, LLVM::LLVMDialect, math::MathDialect,
                  memref::MemRefDialect, nvgpu::NVGPUDialect,
                  NVVM::NVVMDialect, scf::SCFDialect, ub::UBDialect,
                  vector::VectorDialect>();
  // Inlining func.call into gpu.func, and the ConvertToLLVM interfaces that
  // convert-gpu-to-nvvm uses for the dialects it meets.
  func::registerInlinerExtension(registry);
  arith::registerConvertArithToLLVMInterface(registry);
  registerConvertComplexToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  // gpu-module-to-binary: the NVVM target and LLVM IR translations.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

void approx::registerApproxPassesAndPipelines() {
  registerApproxPasses();
  registerApproxToPTXPipeline();
  // Upstream passes approx-to-ptx is made of, for hand-written pipelines.
  registerTransformsPasses();
  registerGpuKernelOutliningPass();
  registerConvertNVGPUToNVVMPass();
  registerConvertVectorToSCFPass();
  registerConvertNVVMToLLVMPass();
  LLVM::registerNVVMOptimizeForTargetPass();
  registerSCFToControlFlowPass();
  registerConvertGpuOpsToNVVMOps();
  registerReconcileUnrealizedCastsPass();
  registerLowerAffinePass();
  memref::registerExpandStridedMetadataPass();
  registerGpuNVVMAttachTarget();
  registerGpuModuleToBinaryPass();
}
