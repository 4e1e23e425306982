//===- LinkCheck.cpp - Each runtime layer links on its own ----------------===//
//
// Empty on purpose. test/runtime/CMakeLists.txt links every object of one
// runtime layer (whole archive) into a shared library with this file and
// -Wl,--no-undefined, next to nothing but the layers that layer declares
// it depends on: the build fails if, say, core's objects refer to a
// technique's symbols, which an include check cannot see.
//
//===----------------------------------------------------------------------===//
