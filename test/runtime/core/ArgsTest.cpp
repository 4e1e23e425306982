//===- ArgsTest.cpp - Argument checking and ABI packing -------------------===//
//
// Packing of every argument kind into the PTX parameter list, and the
// error for each wrong argument.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Args.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>

using namespace approx::rt;

namespace {

ParamInfo param(size_t arg, const char *field, ScalarType t) {
  ParamInfo p;
  p.arg = arg;
  p.field = field;
  p.type = t;
  p.size = scalarTypeSize(t);
  return p;
}

/// kernel(memref<?x4xf32>, i32, f64, memref<8xi64>, f16, i1)
KernelInfo makeKernel() {
  KernelInfo k;
  k.name = "k";
  ArgInfo m0;
  m0.kind = ArgInfo::Kind::Memref;
  m0.type = ScalarType::F32;
  m0.rank = 2;
  m0.shape = {-1, 4};
  m0.firstParam = 0;
  m0.numParams = 7;
  k.args.push_back(m0);
  for (const char *f : {"allocated", "aligned"})
    k.params.push_back(param(0, f, ScalarType::Ptr));
  for (const char *f : {"offset", "size0", "size1", "stride0", "stride1"})
    k.params.push_back(param(0, f, ScalarType::I64));
  auto scalar = [&](ScalarType t) {
    ArgInfo a;
    a.kind = ArgInfo::Kind::Scalar;
    a.type = t;
    a.firstParam = k.params.size();
    a.numParams = 1;
    k.params.push_back(param(k.args.size(), "value", t));
    k.args.push_back(a);
  };
  scalar(ScalarType::I32);
  scalar(ScalarType::F64);
  ArgInfo m3;
  m3.kind = ArgInfo::Kind::Memref;
  m3.type = ScalarType::I64;
  m3.rank = 1;
  m3.shape = {8};
  m3.firstParam = k.params.size();
  m3.numParams = 5;
  k.args.push_back(m3);
  for (const char *f : {"allocated", "aligned"})
    k.params.push_back(param(3, f, ScalarType::Ptr));
  for (const char *f : {"offset", "size0", "stride0"})
    k.params.push_back(param(3, f, ScalarType::I64));
  scalar(ScalarType::F16);
  scalar(ScalarType::I1);
  return k;
}

/// Knob values for every knob parameter of `k` (17 for each).
KnobParamValues goodKnobsFor(const KernelInfo &k) {
  KnobParamValues v;
  for (const ParamInfo &p : k.params)
    if (p.isKnob())
      v[p.knob] = 17;
  return v;
}

std::vector<Arg> goodArgs() {
  BufferView a{0x1000, 3 * 4 * 4, ScalarType::F32};
  BufferView b{0x2000, 8 * 8, ScalarType::I64};
  return {Arg::memref(a, {3, 4}), Arg::integer(-5), Arg::floating(0.25),
          Arg::memref(b), Arg::floating(1.5), Arg::integer(1)};
}

void expectErrorWithKnobs(const KernelInfo &k, const std::vector<Arg> &args,
                          const KnobParamValues &knobs, StatusCode code,
                          const std::string &needle) {
  Expected<PackedArgs> p = packArgs(k, args, knobs);
  ASSERT_FALSE(p.isOk()) << "expected: " << needle;
  EXPECT_EQ(p.status().code(), code) << p.status().toString();
  EXPECT_NE(p.status().message().find(needle), std::string::npos)
      << p.status().message();
}

void expectError(const KernelInfo &k, const std::vector<Arg> &args,
                 StatusCode code, const std::string &needle) {
  Expected<PackedArgs> p = packArgs(k, args, goodKnobsFor(k));
  ASSERT_FALSE(p.isOk()) << "expected: " << needle;
  EXPECT_EQ(p.status().code(), code) << p.status().toString();
  EXPECT_NE(p.status().message().find(needle), std::string::npos)
      << p.status().message();
}

} // namespace

