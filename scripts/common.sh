# Shared by setup.sh and test.sh: install what is missing, configure, build.
# Sourced, not run. BUILD_DIR defaults to ./build.

APPROX_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$APPROX_ROOT/build}"
APPROX_APT_PACKAGES=(cmake ninja-build g++ lld python3
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  nlohmann-json3-dev libgtest-dev libmpfr-dev libgmp-dev clang-22
  libopenmpi-dev openmpi-bin libcli11-dev python3-jsonschema)

approx_install_deps() {
  local missing=()
  for p in "${APPROX_APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "approx: installing ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
  fi
  if [ ! -e "${CUDA_PATH:-/usr/local/cuda}/nvvm/libdevice/libdevice.10.bc" ]; then
    echo "approx: no CUDA toolkit at ${CUDA_PATH:-/usr/local/cuda} (set CUDA_PATH):" \
         "PTX generation and its tests will be skipped"
  fi
}

approx_build() {
  local linker=()
  command -v ld.lld >/dev/null && linker=(-DLLVM_USE_LINKER=lld)
  cmake -S "$APPROX_ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    "${linker[@]}" > "$BUILD_DIR.configure.log" 2>&1 \
    || { cat "$BUILD_DIR.configure.log"; return 1; }
  grep "approx:" "$BUILD_DIR.configure.log" || true
  cmake --build "$BUILD_DIR"
}
