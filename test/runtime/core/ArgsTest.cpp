//===- ArgsTest.cpp - Argument checking and ABI packing -------------------===//
//
// Packing of every argument kind into the PTX parameter list, and the
// error for each wrong argument.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/Args.h"

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

std::vector<Arg> goodArgs() {
  BufferView a{0x1000, 3 * 4 * 4, ScalarType::F32};
  BufferView b{0x2000, 8 * 8, ScalarType::I64};
  return {Arg::memref(a, {3, 4}), Arg::integer(-5), Arg::floating(0.25),
          Arg::memref(b), Arg::floating(1.5), Arg::integer(1)};
}

void expectError(const KernelInfo &k, const std::vector<Arg> &args,
                 StatusCode code, const std::string &needle) {
  Expected<PackedArgs> p = packArgs(k, args);
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
}
