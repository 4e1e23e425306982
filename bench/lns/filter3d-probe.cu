// filter3d-probe.cu - what the texture unit's trilinear (3-D) filter computes.
//
// A measurement tool (it found the rule FilterModel.h now states, and checks
// it over every fraction triple), not a test: it reads the eight weights of every
// fraction triple (a, b, c) in 0..255 off one-hot 2x2x2 float4 textures
// (texel n carries 1 in channel n % 4 of texture n / 4, so a fetch returns
// the weights themselves), and the filtered values of random textures at
// random fractions, and writes both as raw files for the host-side fit of
// passes/lns/math's 3-D model:
//
//   weights.bin: int32 w[c][b][a][8] = weight * 2^24 for c in 0, 1, 2, 3,
//                64, 127, 128, 129, 231, 255, then w[d][d][d][8] for d in
//                0..255 (the tool reports whether 2^-24 resolves them, and
//                which candidate rules match all 2^24 triples)
//   random.bin:  per fetch: uint8 a, b, c, pad; float texels[8]; float out
//
//   nvcc -O2 -arch=sm_90 bench/lns/filter3d-probe.cu -o probe && ./probe OUTDIR
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));             \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

struct Tex {
  cudaArray_t array = nullptr;
  cudaTextureObject_t object = 0;
};

/// A 2x2x2 float4 texture, linear filtering, unnormalised, clamp.
static Tex makeTexture(const float *texels /* 8 x float4 */) {
  Tex t;
  cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float4>();
  CHECK(cudaMalloc3DArray(&t.array, &fmt, make_cudaExtent(2, 2, 2)));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr((void *)texels, 2 * sizeof(float4), 2, 2);
  p.dstArray = t.array;
  p.extent = make_cudaExtent(2, 2, 2);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = t.array;
  cudaTextureDesc td = {};
  for (int i = 0; i < 3; ++i)
    td.addressMode[i] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 0;
  CHECK(cudaCreateTextureObject(&t.object, &res, &td, nullptr));
  return t;
}

static void freeTexture(Tex &t) {
  CHECK(cudaDestroyTextureObject(t.object));
  CHECK(cudaFreeArray(t.array));
}

/// out[i] = fetch at fractions packed in abc[i] = a | b << 8 | c << 16.
__global__ void fetch(cudaTextureObject_t tex, const uint32_t *abc, float4 *out,
                      int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  uint32_t v = abc[i];
  float x = 0.5f + float(v & 255) / 256.0f;
  float y = 0.5f + float((v >> 8) & 255) / 256.0f;
  float z = 0.5f + float((v >> 16) & 255) / 256.0f;
  out[i] = tex3D<float4>(tex, x, y, z);
}

