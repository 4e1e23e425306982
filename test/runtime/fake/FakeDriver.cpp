//===- FakeDriver.cpp - An in-process stand-in for libcuda ----------------===//
//
// Entry points live in namespace `fakecu` under their cuda.h names, so the
// header's #defines give them the versioned names (cuMemAlloc_v2) and the
// exact types of the driver table. Entry points not written here answer
// CUDA_ERROR_NOT_SUPPORTED through one generic template.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <sstream>

namespace approx::rt::fake {

namespace {
FakeDriver *gFake = nullptr;
FakeDriver &F() { return *gFake; }

/// Every entry point starts here: counts the call, then answers a sticky
/// fault or an injected failure.
#define FAKE_ENTER(name)                                                       \
  do {                                                                         \
    CUresult r_ = F().enter(name);                                             \
    if (r_ != CUDA_SUCCESS)                                                    \
      return r_;                                                               \
  } while (0)

size_t ptxTypeSize(const std::string &t) {
  if (t == ".u8" || t == ".s8" || t == ".b8" || t == ".pred")
    return 1;
  if (t == ".u16" || t == ".s16" || t == ".b16" || t == ".f16")
    return 2;
  if (t == ".u32" || t == ".s32" || t == ".b32" || t == ".f32")
    return 4;
  if (t == ".u64" || t == ".s64" || t == ".b64" || t == ".f64")
    return 8;
  return 0;
}

/// "name[16]" -> ("name", 16); "name" -> ("name", 1).
std::pair<std::string, size_t> arrayName(std::string tok) {
  while (!tok.empty() && (tok.back() == ',' || tok.back() == ';'))
    tok.pop_back();
  size_t br = tok.find('[');
  if (br == std::string::npos)
    return {tok, 1};
  return {tok.substr(0, br), size_t(std::strtoull(tok.c_str() + br + 1,
                                                  nullptr, 10))};
}

std::vector<std::string> tokens(const std::string &line) {
  std::istringstream is(line);
  std::vector<std::string> out;
  std::string t;
  while (is >> t)
    out.push_back(t);
  return out;
}

/// Scans PTX for entries (with parameter sizes) and globals.
CUresult scanPtx(const char *text, FakeModule &m, std::string &log) {
  std::istringstream in(text);
  std::string line;
  FakeModule::Function *entry = nullptr;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.find("bogus") != std::string::npos) {
      log = "ptxas application ptx input, line " + std::to_string(lineNo) +
            "; error   : Unknown instruction 'bogus'\nptxas fatal   : "
            "Ptx assembly aborted due to errors";
      return CUDA_ERROR_INVALID_PTX;
    }
    std::vector<std::string> t = tokens(line);
    auto has = [&](const char *w) {
      return std::find(t.begin(), t.end(), w) != t.end();
    };
    if (has(".entry")) {
      auto it = std::find(t.begin(), t.end(), ".entry");
      if (it + 1 == t.end())
        continue;
      std::string name = *(it + 1);
      size_t paren = name.find('(');
      if (paren != std::string::npos)
        name = name.substr(0, paren);
      auto f = std::make_unique<FakeModule::Function>();
      f->name = name;
      f->module = &m;
      entry = f.get();
      m.functions[name] = std::move(f);
      if (line.find(')') != std::string::npos && line.find(".param") ==
                                                     std::string::npos)
        entry = nullptr;
      continue;
    }
    if (entry && has(".param")) {
      // .param .u64 name,   or   .param .align 16 .b8 name[16]
      size_t i = 1;
      if (i < t.size() && t[i] == ".align")
        i += 2;
      if (i + 1 < t.size()) {
        auto [pname, count] = arrayName(t[i + 1]);
        entry->paramSizes.push_back(ptxTypeSize(t[i]) * count);
      }
      if (line.find(')') != std::string::npos)
        entry = nullptr;
      continue;
    }
    if (entry && line.find(')') != std::string::npos)
      entry = nullptr;
    if (has(".global") && !has(".entry")) {
      size_t i = 0;
      while (i < t.size() && (t[i] == ".visible" || t[i] == ".global" ||
                              t[i] == ".extern"))
        ++i;
      if (i < t.size() && t[i] == ".align")
        i += 2;
      if (i + 1 < t.size()) {
        auto [gname, count] = arrayName(t[i + 1]);
        m.globals[gname] = std::vector<uint8_t>(ptxTypeSize(t[i]) * count, 0);
      }
    }
  }
  if (m.functions.empty() && m.globals.empty()) {
    log = "ptxas fatal   : no entry or global found";
    return CUDA_ERROR_INVALID_PTX;
  }
  return CUDA_SUCCESS;
}

