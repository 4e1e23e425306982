// run-corpus - approx-cc against nvcc on the corpus that prepare.py built.
//
// For each kernel directory (nvcc.ptx, fast.ptx, ours.ptx, spec.txt) it
// runs four builds on the same inputs: nvcc -O3, nvcc -O3 -use_fast_math,
// approx-cc at lambda = 0 and at lambda = max, and reports
//   - agreement: outputs that differ bit for bit, and the largest distance
//     in ulps, of ours at 0 against nvcc -O3, of fast-math and of ours at
//     max against nvcc -O3, and of ours at max against fast-math;
//   - time: medians of event-timed launches with 95% bootstrap intervals,
//     the four builds interleaved round by round, every buffer restored
//     before each launch, fresh inputs every 10 rounds, at least --rounds
//     rounds and more (up to 10x) until the ratios' intervals are +-1%;
//   - registers and local memory of each build (cuFuncGetAttribute).
// Table on stdout, one JSON object per kernel in --json.
//
//   run-corpus DIR [--only ID,...] [--rounds N] [--json FILE]
#include <cuda.h>

#include "approx/accuracy/Ulp.h"
#include "../JsonText.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const std::string &msg) { throw std::runtime_error(msg); }

void check(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return;
  const char *s = "unknown error";
  cuGetErrorString(r, &s);
  fail(std::string(what) + ": " + s);
}
#define CK(x) check((x), #x)

size_t sizeOf(const std::string &t) {
  if (t == "f32" || t == "i32" || t == "u32")
    return 4;
  if (t == "f64" || t == "i64" || t == "u64")
    return 8;
  if (t == "u8")
    return 1;
  fail("unknown element type '" + t + "'");
}

struct Init {
  std::string kind; // zero, const, uniform, iota
  double a = 0, b = 0;
};

struct Buffer {
  std::string type;
  size_t count = 0;
  bool output = false;
  Init init;
  std::vector<unsigned char> host; // this round's input image
  CUdeviceptr dev = 0;
};

struct Scalar {
  std::string type;
  std::array<unsigned char, 8> bytes{};
};

struct Global {
  std::string name, type;
  size_t count = 0;
  Init init;
  std::vector<unsigned char> host;
};

struct Spec {
  std::string kernel, knob;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1}, shared = 0;
  std::vector<int> argKind; // 0 buffer, 1 scalar, index into the lists below
  std::vector<int> argIndex;
  std::vector<Buffer> buffers;
  std::vector<Scalar> scalars;
  std::vector<Global> globals;
};

Init readInit(std::istringstream &in, const std::string &where) {
  Init i;
  in >> i.kind;
  if (i.kind == "const")
    in >> i.a;
  else if (i.kind == "uniform")
    in >> i.a >> i.b;
  else if (i.kind != "zero" && i.kind != "iota")
    fail(where + ": unknown init '" + i.kind + "'");
  if (in.fail())
    fail(where + ": bad init");
  return i;
}

