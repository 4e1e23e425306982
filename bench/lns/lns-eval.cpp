// lns-eval.cpp - sb and db of inputs read from stdin, as the GPU computes
// them with a table (the CPU evaluators of passes/lns/math, which
// lns-bench --only bitexact shows to agree with the GPU bit for bit), one
// "x sb db" line per input. For bench/lns/xlns-check.py.
//
// usage: lns-eval texture2|texture3|texture1|horner K [DEGREE] < inputs
// (K and DEGREE decimal; the table builders check their ranges; a bad
// command line is one line and exit status 2, approx/Support/Cli.h)
#include "LnsTables.h"

#include "approx/Support/Cli.h"

#include <cstdio>
#include <string>

int main(int argc, char **argv) {
  namespace lns = approx::lns;
  namespace cli = approx::cli;
  std::string impl;
  unsigned k = 0, degree = 5;
  cli::CommandLine cl{cli::Tool{"lns-eval"},
                      "sb and db of the inputs on stdin, as the GPU computes "
                      "them with a table"};
  cl.required(cl.choice("IMPL", impl,
                        {"texture2", "texture3", "texture1", "horner"},
                        "texture2, texture3, texture1 or horner"));
  cl.required(cl.unsignedInteger("K", k, 0, UINT32_MAX, "segments per unit"));
  cl.unsignedInteger("DEGREE", degree, 0, UINT32_MAX,
                     "horner's degree (default 5)");
  if (int status = cl.parse(argc, argv); status >= 0)
    return status;
  lns::LnsTable t;
  std::string error;
  bool ok = impl == "texture2"   ? lns::buildTexture2(k, t, &error)
            : impl == "texture3" ? lns::buildTexture3(k, t, &error)
            : impl == "texture1" ? lns::buildTexture1(k, t, &error)
                                 : lns::buildHorner(k, degree, t, &error);
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
