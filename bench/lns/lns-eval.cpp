// lns-eval.cpp - sb and db of inputs read from stdin, as the GPU computes
// them with a table (the CPU evaluators of passes/lns/math, which
// lns-bench --only bitexact shows to agree with the GPU bit for bit), one
// "x sb db" line per input. For bench/lns/xlns-check.py.
//
// usage: lns-eval texture2|texture3|texture1|horner K [DEGREE] < inputs
#include "LnsTables.h"

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char **argv) {
  namespace lns = approx::lns;
  if (argc < 3) {
    std::fprintf(
        stderr,
        "usage: lns-eval texture2|texture3|texture1|horner K [DEGREE]\n");
    return 2;
  }
  std::string impl = argv[1];
  unsigned k = unsigned(std::atoi(argv[2]));
  unsigned degree = argc > 3 ? unsigned(std::atoi(argv[3])) : 5;
  lns::LnsTable t;
  std::string error;
  bool ok = impl == "texture2"   ? lns::buildTexture2(k, t, &error)
            : impl == "texture3" ? lns::buildTexture3(k, t, &error)
            : impl == "texture1" ? lns::buildTexture1(k, t, &error)
            : impl == "horner"   ? lns::buildHorner(k, degree, t, &error)
                                 : (error = "unknown impl " + impl, false);
  if (!ok) {
    std::fprintf(stderr, "lns-eval: %s\n", error.c_str());
    return 1;
  }
  float x;
  while (std::scanf("%f", &x) == 1) {
    auto eval = [&](lns::LnsFunction f) {
      return impl == "texture2"   ? lns::evalTexture2(t, k, f, x)
             : impl == "texture3" ? lns::evalTexture3(t, k, f, x)
             : impl == "texture1" ? lns::evalTexture1(t, k, f, x)
                                  : lns::evalHorner(t, k, f, x);
    };
    std::printf("%.9g %.9g %.9g\n", x, eval(lns::LnsFunction::Sb),
                eval(lns::LnsFunction::Db));
  }
  return 0;
}
