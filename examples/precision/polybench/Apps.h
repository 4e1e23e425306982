//===- Apps.h - The 14 PolyBench/GPU applications as data ------*- C++ -*-===//
//
// The workloads of precision scaling (issue 10; PreScaler, CGO'20, Table 4):
// the 14 PolyBench/GPU 1.0 applications, each described as a table that one
// generic host (run-app.cpp, Runner.h) runs: its sizes (the paper's, 16x the
// data, a tiny one for tests), its memory objects (shape, role, which are
// copied to and from the device), its launch sequence (kernel, grid, block,
// arguments, loops over time steps or planes), the input generators of the
// three input sets (Default: PolyBench's init functions; Image; Random) and
// a CPU reference that computes what the GPU program computes, in f64.
// Plain C++17 on the standard library (and, for the error metric, the
// runtime's precision/Quality.h, host code only), so the tables are unit
// tested without a GPU. The kernels are <id>.mlir next to this
// file; README.md says where every choice comes from.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_EXAMPLES_PRECISION_POLYBENCH_APPS_H
#define APPROX_EXAMPLES_PRECISION_POLYBENCH_APPS_H

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "approx/runtime/precision/Quality.h"

namespace approx::polybench {

/// Size parameters by name ("NI" -> 2048).
using Sizes = std::map<std::string, int64_t>;

/// The three sizes every application has.
enum class SizeClass {
  Paper, ///< PolyBench/GPU 1.0's sizes, those of PreScaler's Table 4
  X16,   ///< 16x the bytes of the largest objects (README.md: the rule)
  Tiny   ///< odd sizes, not block multiples; CPU reference in milliseconds
};

/// "paper", "16x", "tiny".
const char *sizeClassName(SizeClass c);
/// Parses sizeClassName's names; false if unknown.
bool parseSizeClass(const std::string &s, SizeClass &out);

/// What the kernels do with an object.
enum class Role {
  In,   ///< read only
  Out,  ///< written before it is read (its initial contents are dead)
  InOut ///< its initial contents are read, and it is written
};

/// "in", "out", "inout".
const char *roleName(Role r);

/// One memory object (a device buffer of f64, row-major).
struct ObjectSpec {
  std::string name; ///< PolyBench's array name
  /// The shape from the sizes (1 to 3 dimensions).
  std::function<std::vector<int64_t>(const Sizes &)> shape;
  Role role = Role::In;
  /// PolyBench/GPU copies the host array to the device before the first
  /// kernel (also for some Out objects, as it does). Objects not copied are
  /// zero-filled on the device (PolyBench leaves them uninitialized).
  bool toDevice = true;
  /// Copied back after the last kernel: an output of the program, compared
  /// with the CPU reference.
  bool fromDevice = false;
  /// Filled by the input set (PolyBench's init function writes it). False:
  /// the same initial state in every input set (zeros, accumulators).
  bool data = true;
};

/// One kernel argument of a launch.
struct ArgSpec {
  enum class Kind {
    Object, ///< the memref of object `name`
    Size,   ///< index scalar: size parameter `name`
    Scalar, ///< f64 scalar `value` (alpha, beta, float_n, ...)
    Loop    ///< index scalar: the enclosing phase's loop variable
  };
  Kind kind = Kind::Object;
  std::string name;
  double value = 0;

