//===- StatusTest.cpp - CUresult classes, sticky faults, contexts ---------===//
//
// Each class of CUresult maps to its own StatusCode (the lead's list: out of
// memory, invalid image/PTX/JIT, launch out of resources, invalid value,
// not found, not supported, no device, sticky faults); the CUresult and the
// call survive withContext; sticky messages say that the process must
// restart.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"

#include <gtest/gtest.h>

#include <set>

using namespace approx::rt;

TEST(Status, CudaResultsMapToDistinctClasses) {
  const std::pair<int, StatusCode> kCases[] = {
      {CUDA_SUCCESS, StatusCode::Ok},
      {CUDA_ERROR_OUT_OF_MEMORY, StatusCode::OutOfMemory},
      {CUDA_ERROR_INVALID_PTX, StatusCode::InvalidImage},
      {CUDA_ERROR_INVALID_IMAGE, StatusCode::InvalidImage},
      {CUDA_ERROR_NO_BINARY_FOR_GPU, StatusCode::InvalidImage},
      {CUDA_ERROR_UNSUPPORTED_PTX_VERSION, StatusCode::InvalidImage},
      {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, StatusCode::LaunchOutOfResources},
      {CUDA_ERROR_INVALID_VALUE, StatusCode::InvalidArgument},
      {CUDA_ERROR_INVALID_HANDLE, StatusCode::InvalidArgument},
      {CUDA_ERROR_NOT_FOUND, StatusCode::NotFound},
      {CUDA_ERROR_NOT_SUPPORTED, StatusCode::Unsupported},
      {CUDA_ERROR_NOT_PERMITTED, StatusCode::Unsupported},
      {CUDA_ERROR_NO_DEVICE, StatusCode::Unavailable},
      {CUDA_ERROR_STUB_LIBRARY, StatusCode::Unavailable},
      {CUDA_ERROR_ILLEGAL_ADDRESS, StatusCode::DeviceFault},
      {CUDA_ERROR_ILLEGAL_INSTRUCTION, StatusCode::DeviceFault},
      {CUDA_ERROR_MISALIGNED_ADDRESS, StatusCode::DeviceFault},
      {CUDA_ERROR_INVALID_ADDRESS_SPACE, StatusCode::DeviceFault},
      {CUDA_ERROR_INVALID_PC, StatusCode::DeviceFault},
      {CUDA_ERROR_LAUNCH_FAILED, StatusCode::DeviceFault},
      {CUDA_ERROR_LAUNCH_TIMEOUT, StatusCode::DeviceFault},
      {CUDA_ERROR_HARDWARE_STACK_ERROR, StatusCode::DeviceFault},
      {CUDA_ERROR_ASSERT, StatusCode::DeviceFault},
      {CUDA_ERROR_ECC_UNCORRECTABLE, StatusCode::DeviceFault},
      {226 /* CONTAINED */, StatusCode::DeviceFault},
      {721 /* TENSOR_MEMORY_LEAK */, StatusCode::DeviceFault},
      {CUDA_ERROR_UNKNOWN, StatusCode::CudaError},
      {CUDA_ERROR_NOT_READY, StatusCode::CudaError},
  };
  for (auto [r, code] : kCases)
    EXPECT_EQ(statusCodeForCudaResult(r), code)
        << r << " -> " << statusCodeName(statusCodeForCudaResult(r));
  // The classes the runtime promises are pairwise distinct.
  std::set<StatusCode> distinct;
  for (int r : {2, 218, 701, 1, 500, 801, 100, 700})
    distinct.insert(statusCodeForCudaResult(r));
  EXPECT_EQ(distinct.size(), 8u);
}

TEST(Status, KeepsCudaResultAndCallThroughContext) {
  Status s = Status::fromCuda(CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc",
                              "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY");
  EXPECT_EQ(s.code(), StatusCode::OutOfMemory);
  Status c = s.withContext("argument 0");
  EXPECT_EQ(c.code(), StatusCode::OutOfMemory);
  EXPECT_EQ(c.cudaResult(), CUDA_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(c.cudaCall(), "cuMemAlloc");
  EXPECT_EQ(c.message(), "argument 0: cuMemAlloc failed: "
                         "CUDA_ERROR_OUT_OF_MEMORY");
  EXPECT_EQ(c.toString(), "OutOfMemory: " + c.message());
  EXPECT_FALSE(isStickyFault(c));
  EXPECT_EQ(invalidArgument("x").cudaResult(), 0);
  EXPECT_EQ(invalidArgument("x").cudaCall(), "");
  // A "failure" built from CUDA_SUCCESS is still an error, not Ok.
  EXPECT_FALSE(Status::fromCuda(0, "cuX", "odd").isOk());
}

TEST(Status, DriverErrorsNameTheCallAndStickyOnesSayRestart) {
  const detail::Driver *drv = fake::FakeDriver::get().table();
  Status s = drv->error(CUDA_ERROR_ILLEGAL_ADDRESS, "cuCtxSynchronize");
  EXPECT_TRUE(isStickyFault(s));
  EXPECT_EQ(s.cudaResult(), 700);
  EXPECT_EQ(s.cudaCall(), "cuCtxSynchronize");
  EXPECT_EQ(s.message(),
            "cuCtxSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal "
            "memory access was encountered); the CUDA context is unusable "
            "after this device fault: restart the process");
  Status o = drv->error(CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc");
  EXPECT_EQ(o.code(), StatusCode::OutOfMemory);
  EXPECT_EQ(o.message().find("restart"), std::string::npos);
}