static std::vector<float4> run(const Tex &t, const std::vector<uint32_t> &abc) {
  const int n = int(abc.size());
  uint32_t *dAbc;
  float4 *dOut;
  CHECK(cudaMalloc(&dAbc, n * sizeof(uint32_t)));
  CHECK(cudaMalloc(&dOut, n * sizeof(float4)));
  CHECK(cudaMemcpy(dAbc, abc.data(), n * sizeof(uint32_t),
                   cudaMemcpyHostToDevice));
  fetch<<<(n + 255) / 256, 256>>>(t.object, dAbc, dOut, n);
  CHECK(cudaGetLastError());
  std::vector<float4> out(n);
  CHECK(cudaMemcpy(out.data(), dOut, n * sizeof(float4),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dAbc));
  CHECK(cudaFree(dOut));
  return out;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: filter3d-probe OUTDIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# trilinear filter probe on %s\n", prop.name);

  // Weights: one-hot textures, every (a, b, c).
  std::vector<uint32_t> all(1u << 24);
  for (uint32_t i = 0; i < all.size(); ++i)
    all[i] = i; // a = i & 255, b = (i >> 8) & 255, c = i >> 16
  std::vector<int32_t> w(size_t(8) << 24);
  size_t notExact = 0, sumNot1 = 0;
  for (int half = 0; half < 2; ++half) {
    float texels[32] = {};
    for (int n = 0; n < 4; ++n)
      texels[4 * n + n] = 1.0f; // texel n (x + 2y + 4z within the half) -> channel n
    // The half's four texels are the z = half slice; the other slice is 0.
    float full[32] = {};
    for (int k = 0; k < 16; ++k)
      full[16 * half + k] = texels[k];
    Tex t = makeTexture(full);
    std::vector<float4> out = run(t, all);
    freeTexture(t);
    for (size_t i = 0; i < out.size(); ++i) {
      const float v[4] = {out[i].x, out[i].y, out[i].z, out[i].w};
      for (int n = 0; n < 4; ++n) {
        double s = std::ldexp(double(v[n]), 24);
        if (s != std::floor(s))
          ++notExact;
        w[8 * i + 4 * half + n] = int32_t(s);
      }
    }
  }
  for (size_t i = 0; i < all.size(); ++i) {
    int64_t s = 0;
    for (int n = 0; n < 8; ++n)
      s += w[8 * i + n];
    sumNot1 += s != (int64_t(1) << 24);
  }
  std::printf("weights: %zu not multiples of 2^-24, %zu triples whose weights "
              "do not sum to 1\n",
              notExact, sumNot1);
  // Candidate rules, each counted over all 2^24 triples (a triple matches
  // when all eight weights do). Units: 2^-24.
  auto rule = [&](const char *name, auto weights) {
    size_t match = 0;
    for (uint32_t i = 0; i < all.size(); ++i) {
      int a = i & 255, b = (i >> 8) & 255, c = i >> 16;
      int64_t r[8];
      weights(a, b, c, r);
      bool ok = true;
      for (int n = 0; n < 8 && ok; ++n)
        ok = r[n] == w[8 * size_t(i) + n];
      match += ok;
    }
    std::printf("rule %-44s matches %zu of %zu triples\n", name, match,
                all.size());
  };
  auto bilinear = [](int a, int b, int64_t w2[4]) {
    int64_t w11 = (a * b + 128) >> 8;
    w2[0] = 256 - a - b + w11;
    w2[1] = a - w11;
    w2[2] = b - w11;
    w2[3] = w11;
  };
  rule("separable, exact (wa wb wc / 2^24)", [](int a, int b, int c, int64_t *r) {
    for (int n = 0; n < 8; ++n)
      r[n] = int64_t(n & 1 ? a : 256 - a) * (n & 2 ? b : 256 - b) *
             (n & 4 ? c : 256 - c);
  });
  rule("bilinear(a,b) x exact c (2^-16)", [&](int a, int b, int c, int64_t *r) {
    int64_t w2[4];
    bilinear(a, b, w2);
    for (int n = 0; n < 8; ++n)
      r[n] = (w2[n & 3] * (n & 4 ? c : 256 - c)) << 8;
  });
  rule("bilinear(a,b) split by c, rounded half up", [&](int a, int b, int c, int64_t *r) {
    int64_t w2[4];
    bilinear(a, b, w2);
    for (int n = 0; n < 4; ++n) {
      int64_t hi = (w2[n] * c + 128) >> 8;
      r[n + 4] = hi << 16;
      r[n] = (w2[n] - hi) << 16;
    }
  });
  rule("z, then x, then y splits (FilterModel)", [](int a, int b, int c, int64_t *r) {
    const int slice[2] = {256 - c, c};
    for (int z = 0; z < 2; ++z) {
      const int x1 = (slice[z] * a + 128) >> 8, x0 = slice[z] - x1;
      const int y1x1 = (x1 * b + 128) >> 8, y1x0 = (x0 * b + 127) >> 8;
      const int v[4] = {x0 - y1x0, x1 - y1x1, y1x0, y1x1};
      for (int n = 0; n < 4; ++n)
        r[4 * z + n] = int64_t(v[n]) << 16;
    }
  });
  rule("inclusion-exclusion, rounded (first guess)", [](int a, int b, int c, int64_t *r) {
    const int ab = (a * b + 128) >> 8, ac = (a * c + 128) >> 8,
              bc = (b * c + 128) >> 8, abc = (a * b * c + 32768) >> 16;
    int64_t v[8] = {256 - a - b - c + ab + ac + bc - abc, a - ab - ac + abc,
                    b - ab - bc + abc, ab - abc, c - ac - bc + abc,
                    ac - abc, bc - abc, abc};
    for (int n = 0; n < 8; ++n)
      r[n] = v[n] << 16;
  });
  // A subset for the host-side fit: every (a, b) at a few c, and the
  // diagonal a = b = c.
  const int cs[] = {0, 1, 2, 3, 64, 127, 128, 129, 231, 255};
  FILE *f = std::fopen((dir + "/weights.bin").c_str(), "wb");
  if (!f) {
    std::fprintf(stderr, "filter3d-probe: cannot write %s/weights.bin\n",
                 dir.c_str());
    return 1;
  }
  for (int c : cs)
    std::fwrite(&w[size_t(8) * (size_t(c) << 16)], sizeof(int32_t),
                size_t(8) << 16, f);
  for (int d = 0; d < 256; ++d)
    std::fwrite(&w[size_t(8) * (d | d << 8 | d << 16)], sizeof(int32_t), 8, f);
  std::fclose(f);

  // Values: random textures (exponents spread over 2^-8..2^8, both signs)
  // at random fractions, 64 fetches per texture.
  std::mt19937 rng(20261126);
  std::uniform_real_distribution<float> mant(1.0f, 2.0f);
  std::uniform_int_distribution<int> expo(-8, 8), frac(0, 255), sign(0, 1);
  const int textures = 4096, perTexture = 64;
  f = std::fopen((dir + "/random.bin").c_str(), "wb");
  if (!f) {
    std::fprintf(stderr, "filter3d-probe: cannot write %s/random.bin\n",
                 dir.c_str());
    return 1;
  }
  for (int k = 0; k < textures; ++k) {
    float texels[32];
    for (float &x : texels)
      x = (sign(rng) ? -1.0f : 1.0f) * std::ldexp(mant(rng), expo(rng));
    // Every other texture: one exponent for all texels (no alignment loss).
    if (k % 2)
      for (float &x : texels) {
        int e;
        x = std::ldexp(std::frexp(x, &e), 1);
      }
    Tex t = makeTexture(texels);
    std::vector<uint32_t> abc(perTexture);
    for (uint32_t &v : abc)
      v = uint32_t(frac(rng)) | uint32_t(frac(rng)) << 8 |
          uint32_t(frac(rng)) << 16;
    std::vector<float4> out = run(t, abc);
    freeTexture(t);
    for (int i = 0; i < perTexture; ++i) {
      uint8_t head[4] = {uint8_t(abc[i]), uint8_t(abc[i] >> 8),
                         uint8_t(abc[i] >> 16), 0};
      std::fwrite(head, 1, 4, f);
      // Channel 0 of the 8 texels, and channel 0 of the fetch.
      float t8[8];
      for (int n = 0; n < 8; ++n)
        t8[n] = texels[4 * n];
      std::fwrite(t8, sizeof(float), 8, f);
      std::fwrite(&out[i].x, sizeof(float), 1, f);
    }
  }
  std::fclose(f);
  std::printf("wrote %s/weights.bin and %s/random.bin (%d fetches)\n",
              dir.c_str(), dir.c_str(), textures * perTexture);
  return 0;
}