bool isSticky(CUresult r) {
  return statusCodeForCudaResult(int(r)) == StatusCode::DeviceFault;
}

} // namespace

int64_t LaunchRecord::global(const std::string &name) const {
  if (!module)
    return 0;
  auto it = module->globals.find(name);
  if (it == module->globals.end() || it->second.empty())
    return 0;
  uint64_t bits = 0;
  std::memcpy(&bits, it->second.data(), std::min<size_t>(8, it->second.size()));
  size_t w = it->second.size() * 8;
  return w >= 64 ? int64_t(bits) : int64_t(bits << (64 - w)) >> (64 - w);
}

CUresult FakeDriver::enter(const char *call) {
  ++calls[call];
  if (sticky != CUDA_SUCCESS)
    return sticky;
  auto it = failures_.find(call);
  if (it != failures_.end() && !it->second.empty()) {
    auto &front = it->second.front();
    if (front.first > 0) {
      --front.first;
    } else {
      CUresult r = front.second;
      it->second.pop_front();
      return r;
    }
  }
  return CUDA_SUCCESS;
}

bool FakeDriver::validRange(CUdeviceptr p, size_t bytes) const {
  uintptr_t a = uintptr_t(p);
  auto it = allocations_.upper_bound(a);
  if (it != allocations_.begin()) {
    --it;
    if (a >= it->first && a + bytes <= it->first + it->second)
      return true;
  }
  for (FakeModule *m : modules_)
    for (auto &[name, g] : m->globals) {
      uintptr_t b = uintptr_t(g.data());
      if (a >= b && a + bytes <= b + g.size())
        return true;
    }
  return false;
}

const FakeTexture *FakeDriver::texture(uint64_t handle) const {
  auto it = textures_.find(handle);
  return it == textures_.end() ? nullptr : &it->second;
}

int64_t FakeDriver::global(const std::string &name) const {
  LaunchRecord r;
  r.module = lastModule_;
  return r.global(name);
}

void FakeDriver::failCall(const std::string &call, CUresult result,
                          int skip) {
  failures_[call].push_back({skip, result});
}

void FakeDriver::setKernel(const std::string &name, KernelBody body) {
  bodies_[name] = std::move(body);
}

} // namespace approx::rt::fake

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