Spec readSpec(const std::string &path) {
  std::ifstream f(path);
  if (!f)
    fail("cannot read " + path);
  Spec s;
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream in(line);
    std::string key;
    in >> key;
    if (key == "kernel")
      in >> s.kernel;
    else if (key == "knob")
      in >> s.knob;
    else if (key == "grid")
      in >> s.grid[0] >> s.grid[1] >> s.grid[2];
    else if (key == "block")
      in >> s.block[0] >> s.block[1] >> s.block[2];
    else if (key == "shared")
      in >> s.shared;
    else if (key == "buffer") {
      Buffer b;
      std::string dir;
      in >> b.type >> b.count >> dir;
      b.output = dir == "out";
      b.init = readInit(in, path);
      sizeOf(b.type);
      s.argKind.push_back(0);
      s.argIndex.push_back(static_cast<int>(s.buffers.size()));
      s.buffers.push_back(std::move(b));
    } else if (key == "scalar") {
      Scalar sc;
      double v;
      in >> sc.type >> v;
      if (sc.type == "f32") {
        float x = static_cast<float>(v);
        std::memcpy(sc.bytes.data(), &x, 4);
      } else if (sc.type == "f64")
        std::memcpy(sc.bytes.data(), &v, 8);
      else if (sc.type == "i32" || sc.type == "u32") {
        int32_t x = static_cast<int32_t>(static_cast<int64_t>(v));
        std::memcpy(sc.bytes.data(), &x, 4);
      } else if (sc.type == "i64" || sc.type == "u64") {
        int64_t x = static_cast<int64_t>(v);
        std::memcpy(sc.bytes.data(), &x, 8);
      } else
        fail(path + ": unknown scalar type '" + sc.type + "'");
      s.argKind.push_back(1);
      s.argIndex.push_back(static_cast<int>(s.scalars.size()));
      s.scalars.push_back(sc);
    } else if (key == "global") {
      Global g;
      in >> g.name >> g.type >> g.count;
      g.init = readInit(in, path);
      sizeOf(g.type);
      s.globals.push_back(std::move(g));
    } else if (!key.empty())
      fail(path + ": unknown line '" + line + "'");
    if (in.fail())
      fail(path + ": bad line '" + line + "'");
  }
  if (s.kernel.empty())
    fail(path + ": no kernel line");
  return s;
}

// Fills one image; integer types take integer uniforms in [a, b].
void fill(std::vector<unsigned char> &img, const std::string &type, size_t count,
          const Init &init, std::mt19937_64 &rng) {
  img.assign(count * sizeOf(type), 0);
  auto put = [&](size_t i, double v) {
    unsigned char *p = img.data() + i * sizeOf(type);
    if (type == "f32") {
      float x = static_cast<float>(v);
      std::memcpy(p, &x, 4);
    } else if (type == "f64")
      std::memcpy(p, &v, 8);
    else if (type == "i32" || type == "u32") {
      int32_t x = static_cast<int32_t>(static_cast<int64_t>(v));
      std::memcpy(p, &x, 4);
    } else if (type == "i64") {
      int64_t x = static_cast<int64_t>(v);
      std::memcpy(p, &x, 8);
    } else
      *p = static_cast<unsigned char>(static_cast<int64_t>(v));
  };
  bool integer = type[0] != 'f';
  if (init.kind == "zero")
    return;
  for (size_t i = 0; i < count; ++i) {
    if (init.kind == "const")
      put(i, init.a);
    else if (init.kind == "iota")
      put(i, static_cast<double>(i));
    else if (integer)
      put(i, static_cast<double>(std::uniform_int_distribution<int64_t>(
                 static_cast<int64_t>(init.a), static_cast<int64_t>(init.b))(rng)));
    else
      put(i, std::uniform_real_distribution<double>(init.a, init.b)(rng));
  }
}

// maxAbs: the largest absolute difference; maxRef: the largest magnitude
// of the reference output (both for float types), to read maxAbs against.
struct Agreement {
  uint64_t compared = 0, differ = 0, maxUlps = 0;
  double maxAbs = 0, maxRef = 0;
  void add(const Agreement &o) {
    compared += o.compared;
    differ += o.differ;
    maxUlps = std::max(maxUlps, o.maxUlps);
    maxAbs = std::max(maxAbs, o.maxAbs);
    maxRef = std::max(maxRef, o.maxRef);
  }
};

