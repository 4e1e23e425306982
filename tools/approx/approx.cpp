//===- approx.cpp - One command for every tuner ---------------------------===//
//
// `approx SUBCOMMAND ...`: the user's one entry point. `approx tune` is the
// joint tuner over every knob of a kernel (approx-tune --joint;
// docs/tuning.md); the single-technique tuners stay reachable, unchanged,
// as subcommands, so nothing a user could do before is lost:
//   tune              approx-tune --joint   (all knobs, one bound)
//   tune-lambda       approx-tune           (the SFU lambda: HEU/SMP/OMG)
//   tune-perforation  approx-perforation-tune
//   scale             approx-scale          (precision scaling of a program)
// Each is exec'ed from this binary's own directory with the remaining
// arguments, so its options, exit statuses and messages are the tool's.
//
//===----------------------------------------------------------------------===//
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

struct Subcommand {
  const char *name, *tool, *extra, *what;
};
const Subcommand kSubcommands[] = {
    {"tune", "approx-tune", "--joint",
     "search every knob of a kernel together under one error bound"},
    {"tune-lambda", "approx-tune", nullptr,
     "tune the SFU split's lambda alone (HEU, SMP, OMG)"},
    {"tune-perforation", "approx-perforation-tune", nullptr,
     "choose a perforation scheme and block shape"},
    {"scale", "approx-scale", nullptr,
     "choose storage types of a whole program's memory objects"},
};

int usage(FILE *to) {
  std::fprintf(to, "usage: approx SUBCOMMAND [options]   (approx SUBCOMMAND "
                   "--help for its options)\n\nsubcommands:\n");
  for (const Subcommand &s : kSubcommands)
    std::fprintf(to, "  %-17s %s (%s%s%s)\n", s.name, s.what, s.tool,
                 s.extra ? " " : "", s.extra ? s.extra : "");
  return to == stdout ? 0 : 1;
}

std::string ownDirectory() {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return "";
  std::string p(buf, size_t(n));
  size_t slash = p.rfind('/');
  return slash == std::string::npos ? "." : p.substr(0, slash);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    return usage(stderr);
  std::string sub = argv[1];
  if (sub == "--help" || sub == "-h" || sub == "help")
    return usage(stdout);
  for (const Subcommand &s : kSubcommands) {
    if (sub != s.name)
      continue;
    std::string dir = ownDirectory();
    if (dir.empty()) {
      std::fprintf(stderr, "approx: cannot find its own directory "
                           "(/proc/self/exe)\n");
      return 2;
    }
    std::string path = dir + "/" + s.tool;
    std::vector<char *> args;
    args.push_back(const_cast<char *>(s.tool));
    if (s.extra)
      args.push_back(const_cast<char *>(s.extra));
    for (int i = 2; i < argc; ++i)
      args.push_back(argv[i]);
    args.push_back(nullptr);
    ::execv(path.c_str(), args.data());
    std::fprintf(stderr, "approx: cannot run %s: %s\n", path.c_str(),
                 std::strerror(errno));
    return 2;
  }
  std::string shown;
  for (char c : sub)
    shown += (c >= 0x20 && c < 0x7f) ? std::string(1, c) : std::string("?");
  std::fprintf(stderr, "approx: unknown subcommand '%s' (tune, tune-lambda, "
                       "tune-perforation, scale; see approx --help)\n",
               shown.c_str());
  return 1;
}