TEST(Args, PacksDescriptorsAndScalars) {
  KernelInfo k = makeKernel();
  Expected<PackedArgs> p = packArgs(k, goodArgs());
  ASSERT_TRUE(p.isOk()) << p.status().toString();
  ASSERT_EQ(p->size(), k.params.size());
  // memref<3x4xf32>: ptr, ptr, offset 0, sizes 3 4, strides 4 1.
  EXPECT_EQ(p->slot(0), 0x1000u);
  EXPECT_EQ(p->slot(1), 0x1000u);
  EXPECT_EQ(p->slot(2), 0u);
  EXPECT_EQ(p->slot(3), 3u);
  EXPECT_EQ(p->slot(4), 4u);
  EXPECT_EQ(p->slot(5), 4u);
  EXPECT_EQ(p->slot(6), 1u);
  // i32 -5 in the low 4 bytes.
  int32_t i32;
  uint64_t s7 = p->slot(7);
  std::memcpy(&i32, &s7, 4);
  EXPECT_EQ(i32, -5);
  double f64;
  uint64_t s8 = p->slot(8);
  std::memcpy(&f64, &s8, 8);
  EXPECT_EQ(f64, 0.25);
  // memref<8xi64> over the whole buffer.
  EXPECT_EQ(p->slot(9), 0x2000u);
  EXPECT_EQ(p->slot(12), 8u);
  EXPECT_EQ(p->slot(13), 1u);
  // f16 1.5 = 0x3e00; i1 true = 1.
  EXPECT_EQ(p->slot(14), 0x3e00u);
  EXPECT_EQ(p->slot(15), 1u);
  // Each pointer points at its own slot.
  void **ptrs = p->pointers();
  EXPECT_EQ(*static_cast<uint64_t *>(ptrs[0]), 0x1000u);
  EXPECT_EQ(*static_cast<uint16_t *>(ptrs[14]), 0x3e00u);
}

TEST(Args, MovedPackKeepsPointersValid) {
  KernelInfo k = makeKernel();
  Expected<PackedArgs> p = packArgs(k, goodArgs());
  ASSERT_TRUE(p.isOk());
  PackedArgs moved = p.take();
  EXPECT_EQ(*static_cast<uint64_t *>(moved.pointers()[3]), 3u);
}

TEST(Args, RejectsWrongCount) {
  KernelInfo k = makeKernel();
  std::vector<Arg> a = goodArgs();
  a.pop_back();
  expectError(k, a, StatusCode::InvalidArgument, "takes 6 arguments, got 5");
}

TEST(Args, RejectsWrongKinds) {
  KernelInfo k = makeKernel();
  std::vector<Arg> a = goodArgs();
  a[0] = Arg::integer(3);
  expectError(k, a, StatusCode::InvalidArgument, "expected a buffer");
  a = goodArgs();
  a[1] = Arg::floating(3.0);
  expectError(k, a, StatusCode::InvalidArgument, "expected an integer");
  a = goodArgs();
  a[2] = Arg::memref(BufferView{0x1, 8, ScalarType::F64});
  expectError(k, a, StatusCode::InvalidArgument, "expected a float");
}

TEST(Args, IntegerConvertsToFloatParam) {
  KernelInfo k = makeKernel();
  std::vector<Arg> a = goodArgs();
  a[2] = Arg::integer(2);
  Expected<PackedArgs> p = packArgs(k, a);
  ASSERT_TRUE(p.isOk());
  double f;
  uint64_t s = p->slot(8);
  std::memcpy(&f, &s, 8);
  EXPECT_EQ(f, 2.0);
}

TEST(Args, RejectsElementTypeRankAndStaticDims) {
  KernelInfo k = makeKernel();
  std::vector<Arg> a = goodArgs();
  a[0] = Arg::memref(BufferView{0x1000, 48, ScalarType::I32}, {3, 4});
  expectError(k, a, StatusCode::InvalidArgument,
              "buffer holds i32, expected f32");
  a[0] = Arg::memref(BufferView{0x1000, 48, ScalarType::F32}, {12});
  expectError(k, a, StatusCode::InvalidArgument, "got rank 1");
  a[0] = Arg::memref(BufferView{0x1000, 48, ScalarType::F32}, {4, 3});
  expectError(k, a, StatusCode::InvalidArgument,
              "dimension 1 is static 4, got 3");
  a[0] = Arg::memref(BufferView{0x1000, 48, ScalarType::F32}, {-1, 4});
  expectError(k, a, StatusCode::InvalidArgument, "negative size");
}