Agreement compare(const std::vector<unsigned char> &x, const std::vector<unsigned char> &y,
                  const std::string &type) {
  Agreement a;
  size_t n = x.size() / sizeOf(type);
  a.compared = n;
  auto value = [&](const unsigned char *p) {
    if (type == "f32") {
      float f;
      std::memcpy(&f, p, 4);
      return static_cast<double>(f);
    }
    double d;
    std::memcpy(&d, p, 8);
    return d;
  };
  bool floating = type == "f32" || type == "f64";
  for (size_t i = 0; i < n; ++i) {
    const unsigned char *p = x.data() + i * sizeOf(type), *q = y.data() + i * sizeOf(type);
    if (floating && std::isfinite(value(q)))
      a.maxRef = std::max(a.maxRef, std::fabs(value(q)));
    if (std::memcmp(p, q, sizeOf(type)) == 0)
      continue;
    if (floating && std::isfinite(value(p)) && std::isfinite(value(q)))
      a.maxAbs = std::max(a.maxAbs, std::fabs(value(p) - value(q)));
    ++a.differ;
    uint64_t u = approx::accuracy::kNaNDistance; // integer types: no ulps
    if (type == "f32") {
      float f, g;
      std::memcpy(&f, p, 4);
      std::memcpy(&g, q, 4);
      u = approx::accuracy::ulpDistance(f, g);
    } else if (type == "f64") {
      double f, g;
      std::memcpy(&f, p, 8);
      std::memcpy(&g, q, 8);
      u = approx::accuracy::ulpDistance(f, g);
    }
    a.maxUlps = std::max(a.maxUlps, u);
  }
  return a;
}

struct Interval {
  double median, lo, hi;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// 95% percentile-bootstrap interval of median(x) / median(y) (y empty:
// of median(x)).
Interval bootstrap(const std::vector<double> &x, const std::vector<double> &y,
                   std::mt19937_64 &rng) {
  auto stat = [&](const std::vector<double> &a, const std::vector<double> &b) {
    return b.empty() ? median(a) : median(a) / median(b);
  };
  std::vector<double> reps;
  std::vector<double> ra(x.size()), rb(y.size());
  for (int r = 0; r < 2000; ++r) {
    for (auto &v : ra)
      v = x[rng() % x.size()];
    for (auto &v : rb)
      v = y[rng() % y.size()];
    reps.push_back(stat(ra, rb));
  }
  std::sort(reps.begin(), reps.end());
  return {stat(x, y), reps[reps.size() * 25 / 1000], reps[reps.size() * 975 / 1000]};
}

constexpr int kBuilds = 4;
const char *kBuildNames[kBuilds] = {"nvcc -O3", "nvcc -use_fast_math", "approx-cc lambda=0",
                                    "approx-cc lambda=max"};

struct Build {
  CUmodule module = nullptr;
  CUfunction fn = nullptr;
  CUdeviceptr knob = 0;
  int lambda = 0;
  int regs = 0, local = 0;
};

struct Runner {
  std::string dir, id;
  Spec spec;
  Build builds[kBuilds];
  int lambdaMax = 0;
  int rounds = 30;
  std::mt19937_64 rng;

  void loadModules() {
    const char *files[kBuilds] = {"nvcc.ptx", "fast.ptx", "ours.ptx", "ours.ptx"};
    for (int b = 0; b < kBuilds; ++b) {
      Build &bd = builds[b];
      if (b == 3) { // the same module as lambda = 0, another knob value
        bd = builds[2];
        bd.lambda = spec.knob == "-" ? 0 : lambdaMax;
        continue;
      }
      std::string path = dir + "/" + files[b];
      CK(cuModuleLoad(&bd.module, path.c_str()));
      if (cuModuleGetFunction(&bd.fn, bd.module, spec.kernel.c_str()) != CUDA_SUCCESS)
        fail(path + " has no kernel " + spec.kernel);
      CK(cuFuncGetAttribute(&bd.regs, CU_FUNC_ATTRIBUTE_NUM_REGS, bd.fn));
      CK(cuFuncGetAttribute(&bd.local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, bd.fn));
      if (spec.shared > 48 * 1024)
        CK(cuFuncSetAttribute(bd.fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                              static_cast<int>(spec.shared)));
      if (b == 2 && spec.knob != "-") {
        size_t size = 0;
        CK(cuModuleGetGlobal(&bd.knob, &size, bd.module, spec.knob.c_str()));
        if (size != 4)
          fail("knob " + spec.knob + " is not 4 bytes");
      }
    }
  }

