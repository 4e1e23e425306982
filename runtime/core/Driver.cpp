//===- Driver.cpp - dlopen of libcuda.so.1 and CUresult -> Status ---------===//
//
// Resolves the X-macro table of DriverSymbols.def with dlsym. Versioned names
// come from cuda.h's own #defines (see the .def file).
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

namespace approx::rt::detail {

#define APPROX_STR_INNER(x) #x
#define APPROX_STR(x) APPROX_STR_INNER(x)

static Expected<const Driver *> loadDriver() {
  const char *override = std::getenv("APPROX_CUDA_DRIVER_PATH");
  const char *libName = override && *override ? override : "libcuda.so.1";
  void *handle = dlopen(libName, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return unavailable(std::string("cannot load the CUDA driver (") + libName +
                       "): " + (why ? why : "unknown dlopen error"));
  }
  // Never dlclose'd: the driver stays for the life of the process, as the
  // primary contexts and modules made through it do.
  static Driver driver;
#define APPROX_CU_PFN(name)                                                    \
  driver.name = reinterpret_cast<decltype(driver.name)>(                       \
      dlsym(handle, APPROX_STR(name)));                                        \
  if (!driver.name)                                                            \
    return unavailable(std::string("the CUDA driver (") + libName +            \
                       ") lacks symbol " APPROX_STR(name));
#include "DriverSymbols.def"
#undef APPROX_CU_PFN

  CUresult init = driver.cuInit(0);
  if (init != CUDA_SUCCESS) {
    Status s = driver.error(init, "cuInit");
    // No device / no driver at all is "skip", not "fail".
    return Status(StatusCode::Unavailable, s.message());
  }
  return static_cast<const Driver *>(&driver);
}

Expected<const Driver *> Driver::get() {
  static std::once_flag once;
  static Expected<const Driver *> result =
      unavailable("CUDA driver not loaded yet");
  std::call_once(once, [] { result = loadDriver(); });
  return result;
}

Status Driver::error(CUresult result, const char *call) const {
  const char *name = nullptr;
  const char *text = nullptr;
  if (cuGetErrorName)
    cuGetErrorName(result, &name);
  if (cuGetErrorString)
    cuGetErrorString(result, &text);
  std::string msg = std::string(call) + " failed: ";
  msg += name ? name : ("CUresult " + std::to_string(int(result)));
  if (text)
    msg += std::string(" (") + text + ")";
  if (statusCodeForCudaResult(int(result)) == StatusCode::DeviceFault)
    msg += "; the CUDA context is unusable after this device fault: restart "
           "the process";
  return Status::fromCuda(int(result), call, msg);
}

} // namespace approx::rt::detail