TEST(Args, RejectsTooSmallBuffers) {
  KernelInfo k = makeKernel();
  std::vector<Arg> a = goodArgs();
  a[0] = Arg::memref(BufferView{0x1000, 40, ScalarType::F32}, {3, 4});
  expectError(k, a, StatusCode::InvalidArgument,
              "needs 48 bytes, the buffer holds 40");
  a = goodArgs();
  a[3] = Arg::memref(BufferView{0x2000, 56, ScalarType::I64});
  expectError(k, a, StatusCode::InvalidArgument, "dimension 0 is static 8");
  a[3] = Arg::memref(BufferView{0, 64, ScalarType::I64});
  expectError(k, a, StatusCode::InvalidArgument, "null buffer");
}

TEST(Args, LargerBufferIsFine) {
  KernelInfo k = makeKernel();
  std::vector<Arg> a = goodArgs();
  a[0] = Arg::memref(BufferView{0x1000, 4096, ScalarType::F32}, {3, 4});
  EXPECT_TRUE(packArgs(k, a).isOk());
}

TEST(Args, RejectsOutOfRangeIntegers) {
  KernelInfo k = makeKernel();
  std::vector<Arg> a = goodArgs();
  a[1] = Arg::integer(int64_t(1) << 40);
  expectError(k, a, StatusCode::OutOfRange, "does not fit i32");
  a = goodArgs();
  a[5] = Arg::integer(2);
  expectError(k, a, StatusCode::OutOfRange, "does not fit i1");
}