  void freshInputs() {
    for (Buffer &b : spec.buffers)
      fill(b.host, b.type, b.count, b.init, rng);
    for (Global &g : spec.globals)
      fill(g.host, g.type, g.count, g.init, rng);
  }

  // Restores every buffer and global, sets the knob; not timed.
  void prepare(int b) {
    for (Buffer &buf : spec.buffers)
      CK(cuMemcpyHtoD(buf.dev, buf.host.data(), buf.host.size()));
    for (Global &g : spec.globals) {
      CUdeviceptr p;
      size_t size;
      if (cuModuleGetGlobal(&p, &size, builds[b].module, g.name.c_str()) != CUDA_SUCCESS)
        fail(std::string(kBuildNames[b]) + " has no global " + g.name);
      if (size < g.host.size())
        fail("global " + g.name + " holds " + std::to_string(size) + " bytes, the spec fills " +
             std::to_string(g.host.size()));
      CK(cuMemcpyHtoD(p, g.host.data(), g.host.size()));
    }
    if (builds[b].knob)
      CK(cuMemcpyHtoD(builds[b].knob, &builds[b].lambda, 4));
    CK(cuCtxSynchronize());
  }

  void launch(int b) {
    std::vector<void *> params;
    for (size_t i = 0; i < spec.argKind.size(); ++i)
      params.push_back(spec.argKind[i] == 0
                           ? static_cast<void *>(&spec.buffers[spec.argIndex[i]].dev)
                           : static_cast<void *>(spec.scalars[spec.argIndex[i]].bytes.data()));
    CK(cuLaunchKernel(builds[b].fn, spec.grid[0], spec.grid[1], spec.grid[2], spec.block[0],
                      spec.block[1], spec.block[2], spec.shared, nullptr, params.data(),
                      nullptr));
  }

  std::vector<std::vector<unsigned char>> outputs() {
    std::vector<std::vector<unsigned char>> out;
    for (Buffer &b : spec.buffers)
      if (b.output) {
        out.emplace_back(b.host.size());
        CK(cuMemcpyDtoH(out.back().data(), b.dev, b.host.size()));
      }
    return out;
  }

