//===- ObjectMain.h - An MLIR host program's object run in a test -*- C++ -*-===//
//
// The mgpu example objects (gpu-to-llvm's output) load their module in a
// constructor and unload it in a destructor, of priority 123: those would
// run before the fake driver's statics exist and after they are destroyed.
// The build moves them into sections approx_example_init and
// approx_example_fini (objcopy), whose bounds the linker defines as
// __start_/__stop_ symbols, and renames the object's main to
// approx_example_main; runObjectMain() runs the three in order, once the
// fake is set up.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TEST_RUNTIME_MGPU_OBJECTMAIN_H
#define APPROX_TEST_RUNTIME_MGPU_OBJECTMAIN_H

#include <cstdio>

using InitFn = void (*)();
extern "C" {
extern InitFn __start_approx_example_init[], __stop_approx_example_init[];
extern InitFn __start_approx_example_fini[], __stop_approx_example_fini[];
int approx_example_main();
}

/// The object's constructors, its main (its exit status) and destructors.
inline int runObjectMain() {
  for (InitFn *i = __start_approx_example_init; i != __stop_approx_example_init;
       ++i)
    (*i)();
  int rc = approx_example_main();
  std::fflush(stdout);
  for (InitFn *i = __stop_approx_example_fini;
       i != __start_approx_example_fini;)
    (*--i)();
  return rc;
}

#endif // APPROX_TEST_RUNTIME_MGPU_OBJECTMAIN_H