TEST(Args, HalfConversion) {
  EXPECT_EQ(floatToHalfBits(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalfBits(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalfBits(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalfBits(1e6f), 0x7c00);
  EXPECT_EQ(floatToHalfBits(5.960464477539063e-08f), 0x0001); // min subnormal
  for (uint32_t h = 0; h < 0x7c00; ++h)
    ASSERT_EQ(floatToHalfBits(halfBitsToFloat(uint16_t(h))), h) << h;
}

TEST(Args, Describe) {
  KernelInfo k = makeKernel();
  EXPECT_EQ(describeArgInfo(k.args[0]), "memref<?x4xf32>");
  EXPECT_EQ(describeArgInfo(k.args[1]), "i32");
  EXPECT_EQ(Arg::pointer(0x10).describe(), "pointer 0x10");
  EXPECT_EQ(Arg::bytes({1, 2}).describe(), "2 raw bytes");
}

//===----------------------------------------------------------------------===//
// Manifest v2 argument kinds: bare memrefs, pointers, vectors, bf16, knobs
//===----------------------------------------------------------------------===//

namespace {

/// kernel(memref<4x2xf32> bare, ptr, vector<4xf32>, bf16, vector<2x2xf16>)
/// + knob params lambda (i32) and table (i64).
KernelInfo makeV2Kernel() {
  KernelInfo k;
  k.name = "v2";
  ArgInfo bare;
  bare.kind = ArgInfo::Kind::Memref;
  bare.type = ScalarType::F32;
  bare.rank = 2;
  bare.shape = {4, 2};
  bare.abi = ArgInfo::Abi::Bare;
  bare.firstParam = 0;
  bare.numParams = 1;
  k.args.push_back(bare);
  k.params.push_back(param(0, "aligned", ScalarType::Ptr));
  ArgInfo ptr;
  ptr.kind = ArgInfo::Kind::Pointer;
  ptr.type = ScalarType::Ptr;
  ptr.addressSpace = 1;
  ptr.firstParam = 1;
  ptr.numParams = 1;
  k.args.push_back(ptr);
  k.params.push_back(param(1, "value", ScalarType::Ptr));
  auto scalar = [&](ValueType t) {
    ArgInfo a;
    a.kind = ArgInfo::Kind::Scalar;
    a.type = t;
    a.firstParam = k.params.size();
    a.numParams = 1;
    ParamInfo p;
    p.arg = k.args.size();
    p.field = "value";
    p.type = t;
    p.size = size_t(t.size());
    k.params.push_back(p);
    k.args.push_back(a);
  };
  scalar(ValueType::vector(ScalarType::F32, {4}));
  scalar(ScalarType::BF16);
  scalar(ValueType::vector(ScalarType::F16, {2, 2}));
  for (auto [name, t] : {std::pair{"lambda", ScalarType::I32},
                         std::pair{"table", ScalarType::I64}}) {
    ParamInfo p;
    p.field = "knob";
    p.knob = name;
    p.type = t;
    p.size = scalarTypeSize(t);
    k.params.push_back(p);
    k.knobs.push_back(name);
  }
  return k;
}

std::vector<uint8_t> f32Bytes(std::initializer_list<float> v) {
  std::vector<uint8_t> b;
  for (float f : v) {
    uint8_t x[4];
    std::memcpy(x, &f, 4);
    b.insert(b.end(), x, x + 4);
  }
  return b;
}

std::vector<Arg> goodV2Args() {
  return {Arg::memref(BufferView{0x3000, 32, ScalarType::F32}, {4, 2}),
          Arg::pointer(0x4000), Arg::bytes(f32Bytes({1, 2, 3, 4})),
          Arg::floating(1.5), Arg::bytes({1, 2, 3, 4, 5, 6, 7, 8})};
}

KnobParamValues goodKnobs() {
  return {{"lambda", 17}, {"table", int64_t(0x7f00000000001234ll)}};
}

} // namespace

TEST(Args, PacksBarePointerVectorBf16AndKnobParams) {
  KernelInfo k = makeV2Kernel();
  Expected<PackedArgs> p = packArgs(k, goodV2Args(), goodKnobs());
  ASSERT_TRUE(p.isOk()) << p.status().toString();
  ASSERT_EQ(p->size(), 7u);
  EXPECT_EQ(p->slot(0), 0x3000u); // bare: the aligned pointer only
  EXPECT_EQ(p->paramSize(0), 8u);
  EXPECT_EQ(p->slot(1), 0x4000u);
  EXPECT_EQ(p->bytes(2), f32Bytes({1, 2, 3, 4}));
  EXPECT_EQ(p->paramSize(2), 16u);
  EXPECT_EQ(p->slot(3), 0x3fc0u); // bf16 1.5
  EXPECT_EQ(p->paramSize(3), 2u);
  EXPECT_EQ(p->bytes(4), (std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(p->slot(5), 17u);
  EXPECT_EQ(p->paramSize(5), 4u);
  EXPECT_EQ(p->slot(6), 0x7f00000000001234ull);
  // Every pointer points at its parameter's bytes; the 16-byte vector is
  // 16-byte aligned within the pack.
  void **ptrs = p->pointers();
  float lanes[4];
  std::memcpy(lanes, ptrs[2], 16);
  EXPECT_EQ(lanes[3], 4.0f);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(ptrs[2]) -
                reinterpret_cast<uintptr_t>(ptrs[0]),
            16u);
  EXPECT_EQ(*static_cast<int32_t *>(ptrs[5]), 17);
  PackedArgs moved = p.take();
  EXPECT_EQ(*static_cast<uint64_t *>(moved.pointers()[6]),
            0x7f00000000001234ull);
}

TEST(Args, BareMemrefChecksShapeAndBuffer) {
  KernelInfo k = makeV2Kernel();
  std::vector<Arg> a = goodV2Args();
  a[0] = Arg::memref(BufferView{0x3000, 32, ScalarType::F32}, {2, 4});
  expectError(k, a, StatusCode::InvalidArgument,
              "dimension 0 is static 4, got 2");
  a[0] = Arg::memref(BufferView{0x3000, 28, ScalarType::F32}, {4, 2});
  expectError(k, a, StatusCode::InvalidArgument,
              "needs 32 bytes, the buffer holds 28");
  a[0] = Arg::memref(BufferView{0x3000, 32, ScalarType::I32}, {4, 2});
  expectError(k, a, StatusCode::InvalidArgument,
              "argument 0 (memref<4x2xf32> (bare)): buffer holds i32, "
              "expected f32");
  a[0] = Arg::pointer(0x3000);
  expectError(k, a, StatusCode::InvalidArgument, "expected a buffer");
}

TEST(Args, PointerArguments) {
  KernelInfo k = makeV2Kernel();
  std::vector<Arg> a = goodV2Args();
  a[1] = Arg::memref(BufferView{0x5000, 64, ScalarType::I8});
  Expected<PackedArgs> p = packArgs(k, a, goodKnobs());
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(p->slot(1), 0x5000u);
  a[1] = Arg::pointer(0); // a null pointer is a value like any other
  p = packArgs(k, a, goodKnobs());
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(p->slot(1), 0u);
  a[1] = Arg::integer(0x5000);
  expectError(k, a, StatusCode::InvalidArgument,
              "argument 1 (ptr (address space 1)): expected a pointer or a "
              "buffer, got integer 20480");
}

TEST(Args, VectorScalarsAreSizeCheckedBytes) {
  KernelInfo k = makeV2Kernel();
  std::vector<Arg> a = goodV2Args();
  a[2] = Arg::bytes(f32Bytes({1, 2, 3}));
  expectError(k, a, StatusCode::InvalidArgument,
              "argument 2 (vector<4xf32>): got 12 raw bytes, the parameter "
              "has 16");
  a[2] = Arg::floating(1.0);
  expectError(k, a, StatusCode::InvalidArgument,
              "a vector takes its 16 bytes as Arg::bytes, got float 1");
  a = goodV2Args();
  a[4] = Arg::bytes(std::vector<uint8_t>(9, 0));
  expectError(k, a, StatusCode::InvalidArgument, "got 9 raw bytes");
  // Raw bytes also fit a plain scalar of the same size.
  a = goodV2Args();
  a[3] = Arg::bytes({0x80, 0x3f});
  Expected<PackedArgs> p = packArgs(k, a, goodKnobs());
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(p->slot(3), 0x3f80u);
  a[3] = Arg::bytes({0x80, 0x3f, 0});
  expectError(k, a, StatusCode::InvalidArgument,
              "got 3 raw bytes, the parameter has 2");
}

TEST(Args, Bf16Scalars) {
  KernelInfo k = makeV2Kernel();
  std::vector<Arg> a = goodV2Args();
  a[3] = Arg::integer(-3);
  Expected<PackedArgs> p = packArgs(k, a, goodKnobs());
  ASSERT_TRUE(p.isOk());
  EXPECT_EQ(p->slot(3), 0xc040u);
  a[3] = Arg::pointer(1);
  expectError(k, a, StatusCode::InvalidArgument, "expected a float");
}

TEST(Args, KnobParameters) {
  KernelInfo k = makeV2Kernel();
  KnobParamValues knobs = goodKnobs();
  knobs.erase("table");
  expectErrorWithKnobs(k, goodV2Args(), knobs, StatusCode::InvalidArgument,
                       "kernel 'v2' parameter 6 (knob 'table'): no value "
                       "given for the knob");
  knobs = goodKnobs();
  knobs["lambda"] = int64_t(1) << 33;
  expectErrorWithKnobs(k, goodV2Args(), knobs, StatusCode::OutOfRange,
                       "parameter 5 (knob 'lambda'): value 8589934592 does "
                       "not fit i32");
  knobs = goodKnobs();
  knobs["unrelated"] = 3; // extra values are ignored
  EXPECT_TRUE(packArgs(k, goodV2Args(), knobs).isOk());
}

TEST(Args, VectorElementMemrefs) {
  KernelInfo k = makeKernel();
  k.args[3].type = ValueType::vector(ScalarType::F32, {2}); // memref<8xv2f32>
  BufferView b{0x2000, 8 * 8, ValueType::vector(ScalarType::F32, {2})};
  std::vector<Arg> a = goodArgs();
  a[3] = Arg::memref(b);
  Expected<PackedArgs> p = packArgs(k, a);
  ASSERT_TRUE(p.isOk()) << p.status().toString();
  EXPECT_EQ(p->slot(12), 8u); // size0 in vector elements
  a[3] = Arg::memref(BufferView{0x2000, 64, ScalarType::F32}, {8});
  expectError(k, a, StatusCode::InvalidArgument,
              "buffer holds f32, expected vector<2xf32>");
}

TEST(Args, DescriptorSizesAndStridesMustFitI64) {
  // memref<?x?x?xf32>: with a zero-sized dimension a shape holds no
  // elements, yet its row strides can exceed i64.
  KernelInfo k;
  k.name = "r3";
  ArgInfo m;
  m.kind = ArgInfo::Kind::Memref;
  m.type = ScalarType::F32;
  m.rank = 3;
  m.shape = {-1, -1, -1};
  m.firstParam = 0;
  m.numParams = 9;
  k.args.push_back(m);
  for (const char *f : {"allocated", "aligned"})
    k.params.push_back(param(0, f, ScalarType::Ptr));
  for (const char *f : {"offset", "size0", "size1", "size2", "stride0",
                        "stride1", "stride2"})
    k.params.push_back(param(0, f, ScalarType::I64));
  BufferView buf{0x1000, 64, ScalarType::F32};
  Expected<PackedArgs> p =
      packArgs(k, {Arg::memref(buf, {0, int64_t(1) << 60, 4})});
  ASSERT_TRUE(p.isOk()) << p.status().toString();
  EXPECT_EQ(p->slot(6), uint64_t(1) << 62); // stride0 = 2^60 * 4
  EXPECT_EQ(p->slot(7), 4u);
  EXPECT_EQ(p->slot(8), 1u);
  // stride0 = 2^61 * 4 = 2^63 does not fit i64.
  expectError(k, {Arg::memref(buf, {0, int64_t(1) << 61, 4})},
              StatusCode::InvalidArgument,
              "stride of dimension 0 overflows i64");
  // Elements fit 64 bits, their bytes do not.
  BufferView huge{0x1000, ~size_t(0), ScalarType::F32};
  expectError(k, {Arg::memref(huge, {1, int64_t(1) << 62, 1})},
              StatusCode::InvalidArgument, "needs more than 2^64 bytes");
  // Elements do not fit 64 bits.
  expectError(k, {Arg::memref(huge, {3, int64_t(1) << 62, 4})},
              StatusCode::InvalidArgument, "shape overflows");
}

//===----------------------------------------------------------------------===//
// Narrow float conversions
//===----------------------------------------------------------------------===//

namespace {
/// float -> bf16 by rounding the float's bits (exact reference for floats).
uint16_t bf16OfFloatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return uint16_t((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
}
} // namespace

TEST(Args, Bf16Conversion) {
  EXPECT_EQ(doubleToBf16Bits(1.0), 0x3f80);
  EXPECT_EQ(doubleToBf16Bits(-2.0), 0xc000);
  EXPECT_EQ(doubleToBf16Bits(0.0), 0x0000);
  EXPECT_EQ(doubleToBf16Bits(-0.0), 0x8000);
  EXPECT_EQ(doubleToBf16Bits(INFINITY), 0x7f80);
  EXPECT_EQ(doubleToBf16Bits(-INFINITY), 0xff80);
  EXPECT_EQ(doubleToBf16Bits(NAN) & 0x7fc0, 0x7fc0);
  EXPECT_EQ(doubleToBf16Bits(3.3895313892515355e38), 0x7f7f); // max
  EXPECT_EQ(doubleToBf16Bits(3.4e38), 0x7f80);                // overflows
  EXPECT_EQ(doubleToBf16Bits(9.183549615799121e-41), 0x0001); // min subnormal
  // One-step rounding: 1 + 2^-8 + 2^-30 lies just above the midpoint of 1
  // and 1 + 2^-7. Through f32 it would first become the midpoint exactly
  // and then round to even (1.0).
  double d = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30);
  EXPECT_EQ(doubleToBf16Bits(d), 0x3f81);
  EXPECT_EQ(bf16OfFloatBits(float(d)), 0x3f80);
  // On values that are floats, agree with rounding the float's bits.
  for (uint32_t hi = 0; hi < 0x10000; ++hi) {
    if ((hi & 0x7f80) == 0x7f80)
      continue; // inf/NaN
    for (uint32_t lo : {0x0000u, 0x0001u, 0x7fffu, 0x8000u, 0x8001u,
                        0xffffu}) {
      uint32_t bits = hi << 16 | lo;
      float f;
      std::memcpy(&f, &bits, 4);
      ASSERT_EQ(doubleToBf16Bits(f), bf16OfFloatBits(f)) << std::hex << bits;
    }
    ASSERT_EQ(bf16BitsToFloat(uint16_t(hi)),
              bf16BitsToFloat(doubleToBf16Bits(bf16BitsToFloat(uint16_t(hi)))));
  }
}

TEST(Args, HalfConversionRoundsOnce) {
  EXPECT_EQ(doubleToHalfBits(65520.0), 0x7c00); // ties to even: up to inf
  EXPECT_EQ(doubleToHalfBits(65519.99), 0x7bff);
  EXPECT_EQ(doubleToHalfBits(std::ldexp(1.0, -24)), 0x0001);
  EXPECT_EQ(doubleToHalfBits(std::ldexp(1.0, -25)), 0x0000); // tie to even
  EXPECT_EQ(doubleToHalfBits(std::ldexp(1.0001, -25)), 0x0001);
  EXPECT_EQ(doubleToHalfBits(std::ldexp(1023.5, -24)), 0x0400); // to normal
  EXPECT_EQ(doubleToHalfBits(-0.0), 0x8000);
  double d = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(doubleToHalfBits(d), 0x3c01);
  EXPECT_EQ(floatToHalfBits(float(d)), 0x3c00); // the f32 path rounded twice
}