  std::string run() {
    spec = readSpec(dir + "/spec.txt");
    rng.seed(std::hash<std::string>()(id));
    loadModules();
    for (Buffer &b : spec.buffers)
      CK(cuMemAlloc(&b.dev, b.count * sizeOf(b.type)));

    // Agreement over three fresh inputs.
    enum { OursVsNvcc, FastVsNvcc, MaxVsNvcc, MaxVsFast, Pairs };
    Agreement agree[Pairs];
    for (int rep = 0; rep < 3; ++rep) {
      freshInputs();
      std::vector<std::vector<unsigned char>> out[kBuilds];
      for (int b = 0; b < kBuilds; ++b) {
        prepare(b);
        launch(b);
        CK(cuCtxSynchronize());
        out[b] = outputs();
      }
      size_t o = 0;
      for (Buffer &buf : spec.buffers) {
        if (!buf.output)
          continue;
        agree[OursVsNvcc].add(compare(out[2][o], out[0][o], buf.type));
        agree[FastVsNvcc].add(compare(out[1][o], out[0][o], buf.type));
        agree[MaxVsNvcc].add(compare(out[3][o], out[0][o], buf.type));
        agree[MaxVsFast].add(compare(out[3][o], out[1][o], buf.type));
        ++o;
      }
    }

    // Time: rounds of the four builds, rotated so none always goes first.
    CUevent e0, e1;
    CK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
    CK(cuEventCreate(&e1, CU_EVENT_DEFAULT));
    std::vector<double> t[kBuilds];
    for (int w = 0; w < 3; ++w)
      for (int b = 0; b < kBuilds; ++b) {
        prepare(b);
        launch(b);
      }
    // At least `rounds` rounds, then on until both ratios' 95% intervals
    // are within 1% of their medians, or 10x `rounds`.
    auto tight = [&] {
      Interval a = bootstrap(t[2], t[0], rng), b = bootstrap(t[3], t[1], rng);
      return a.hi - a.lo <= 0.02 * a.median && b.hi - b.lo <= 0.02 * b.median;
    };
    for (int r = 0; r < 10 * rounds && (r < rounds || r % rounds || !tight()); ++r) {
      if (r % 10 == 0)
        freshInputs();
      for (int k = 0; k < kBuilds; ++k) {
        int b = (r + k) % kBuilds;
        prepare(b);
        CK(cuEventRecord(e0, nullptr));
        launch(b);
        CK(cuEventRecord(e1, nullptr));
        CK(cuEventSynchronize(e1));
        float ms;
        CK(cuEventElapsedTime(&ms, e0, e1));
        t[b].push_back(ms);
      }
    }
    CK(cuEventDestroy(e0));
    CK(cuEventDestroy(e1));
    for (Buffer &b : spec.buffers)
      CK(cuMemFree(b.dev));
    for (int b = 0; b < 3; ++b)
      CK(cuModuleUnload(builds[b].module));

    Interval time[kBuilds];
    for (int b = 0; b < kBuilds; ++b)
      time[b] = bootstrap(t[b], {}, rng);
    Interval r0 = bootstrap(t[2], t[0], rng), rmax = bootstrap(t[3], t[1], rng);

    auto pct = [](const Agreement &a) {
      return a.compared ? 100.0 * static_cast<double>(a.differ) / a.compared : 0.0;
    };
    auto ulpText = [](uint64_t u) {
      return u == approx::accuracy::kNaNDistance ? std::string("nan/int") : std::to_string(u);
    };
    std::printf("| %s | %.3f%% (%s) | %.3f%% (%s) | %.3f%% (%s) | %.4f | %.3f [%.3f, %.3f] | "
                "%.4f | %.3f [%.3f, %.3f] | %d/%d/%d |\n",
                id.c_str(), pct(agree[OursVsNvcc]), ulpText(agree[OursVsNvcc].maxUlps).c_str(),
                pct(agree[FastVsNvcc]), ulpText(agree[FastVsNvcc].maxUlps).c_str(),
                pct(agree[MaxVsNvcc]), ulpText(agree[MaxVsNvcc].maxUlps).c_str(),
                time[0].median, r0.median, r0.lo, r0.hi, time[1].median, rmax.median, rmax.lo,
                rmax.hi, builds[0].regs, builds[1].regs, builds[2].regs);
    std::fflush(stdout);

    std::ostringstream js;
    js << "{\"id\":" << jsonString(id) << ",\"kernel\":" << jsonString(spec.kernel)
       << ",\"lambda_max\":" << (spec.knob == "-" ? 0 : lambdaMax) << ",\"rounds\":" << t[0].size()
       << ",\"agreement\":{";
    const char *pairNames[Pairs] = {"ours0_vs_nvcc", "fast_vs_nvcc", "oursmax_vs_nvcc",
                                    "oursmax_vs_fast"};
    for (int p = 0; p < Pairs; ++p)
      js << (p ? "," : "") << "\"" << pairNames[p] << "\":{\"compared\":" << agree[p].compared
         << ",\"differ\":" << agree[p].differ << ",\"max_abs\":" << agree[p].maxAbs
         << ",\"max_reference\":" << agree[p].maxRef << ",\"max_ulps\":"
         << (agree[p].maxUlps == approx::accuracy::kNaNDistance ? std::string("null")
                                            : std::to_string(agree[p].maxUlps))
         << "}";
    js << "},\"builds\":{";
    const char *keys[kBuilds] = {"nvcc", "fast", "ours0", "oursmax"};
    for (int b = 0; b < kBuilds; ++b) {
      js << (b ? "," : "") << "\"" << keys[b] << "\":{\"registers\":" << builds[b].regs
         << ",\"local_bytes\":" << builds[b].local << ",\"ms\":{\"median\":" << time[b].median
         << ",\"lo\":" << time[b].lo << ",\"hi\":" << time[b].hi << "},\"samples_ms\":[";
      for (size_t i = 0; i < t[b].size(); ++i)
        js << (i ? "," : "") << t[b][i];
      js << "]}";
    }
    js << "},\"ratio_ours0_nvcc\":{\"median\":" << r0.median << ",\"lo\":" << r0.lo
       << ",\"hi\":" << r0.hi << "},\"ratio_oursmax_fast\":{\"median\":" << rmax.median
       << ",\"lo\":" << rmax.lo << ",\"hi\":" << rmax.hi << "}}";
    return js.str();
  }
};

} // namespace

