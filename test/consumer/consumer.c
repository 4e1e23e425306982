/*===- consumer.c - the approx C API from an out-of-tree C program --------===*\
|* Loads the approx dialect through its handle, parses approx ops, runs       *|
|* approx-warp-split through mlirParsePassPipeline and prints the result.     *|
\*===----------------------------------------------------------------------===*/

#include "approx-c/Approx.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdio.h>

static void print(MlirStringRef s, void *unused) {
  (void)unused;
  fwrite(s.data, 1, s.length, stdout);
}

static const char *kModule =
    "module {\n"
    "  gpu.module @m {\n"
    "    approx.knob @lambda range(0, 64) default(0)\n"
    "    gpu.func @k(%x: f32) kernel {\n"
    "      %y = approx.exp %x knob(@lambda) : f32\n"
    "      gpu.return\n"
    "    }\n"
    "  }\n"
    "}\n";

int main(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirApproxRegisterCompilerDependencies(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirApproxRegisterPassesAndPipelines();

  MlirDialect approx =
      mlirDialectHandleLoadDialect(mlirGetDialectHandle__approx__(), ctx);
  MlirStringRef ns = mlirDialectGetNamespace(approx);
  printf("dialect: %.*s\n", (int)ns.length, ns.data);

  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "consumer-c: cannot parse the module\n");
    return 1;
  }
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm,
      mlirStringRefCreateFromCString(
          "builtin.module(gpu.module(approx-warp-split{slot=software}))"),
      print, NULL);
  if (mlirLogicalResultIsFailure(parsed) ||
      mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
    fprintf(stderr, "consumer-c: pipeline failed\n");
    return 1;
  }
  mlirOperationPrint(mlirModuleGetOperation(module), print, NULL);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