namespace fakecu {

using approx::rt::fake::F;
using approx::rt::fake::FakeModule;
using approx::rt::fake::FakeTexture;
using approx::rt::fake::LaunchRecord;

static const std::pair<CUresult, const char *> kNames[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY"},
    {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS"},
    {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
    {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED"},
    {CUDA_ERROR_ILLEGAL_INSTRUCTION, "CUDA_ERROR_ILLEGAL_INSTRUCTION"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN"},
};

CUresult cuGetErrorName(CUresult error, const char **pStr) {
  for (auto &[r, n] : kNames)
    if (r == error) {
      *pStr = n;
      return CUDA_SUCCESS;
    }
  *pStr = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char **pStr) {
  *pStr = error == CUDA_ERROR_ILLEGAL_ADDRESS
              ? "an illegal memory access was encountered"
              : "fake driver error";
  return CUDA_SUCCESS;
}

CUresult cuInit(unsigned int) {
  FAKE_ENTER("cuInit");
  return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *v) {
  FAKE_ENTER("cuDriverGetVersion");
  *v = 13000;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *n) {
  FAKE_ENTER("cuDeviceGetCount");
  *n = F().deviceCount;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *d, int ordinal) {
  FAKE_ENTER("cuDeviceGet");
  if (ordinal < 0 || ordinal >= F().deviceCount)
    return CUDA_ERROR_INVALID_DEVICE;
  *d = ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice) {
  FAKE_ENTER("cuDeviceGetName");
  std::snprintf(name, size_t(len), "Fake GPU");
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetUuid(CUuuid *u, CUdevice dev) {
  FAKE_ENTER("cuDeviceGetUuid");
  for (int i = 0; i < 16; ++i)
    u->bytes[i] = char(0x10 * (dev + 1) + i);
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute a, CUdevice) {
  FAKE_ENTER("cuDeviceGetAttribute");
  switch (a) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *pi = 9;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *pi = 0;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *pi = 132;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR:
    *pi = 2048;
    break;
  case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
    *pi = 32;
    break;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem(size_t *bytes, CUdevice) {
  FAKE_ENTER("cuDeviceTotalMem");
  *bytes = F().memoryLimit;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice) {
  FAKE_ENTER("cuDevicePrimaryCtxRetain");
  ++F().primaryRefs_;
  *c = F().primary;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice) {
  --F().primaryRefs_;
  FAKE_ENTER("cuDevicePrimaryCtxRelease");
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext c) {
  FAKE_ENTER("cuCtxSetCurrent");
  F().current = c;
  return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *c) {
  FAKE_ENTER("cuCtxGetCurrent");
  *c = F().current;
  return CUDA_SUCCESS;
}

CUresult cuCtxPushCurrent(CUcontext c) {
  FAKE_ENTER("cuCtxPushCurrent");
  F().stack.push_back(F().current);
  F().current = c;
  return CUDA_SUCCESS;
}

CUresult cuCtxPopCurrent(CUcontext *c) {
  FAKE_ENTER("cuCtxPopCurrent");
  if (F().stack.empty())
    return CUDA_ERROR_INVALID_CONTEXT;
  if (c)
    *c = F().current;
  F().current = F().stack.back();
  F().stack.pop_back();
  return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize() {
  FAKE_ENTER("cuCtxSynchronize");
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                            unsigned int n, CUjit_option *opts, void **vals) {
  FAKE_ENTER("cuModuleLoadDataEx");
  auto m = std::make_unique<FakeModule>();
  std::string log;
  CUresult r = approx::rt::fake::scanPtx(static_cast<const char *>(image), *m,
                                         log);
  if (r != CUDA_SUCCESS) {
    for (unsigned i = 0; i + 1 < n; ++i)
      if (opts[i] == CU_JIT_ERROR_LOG_BUFFER) {
        size_t cap = 0;
        for (unsigned j = 0; j < n; ++j)
          if (opts[j] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
            cap = size_t(reinterpret_cast<uintptr_t>(vals[j]));
        std::snprintf(static_cast<char *>(vals[i]), cap + 1, "%s",
                      log.c_str());
      }
    return r;
  }
  *module = reinterpret_cast<CUmodule>(m.get());
  F().lastModule_ = m.get();
  F().modules_.insert(m.release());
  return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule module) {
  FakeModule *m = reinterpret_cast<FakeModule *>(module);
  if (!F().modules_.erase(m))
    return CUDA_ERROR_INVALID_HANDLE;
  if (F().lastModule_ == m)
    F().lastModule_ = nullptr;
  delete m;
  FAKE_ENTER("cuModuleUnload");
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *f, CUmodule module,
                             const char *name) {
  FAKE_ENTER("cuModuleGetFunction");
  FakeModule *m = reinterpret_cast<FakeModule *>(module);
  auto it = m->functions.find(name);
  if (it == m->functions.end())
    return CUDA_ERROR_NOT_FOUND;
  *f = reinterpret_cast<CUfunction>(it->second.get());
  return CUDA_SUCCESS;
}

CUresult cuModuleGetGlobal(CUdeviceptr *p, size_t *bytes, CUmodule module,
                           const char *name) {
  FAKE_ENTER("cuModuleGetGlobal");
  FakeModule *m = reinterpret_cast<FakeModule *>(module);
  auto it = m->globals.find(name);
  if (it == m->globals.end())
    return CUDA_ERROR_NOT_FOUND;
  *p = CUdeviceptr(uintptr_t(it->second.data()));
  *bytes = it->second.size();
  return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute a, CUfunction) {
  FAKE_ENTER("cuFuncGetAttribute");
  if (a != CU_FUNC_ATTRIBUTE_NUM_REGS)
    return CUDA_ERROR_INVALID_VALUE;
  *pi = 32;
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr *p, size_t bytes) {
  FAKE_ENTER("cuMemAlloc");
  if (bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (bytes > F().memoryLimit - F().used_)
    return CUDA_ERROR_OUT_OF_MEMORY;
  // Device blocks come from the host heap, next to host arrays, as device
  // and host memory share one address space on a GPU: code that maps an
  // address to a device block must stay within the block's real size (the
  // mgpu precision hooks once matched a host array lying past a scaled
  // object's narrower allocation; found on an H100, 2026-11-26).
  void *m = std::calloc(1, bytes);
  if (!m)
    return CUDA_ERROR_OUT_OF_MEMORY;
  F().allocations_[uintptr_t(m)] = bytes;
  F().used_ += bytes;
  *p = CUdeviceptr(uintptr_t(m));
  return CUDA_SUCCESS;
}

CUresult cuMemFree(CUdeviceptr p) {
  auto it = F().allocations_.find(uintptr_t(p));
  if (it == F().allocations_.end())
    return CUDA_ERROR_INVALID_VALUE;
  F().used_ -= it->second;
  std::free(reinterpret_cast<void *>(it->first));
  F().allocations_.erase(it);
  FAKE_ENTER("cuMemFree");
  return CUDA_SUCCESS;
}

CUresult cuMemGetInfo(size_t *freeBytes, size_t *total) {
  FAKE_ENTER("cuMemGetInfo");
  *total = F().memoryLimit;
  *freeBytes = F().memoryLimit - F().used_;
  return CUDA_SUCCESS;
}

CUresult cuMemGetAddressRange(CUdeviceptr *base, size_t *bytes,
                              CUdeviceptr p) {
  FAKE_ENTER("cuMemGetAddressRange");
  auto it = F().allocations_.upper_bound(uintptr_t(p));
  if (it == F().allocations_.begin())
    return CUDA_ERROR_NOT_FOUND;
  --it;
  if (uintptr_t(p) >= it->first + it->second)
    return CUDA_ERROR_NOT_FOUND;
  if (base)
    *base = CUdeviceptr(it->first);
  if (bytes)
    *bytes = it->second;
  return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n) {
  FAKE_ENTER("cuMemcpyHtoD");
  if (!F().validRange(dst, n))
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(reinterpret_cast<void *>(uintptr_t(dst)), src, n);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n) {
  FAKE_ENTER("cuMemcpyDtoH");
  if (!F().validRange(src, n))
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(dst, reinterpret_cast<void *>(uintptr_t(src)), n);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  FAKE_ENTER("cuMemcpyDtoD");
  if (!F().validRange(dst, n) || !F().validRange(src, n))
    return CUDA_ERROR_INVALID_VALUE;
  std::memmove(reinterpret_cast<void *>(uintptr_t(dst)),
               reinterpret_cast<void *>(uintptr_t(src)), n);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n,
                           CUstream s) {
  FAKE_ENTER("cuMemcpyHtoDAsync");
  if (!F().validRange(dst, n))
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(reinterpret_cast<void *>(uintptr_t(dst)), src, n);
  approx::rt::fake::AsyncCopy c;
  c.dst = dst;
  c.bytes.assign(static_cast<const uint8_t *>(src),
                 static_cast<const uint8_t *>(src) + n);
  c.stream = s;
  F().asyncCopies.push_back(c);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t n, CUstream) {
  FAKE_ENTER("cuMemcpyDtoHAsync");
  if (!F().validRange(src, n))
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(dst, reinterpret_cast<void *>(uintptr_t(src)), n);
  return CUDA_SUCCESS;
}

// Unified addressing: either side may be host memory (a fake device pointer
// is a host address); a device side must be a live allocation.
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream) {
  FAKE_ENTER("cuMemcpyAsync");
  auto inside = [](CUdeviceptr p) {
    auto it = F().allocations_.upper_bound(uintptr_t(p));
    return it != F().allocations_.begin() &&
           uintptr_t(p) < std::prev(it)->first + std::prev(it)->second;
  };
  if ((inside(dst) && !F().validRange(dst, n)) ||
      (inside(src) && !F().validRange(src, n)))
    return CUDA_ERROR_INVALID_VALUE;
  std::memmove(reinterpret_cast<void *>(uintptr_t(dst)),
               reinterpret_cast<void *>(uintptr_t(src)), n);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short v, size_t n,
                          CUstream) {
  FAKE_ENTER("cuMemsetD16Async");
  if (!F().validRange(dst, n * 2))
    return CUDA_ERROR_INVALID_VALUE;
  auto *p = reinterpret_cast<uint16_t *>(uintptr_t(dst));
  for (size_t i = 0; i < n; ++i)
    p[i] = v;
  return CUDA_SUCCESS;
}

CUresult cuMemsetD8(CUdeviceptr dst, unsigned char v, size_t n) {
  FAKE_ENTER("cuMemsetD8");
  if (!F().validRange(dst, n))
    return CUDA_ERROR_INVALID_VALUE;
  std::memset(reinterpret_cast<void *>(uintptr_t(dst)), v, n);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD32(CUdeviceptr dst, unsigned int v, size_t n) {
  FAKE_ENTER("cuMemsetD32");
  if (!F().validRange(dst, n * 4))
    return CUDA_ERROR_INVALID_VALUE;
  uint32_t *p = reinterpret_cast<uint32_t *>(uintptr_t(dst));
  for (size_t i = 0; i < n; ++i)
    p[i] = v;
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        CUstream s, void **params, void **extra) {
  FAKE_ENTER("cuLaunchKernel");
  if (!f || extra)
    return CUDA_ERROR_INVALID_VALUE;
  if (!gx || !gy || !gz || !bx || !by || !bz || uint64_t(bx) * by * bz > 1024)
    return CUDA_ERROR_INVALID_VALUE;
  auto *fn = reinterpret_cast<FakeModule::Function *>(f);
  LaunchRecord r;
  r.kernel = fn->name;
  r.grid[0] = gx, r.grid[1] = gy, r.grid[2] = gz;
  r.block[0] = bx, r.block[1] = by, r.block[2] = bz;
  r.sharedBytes = shared;
  r.stream = s;
  r.module = fn->module;
  for (size_t i = 0; i < fn->paramSizes.size(); ++i) {
    const uint8_t *p = static_cast<const uint8_t *>(params[i]);
    r.params.emplace_back(p, p + fn->paramSizes[i]);
  }
  CUresult result = CUDA_SUCCESS;
  auto body = F().bodies_.find(fn->name);
  if (body != F().bodies_.end())
    result = body->second(r);
  F().clockMs_ += r.durationMs;
  F().launches.push_back(std::move(r));
  if (result != CUDA_SUCCESS && approx::rt::fake::isSticky(result)) {
    F().sticky = result; // reported by the next call, as a real fault is
    return CUDA_SUCCESS;
  }
  return result;
}

CUresult cuEventCreate(CUevent *e, unsigned int) {
  FAKE_ENTER("cuEventCreate");
  void *p = std::malloc(1);
  F().events_.insert(p);
  *e = reinterpret_cast<CUevent>(p);
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent e, CUstream) {
  FAKE_ENTER("cuEventRecord");
  if (!F().events_.count(e))
    return CUDA_ERROR_INVALID_HANDLE;
  F().eventTimes_[e] = F().clockMs_;
  return CUDA_SUCCESS;
}

CUresult cuEventSynchronize(CUevent e) {
  FAKE_ENTER("cuEventSynchronize");
  return F().events_.count(e) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
  FAKE_ENTER("cuEventElapsedTime");
  if (!F().eventTimes_.count(a) || !F().eventTimes_.count(b))
    return CUDA_ERROR_INVALID_HANDLE;
  *ms = float(F().eventTimes_[b] - F().eventTimes_[a]);
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy(CUevent e) {
  if (!F().events_.erase(e))
    return CUDA_ERROR_INVALID_HANDLE;
  F().eventTimes_.erase(e);
  std::free(e);
  FAKE_ENTER("cuEventDestroy");
  return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction,
                                                     int blockSize, size_t) {
  FAKE_ENTER("cuOccupancyMaxActiveBlocksPerMultiprocessor");
  *n = std::min(F().activeBlocksPerSM, 2048 / std::max(1, blockSize));
  return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream *s, unsigned int) {
  FAKE_ENTER("cuStreamCreate");
  void *p = std::malloc(1);
  F().streams_.insert(p);
  *s = reinterpret_cast<CUstream>(p);
  return CUDA_SUCCESS;
}

CUresult cuStreamDestroy(CUstream s) {
  if (!F().streams_.erase(s))
    return CUDA_ERROR_INVALID_HANDLE;
  std::free(s);
  FAKE_ENTER("cuStreamDestroy");
  return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream s) {
  FAKE_ENTER("cuStreamSynchronize");
  return !s || F().streams_.count(s) ? CUDA_SUCCESS
                                     : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuArrayCreate(CUarray *a, const CUDA_ARRAY_DESCRIPTOR *d) {
  FAKE_ENTER("cuArrayCreate");
  if (d->Width == 0 || d->Height == 0 || d->Format != CU_AD_FORMAT_FLOAT ||
      (d->NumChannels != 1 && d->NumChannels != 2 && d->NumChannels != 4))
    return CUDA_ERROR_INVALID_VALUE;
  auto arr = std::make_unique<approx::rt::fake::FakeDriver::Array>();
  arr->width = unsigned(d->Width);
  arr->height = unsigned(d->Height);
  arr->channels = d->NumChannels;
  arr->format = d->Format;
  arr->data.assign(size_t(d->Width) * d->Height * d->NumChannels, 0.0f);
  *a = reinterpret_cast<CUarray>(arr.get());
  F().arrays_[arr.get()] = std::move(arr);
  return CUDA_SUCCESS;
}

CUresult cuArrayDestroy(CUarray a) {
  if (!F().arrays_.erase(a))
    return CUDA_ERROR_INVALID_HANDLE;
  FAKE_ENTER("cuArrayDestroy");
  return CUDA_SUCCESS;
}

CUresult cuMemcpy2D(const CUDA_MEMCPY2D *c) {
  FAKE_ENTER("cuMemcpy2D");
  if (c->srcMemoryType != CU_MEMORYTYPE_HOST ||
      c->dstMemoryType != CU_MEMORYTYPE_ARRAY)
    return CUDA_ERROR_NOT_SUPPORTED;
  auto it = F().arrays_.find(c->dstArray);
  if (it == F().arrays_.end())
    return CUDA_ERROR_INVALID_HANDLE;
  auto &arr = *it->second;
  size_t row = size_t(arr.width) * arr.channels * 4;
  if (arr.depth != 0) // the runtime fills 3-D arrays with cuMemcpy3D
    return CUDA_ERROR_INVALID_VALUE;
  if (c->WidthInBytes > row || c->Height > arr.height ||
      c->srcPitch < c->WidthInBytes || c->dstXInBytes || c->dstY)
    return CUDA_ERROR_INVALID_VALUE;
  for (size_t y = 0; y < c->Height; ++y)
    std::memcpy(reinterpret_cast<uint8_t *>(arr.data.data()) + y * row,
                static_cast<const uint8_t *>(c->srcHost) + y * c->srcPitch,
                c->WidthInBytes);
  return CUDA_SUCCESS;
}

/// A 3-D float array (Flags 0 only: no layered, surface or cubemap arrays).
CUresult cuArray3DCreate(CUarray *a, const CUDA_ARRAY3D_DESCRIPTOR *d) {
  FAKE_ENTER("cuArray3DCreate");
  F().array3DDescriptors.push_back(*d);
  if (d->Flags != 0)
    return CUDA_ERROR_NOT_SUPPORTED;
  if (d->Width == 0 || d->Height == 0 || d->Depth == 0 ||
      d->Format != CU_AD_FORMAT_FLOAT ||
      (d->NumChannels != 1 && d->NumChannels != 2 && d->NumChannels != 4))
    return CUDA_ERROR_INVALID_VALUE;
  // The 3-D texture limit per dimension from compute capability 5.0 on.
  if (d->Width > 16384 || d->Height > 16384 || d->Depth > 16384)
    return CUDA_ERROR_INVALID_VALUE;
  size_t n = size_t(d->Width) * d->Height * d->Depth * d->NumChannels;
  if (n * 4 > F().memoryLimit - F().used_)
    return CUDA_ERROR_OUT_OF_MEMORY;
  auto arr = std::make_unique<approx::rt::fake::FakeDriver::Array>();
  arr->width = unsigned(d->Width);
  arr->height = unsigned(d->Height);
  arr->depth = unsigned(d->Depth);
  arr->channels = d->NumChannels;
  arr->format = d->Format;
  arr->flags = d->Flags;
  arr->data.assign(n, 0.0f);
  *a = reinterpret_cast<CUarray>(arr.get());
  F().arrays_[arr.get()] = std::move(arr);
  return CUDA_SUCCESS;
}

/// Host to a whole or partial 3-D array, from any offset and pitch of the
/// host source; the destination starts at the array's origin.
CUresult cuMemcpy3D(const CUDA_MEMCPY3D *c) {
  FAKE_ENTER("cuMemcpy3D");
  F().memcpy3DCalls.push_back(*c);
  if (c->srcMemoryType != CU_MEMORYTYPE_HOST ||
      c->dstMemoryType != CU_MEMORYTYPE_ARRAY)
    return CUDA_ERROR_NOT_SUPPORTED;
  auto it = F().arrays_.find(c->dstArray);
  if (it == F().arrays_.end())
    return CUDA_ERROR_INVALID_HANDLE;
  auto &arr = *it->second;
  size_t row = size_t(arr.width) * arr.channels * 4;
  if (arr.depth == 0 || c->WidthInBytes > row || c->Height > arr.height ||
      c->Depth > arr.depth || c->srcPitch < c->srcXInBytes + c->WidthInBytes ||
      c->srcHeight < c->srcY + c->Height || c->dstXInBytes || c->dstY ||
      c->dstZ || c->srcLOD || c->dstLOD || c->reserved0 || c->reserved1)
    return CUDA_ERROR_INVALID_VALUE;
  const uint8_t *src = static_cast<const uint8_t *>(c->srcHost);
  uint8_t *dst = reinterpret_cast<uint8_t *>(arr.data.data());
  for (size_t z = 0; z < c->Depth; ++z)
    for (size_t y = 0; y < c->Height; ++y)
      std::memcpy(
          dst + (z * arr.height + y) * row,
          src + ((c->srcZ + z) * c->srcHeight + c->srcY + y) * c->srcPitch +
              c->srcXInBytes,
          c->WidthInBytes);
  return CUDA_SUCCESS;
}

CUresult cuTexObjectCreate(CUtexObject *t, const CUDA_RESOURCE_DESC *r,
                           const CUDA_TEXTURE_DESC *d,
                           const CUDA_RESOURCE_VIEW_DESC *) {
  FAKE_ENTER("cuTexObjectCreate");
  if (r->resType != CU_RESOURCE_TYPE_ARRAY)
    return CUDA_ERROR_NOT_SUPPORTED;
  auto it = F().arrays_.find(r->res.array.hArray);
  if (it == F().arrays_.end())
    return CUDA_ERROR_INVALID_HANDLE;
  FakeTexture tex;
  tex.array = it->first;
  tex.width = it->second->width;
  tex.height = it->second->height;
  tex.channels = it->second->channels;
  tex.depth = it->second->depth;
  tex.data = it->second->data;
  tex.address = d->addressMode[0];
  for (int i = 0; i < 3; ++i)
    tex.addressModes[i] = d->addressMode[i];
  tex.filter = d->filterMode;
  tex.flags = d->flags;
  uint64_t h = 0x7e000000ull + F().nextTexture_++;
  F().textures_[h] = tex;
  *t = CUtexObject(h);
  return CUDA_SUCCESS;
}

CUresult cuTexObjectDestroy(CUtexObject t) {
  if (!F().textures_.erase(uint64_t(t)))
    return CUDA_ERROR_INVALID_HANDLE;
  FAKE_ENTER("cuTexObjectDestroy");
  return CUDA_SUCCESS;
}

} // namespace fakecu

namespace approx::rt::fake {

namespace {
/// The answer of every entry point the fake does not implement.
template <typename Fn> struct Unsupported;
template <typename R, typename... A> struct Unsupported<R (*)(A...)> {
  static R call(A...) { return CUDA_ERROR_NOT_SUPPORTED; }
};
} // namespace

FakeDriver::FakeDriver() {
#define APPROX_CU_PFN(name)                                                    \
  table_.name = &Unsupported<decltype(table_.name)>::call;
#include "DriverSymbols.def"
#undef APPROX_CU_PFN
#define FAKE_SET(name) table_.name = &fakecu::name;
  FAKE_SET(cuGetErrorName)
  FAKE_SET(cuGetErrorString)
  FAKE_SET(cuInit)
  FAKE_SET(cuDriverGetVersion)
  FAKE_SET(cuDeviceGetCount)
  FAKE_SET(cuDeviceGet)
  FAKE_SET(cuDeviceGetName)
  FAKE_SET(cuDeviceGetUuid)
  FAKE_SET(cuDeviceGetAttribute)
  FAKE_SET(cuDeviceTotalMem)
  FAKE_SET(cuDevicePrimaryCtxRetain)
  FAKE_SET(cuDevicePrimaryCtxRelease)
  FAKE_SET(cuCtxSetCurrent)
  FAKE_SET(cuCtxGetCurrent)
  FAKE_SET(cuCtxPushCurrent)
  FAKE_SET(cuCtxPopCurrent)
  FAKE_SET(cuCtxSynchronize)
  FAKE_SET(cuModuleLoadDataEx)
  FAKE_SET(cuModuleUnload)
  FAKE_SET(cuModuleGetFunction)
  FAKE_SET(cuModuleGetGlobal)
  FAKE_SET(cuFuncGetAttribute)
  FAKE_SET(cuMemAlloc)
  FAKE_SET(cuMemFree)
  FAKE_SET(cuMemGetInfo)
  FAKE_SET(cuMemGetAddressRange)
  FAKE_SET(cuMemcpyHtoD)
  FAKE_SET(cuMemcpyDtoH)
  FAKE_SET(cuMemcpyDtoD)
  FAKE_SET(cuMemcpyHtoDAsync)
  FAKE_SET(cuMemcpyDtoHAsync)
  FAKE_SET(cuMemcpyAsync)
  FAKE_SET(cuMemsetD16Async)
  FAKE_SET(cuMemsetD8)
  FAKE_SET(cuMemsetD32)
  FAKE_SET(cuLaunchKernel)
  FAKE_SET(cuEventCreate)
  FAKE_SET(cuEventRecord)
  FAKE_SET(cuEventSynchronize)
  FAKE_SET(cuEventElapsedTime)
  FAKE_SET(cuEventDestroy)
  FAKE_SET(cuOccupancyMaxActiveBlocksPerMultiprocessor)
  FAKE_SET(cuStreamCreate)
  FAKE_SET(cuStreamDestroy)
  FAKE_SET(cuStreamSynchronize)
  FAKE_SET(cuArrayCreate)
  FAKE_SET(cuArrayDestroy)
  FAKE_SET(cuMemcpy2D)
  FAKE_SET(cuArray3DCreate)
  FAKE_SET(cuMemcpy3D)
  FAKE_SET(cuTexObjectCreate)
  FAKE_SET(cuTexObjectDestroy)
#undef FAKE_SET
}

FakeDriver &FakeDriver::get() {
  static FakeDriver d;
  gFake = &d;
  return d;
}

void FakeDriver::reset() {
  launches.clear();
  array3DDescriptors.clear();
  memcpy3DCalls.clear();
  asyncCopies.clear();
  calls.clear();
  for (auto &[p, n] : allocations_)
    std::free(reinterpret_cast<void *>(p));
  allocations_.clear();
  used_ = 0;
  for (FakeModule *m : modules_)
    delete m;
  modules_.clear();
  lastModule_ = nullptr;
  for (void *s : streams_)
    std::free(s);
  streams_.clear();
  for (void *e : events_)
    std::free(e);
  events_.clear();
  eventTimes_.clear();
  arrays_.clear();
  textures_.clear();
  nextTexture_ = 1;
  primaryRefs_ = 0;
  clockMs_ = 0;
  bodies_.clear();
  failures_.clear();
  memoryLimit = size_t(1) << 30;
  deviceCount = 1;
  activeBlocksPerSM = 8;
  sticky = CUDA_SUCCESS;
  current = nullptr;
  stack.clear();
}

} // namespace approx::rt::fake
