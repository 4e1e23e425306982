# lit configuration for the approx compiler tests.
import os
import shutil
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "approx"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "consumer", "fuzz-data"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.approx_obj_root, "test")

config.substitutions.append(("%approx_src", config.approx_src_root))
config.substitutions.append(("%libdevice", config.libdevice))
config.substitutions.append(("%approx_obj", config.approx_obj_root))
config.substitutions.append(("%llvm_tools_dir", config.llvm_tools_dir))
config.substitutions.append(("%cmake", config.cmake))
config.substitutions.append(("%cxx", config.cxx))
config.substitutions.append(("%cc", config.c_compiler))
config.substitutions.append(("%ptxas", config.ptxas or "ptxas-not-found"))
# One line per knob, kernel, parameter list and site of a manifest, checking
# the format's rules (docs/manifest.md) on the way.
config.substitutions.append(("%summary", "%s %s" % (
    sys.executable, os.path.join(config.test_source_root, "Inputs", "manifest-summary.py"))))

llvm_config.with_system_environment(["HOME", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# Keep the user's CUDA_PATH out of the tests: they use the build's toolkit.
config.environment.pop("CUDA_PATH", None)
tool_dirs = [config.approx_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["approx-opt", "approx-cc", "approx-build", "approx-toy-opt"], tool_dirs)
# The runtime CLI (built unless APPROX_ENABLE_RUNTIME=OFF): round-trip tests
# parse what the compiler wrote and pack launch arguments with --dry-run.
if os.path.exists(os.path.join(config.approx_tools_dir, "approx-tune")):
    config.available_features.add("approx-tune")
    llvm_config.add_tool_substitutions(["approx-tune"], tool_dirs)
llvm_config.with_environment("PATH", config.approx_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# Features: what of the CUDA toolkit the build found. Tests that need a part
# say REQUIRES: and are reported UNSUPPORTED (and counted) without it.
if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
# The toolkit's headers (cuda.h), beside ptxas's bin directory.
config.substitutions.append(("%cuda_include", os.path.join(
    os.path.dirname(os.path.dirname(config.ptxas or "/nonexistent/bin/ptxas")), "include")))
# nvcc, beside ptxas: approx-cc's output is compared with nvcc's.
if config.ptxas and os.path.exists(os.path.join(os.path.dirname(config.ptxas), "nvcc")):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", os.path.join(os.path.dirname(config.ptxas), "nvcc")))
if config.libdevice and os.path.exists(config.libdevice):
    config.available_features.add("libdevice")
if config.clang and os.path.exists(config.clang):
    # approx-cc's CUDA device compiler (clang++-22).
    config.available_features.add("clang-cuda")
if os.getuid() == 0:
    config.available_features.add("root")
# The short fuzz campaign (test/fuzz/fuzz-short.test) needs both tools;
# APPROX_SKIP_FUZZ=1 leaves it out (it takes up to a minute).
if "approx-tune" in config.available_features and not os.environ.get("APPROX_SKIP_FUZZ"):
    config.available_features.add("fuzz")