  static ArgSpec object(std::string n) {
    return {Kind::Object, std::move(n), 0};
  }
  static ArgSpec size(std::string n) { return {Kind::Size, std::move(n), 0}; }
  static ArgSpec scalar(std::string n, double v) {
    return {Kind::Scalar, std::move(n), v};
  }
  static ArgSpec loop(std::string n) { return {Kind::Loop, std::move(n), 0}; }
};

/// One kernel launch. grid[d] = ceil(threads[d] / block[d]).
struct LaunchSpec {
  std::string kernel;                     ///< the gpu.func's name
  std::array<unsigned, 3> block{1, 1, 1}; ///< threads per block
  /// Threads needed per dimension (x, y, z), from the sizes.
  std::function<std::array<int64_t, 3>(const Sizes &)> threads;
  std::vector<ArgSpec> args; ///< in the kernel's argument order
};

/// Launches run in order, optionally inside `for (var = begin; var < end;
/// ++var)` (FDTD-2D's time steps, 3DCONV's planes).
struct PhaseSpec {
  std::string loopVar; ///< empty: the launches run once
  std::function<int64_t(const Sizes &)> begin, end;
  std::vector<LaunchSpec> launches;
};

/// A grayscale image, row-major, values 0-255 (the Image input set).
struct GrayImage {
  int64_t height = 0, width = 0;
  std::vector<double> pixels;
};

/// The input sets of PreScaler's Table 4.
enum class InputSet { Default, Image, Random };

/// "default", "image", "random".
const char *inputSetName(InputSet s);

/// What makeInputs fills the data objects with.
struct InputSpec {
  InputSet set = InputSet::Default;
  uint64_t seed = 1; ///< Random: a held-out input is another seed
  const GrayImage *image =
      nullptr; ///< Image: required (held-out: another image)
};

/// One host array per object, in ObjectSpec order, row-major.
using Buffers = std::vector<std::vector<double>>;

/// One application.
struct App {
  std::string name; ///< PolyBench/GPU's name, e.g. "2MM", "FDTD-2D"
  std::string id;   ///< file stem of the kernels and PTX: "2mm", "fdtd2d"
  std::string summary;
  std::vector<std::string> sizeNames; ///< in PolyBench's order
  Sizes paper, x16, tiny;
  std::vector<ObjectSpec> objects;
  std::vector<PhaseSpec> phases;
  /// PolyBench's init function (Default input set), every object.
  std::function<void(const Sizes &, Buffers &)> initDefault;
  /// The CPU reference: runs the program's algorithm on the host arrays in
  /// place (same order of operations per element as the kernels, without
  /// fused multiply-adds), so the arrays then hold what the GPU's hold.
  std::function<void(const Sizes &, Buffers &)> reference;

  /// The sizes of class `c`.
  const Sizes &sizes(SizeClass c) const;
  /// The index of object `n`, or -1.
  int objectIndex(const std::string &n) const;
};

/// The 14 applications, in Table 4's order.
const std::vector<App> &apps();
/// By name or id, case-insensitive ("2mm", "FDTD-2D", "fdtd2d"); null if
/// none.
const App *findApp(const std::string &nameOrId);

/// Product of the dimensions.
int64_t elementCount(const std::vector<int64_t> &shape);
/// The launch grid of `l` at `s`: ceil(threads / block) per dimension.
std::array<int64_t, 3> gridOf(const LaunchSpec &l, const Sizes &s);

/// The table's problems at `s` (empty when consistent): sizes missing or
/// not positive, shapes not positive, an argument naming no object or size,
/// a loop variable outside a loop, grids beyond CUDA's limits, blocks over
/// 1024 threads, objects never used.
std::vector<std::string> checkApp(const App &app, const Sizes &s);

/// The host arrays of input set `in` at sizes `s`: every object sized by
/// its shape; data objects from the set, the others as initDefault leaves
/// them. Returns false with `error` set if the set needs an image and has
/// none.
bool makeInputs(const App &app, const Sizes &s, const InputSpec &in,
                Buffers &out, std::string &error);

/// Fills `dst` (shape `shape`) from `img` (README.md: nearest-neighbour
/// resampling to the last two dimensions, each leading index shifting the
/// image rows; a 1-D object samples the image in raster order).
void fillFromImage(const GrayImage &img, const std::vector<int64_t> &shape,
                   std::vector<double> &dst);
/// Fills `dst` with uniform [0, 1) values from SplitMix64 seeded with
/// `seed` and `stream` (the object's index): portable, bit for bit.
void fillRandom(uint64_t seed, uint64_t stream, std::vector<double> &dst);
/// A deterministic synthetic grayscale image (smooth gradients, a disc and
/// stripes, 0-255), for `--input image` without a file. Not a natural image.
GrayImage syntheticImage(int64_t height, int64_t width);

/// The error metric (PreScaler's mean relative error with a guard for
/// near-zero references) is the runtime's, shared with the precision
/// Session's trials: approx/runtime/precision/Quality.h.
using ErrorStats = rt::precision::RelativeErrors;
using rt::precision::relativeErrors;

} // namespace approx::polybench

#endif // APPROX_EXAMPLES_PRECISION_POLYBENCH_APPS_H