int main(int argc, char **argv) {
  std::string dir, only, json;
  int rounds = 30;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "--only" || a == "--rounds" || a == "--json") && i + 1 < argc) {
      std::string v = argv[++i];
      if (a == "--only")
        only = "," + v + ",";
      else if (a == "--json")
        json = v;
      else {
        char *end = nullptr;
        long r = std::strtol(v.c_str(), &end, 10);
        if (*end || r < 5 || r > 100000) {
          std::fprintf(stderr, "run-corpus: --rounds must be an integer in 5..100000\n");
          return 2;
        }
        rounds = static_cast<int>(r);
      }
    } else if (dir.empty() && a[0] != '-')
      dir = a;
    else {
      std::fprintf(stderr, "usage: run-corpus DIR [--only ID,...] [--rounds N] [--json FILE]\n");
      return 2;
    }
  }
  if (dir.empty()) {
    std::fprintf(stderr, "usage: run-corpus DIR [--only ID,...] [--rounds N] [--json FILE]\n");
    return 2;
  }
  std::ifstream index(dir + "/index.txt");
  if (!index) {
    std::fprintf(stderr, "run-corpus: no %s/index.txt (run prepare.py first)\n", dir.c_str());
    return 2;
  }
  std::vector<std::string> ids;
  for (std::string id; std::getline(index, id);)
    if (!id.empty() && (only.empty() || only.find("," + id + ",") != std::string::npos))
      ids.push_back(id);

  try {
    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    char name[256];
    CK(cuDeviceGetName(name, sizeof name, dev));
    int threadsPerSM = 0, driver = 0;
    CK(cuDeviceGetAttribute(&threadsPerSM, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
                            dev));
    CK(cuDriverGetVersion(&driver));
    std::printf("GPU %s, driver API %d, lambda max %d, at least %d timed rounds per build\n\n", name,
                driver, threadsPerSM / 32, rounds);
    std::printf("| kernel | ours0 vs nvcc: differ (max ulps) | fast vs nvcc | oursmax vs nvcc "
                "| nvcc ms | ours0 / nvcc [95%%] | fast ms | oursmax / fast [95%%] | "
                "registers nvcc/fast/ours |\n|---|---|---|---|---|---|---|---|---|\n");
    std::ofstream js;
    if (!json.empty()) {
      js.open(json);
      if (!js)
        throw std::runtime_error("cannot write " + json);
      js << "{\"gpu\":" << jsonString(name) << ",\"driver_api\":" << driver
         << ",\"kernels\":[";
    }
    int failures = 0;
    bool first = true;
    for (const std::string &id : ids) {
      Runner r;
      r.dir = dir + "/" + id;
      r.id = id;
      r.rounds = rounds;
      r.lambdaMax = threadsPerSM / 32;
      try {
        std::string j = r.run();
        if (js.is_open()) {
          js << (first ? "" : ",") << "\n" << j;
          first = false;
        }
      } catch (const std::exception &e) {
        std::printf("| %s | error: %s |\n", id.c_str(), e.what());
        ++failures;
        // A launch failure poisons the context: start a fresh one.
        cuCtxSynchronize();
        CK(cuDevicePrimaryCtxReset(dev));
        CK(cuDevicePrimaryCtxRetain(&ctx, dev));
        CK(cuCtxSetCurrent(ctx));
      }
    }
    if (js.is_open())
      js << "\n]}\n";
    return failures ? 1 : 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "run-corpus: %s\n", e.what());
    return 1;
  }
}
