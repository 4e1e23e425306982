# Finds the parts of the CUDA toolkit approx uses, each on its own, and says
# what it found. Nothing here is required: what needs a missing part is skipped
# (and the tests that need it report themselves unsupported).
#   APPROX_CUDA_ROOT      toolkit root (CUDA_PATH, else /usr/local/cuda)
#   APPROX_LIBDEVICE      libdevice.10.bc, linked into every PTX module
#   APPROX_PTXAS          ptxas, to assemble PTX in tests and to write cubins
#   APPROX_CUDA_INCLUDE   directory holding cuda.h, for the runtime
#   APPROX_CUDART_STATIC  libcudart_static.a, for the example that copies
#                         through the CUDA runtime API (examples/cuda)
if(DEFINED ENV{CUDA_PATH} AND NOT APPROX_CUDA_ROOT)
  set(APPROX_CUDA_ROOT "$ENV{CUDA_PATH}" CACHE PATH "CUDA toolkit root")
endif()
set(APPROX_CUDA_ROOT "/usr/local/cuda" CACHE PATH "CUDA toolkit root")

find_file(APPROX_LIBDEVICE libdevice.10.bc
  HINTS ${APPROX_CUDA_ROOT}/nvvm/libdevice NO_DEFAULT_PATH)
find_program(APPROX_PTXAS ptxas HINTS ${APPROX_CUDA_ROOT}/bin)
find_path(APPROX_CUDA_INCLUDE cuda.h HINTS ${APPROX_CUDA_ROOT}/include)
find_library(APPROX_CUDART_STATIC cudart_static
  HINTS ${APPROX_CUDA_ROOT}/lib64 ${APPROX_CUDA_ROOT}/lib NO_DEFAULT_PATH)

foreach(part LIBDEVICE PTXAS CUDA_INCLUDE CUDART_STATIC)
  if(APPROX_${part})
    message(STATUS "approx: CUDA ${part}: ${APPROX_${part}}")
  else()
    message(STATUS "approx: CUDA ${part}: NOT FOUND under ${APPROX_CUDA_ROOT} "
                   "(set CUDA_PATH); what needs it is skipped")
  endif()
endforeach()

# The CUDA device compiler of approx-cc (the CUDA front door). Debian's
# clang-22 matches the MLIR/LLVM 22 approx is built on.
find_program(APPROX_CLANG NAMES clang++-22)
if(APPROX_CLANG)
  message(STATUS "approx: CUDA device compiler: ${APPROX_CLANG}")
else()
  message(STATUS "approx: CUDA device compiler: clang++-22 NOT FOUND "
                 "(apt install clang-22); approx-cc needs --clang and its "
                 "tests are skipped")
endif()
