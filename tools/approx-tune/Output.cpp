//===- Output.cpp - approx-tune's output files ----------------------------===//
#include "Output.h"

#include "CommandLine.h"

#include "approx/runtime/core/Text.h"

#include <cstdio>
#include <ctime>
#include <fstream>

namespace approx::tune {

std::string nowUtc() {
  std::time_t t = std::time(nullptr);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return b;
}

void writeOutputFile(const std::string &path, const std::string &text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  if (!f)
    statusError(rt::ioError("cannot write " + rt::quote(path)));
  std::printf("wrote %s\n", rt::escapeBytes(path).c_str());
}

} // namespace approx::tune
