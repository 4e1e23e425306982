//===- Ptxas.cpp - finding and running the CUDA toolkit's ptxas -----------===//
#include "Ptxas.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>
#include <optional>

using namespace llvm;

namespace mlir::approx {

std::string findPtxas(StringRef option) {
  if (!option.empty())
    return option.str();
  if (const char *cuda = std::getenv("CUDA_PATH")) {
    SmallString<256> p(cuda);
    sys::path::append(p, "bin", "ptxas");
    if (sys::fs::can_execute(p))
      return std::string(p);
  }
  if (StringRef(APPROX_DEFAULT_PTXAS).size() &&
      sys::fs::can_execute(APPROX_DEFAULT_PTXAS))
    return APPROX_DEFAULT_PTXAS;
  if (auto p = sys::findProgramByName("ptxas"))
    return *p;
  return "";
}

std::string runPtxas(StringRef ptxas, StringRef chip, StringRef input,
                     StringRef output, StringRef displayName, bool verbose,
                     std::string *log) {
  if (!sys::fs::can_execute(ptxas))
    return "ptxas '" + ptxas.str() + "' is not an executable";
  SmallString<128> logPath;
  if (sys::fs::createTemporaryFile("approx-ptxas", "log", logPath))
    return "cannot create a temporary file for ptxas' log";
  SmallVector<StringRef> args = {ptxas, "-arch", chip};
  if (verbose)
    args.push_back("-v");
  args.append({"-o", output, input});
  std::optional<StringRef> redirects[] = {std::nullopt, logPath.str(),
                                          logPath.str()};
  std::string errMsg;
  int rc = sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                               /*secondsToWait=*/300, 0, &errMsg);
  auto buf = MemoryBuffer::getFile(logPath);
  std::string logText = buf ? (*buf)->getBuffer().trim().str() : "";
  sys::fs::remove(logPath);
  if (log)
    *log = logText;
  if (rc == 0)
    return "";
  // One line: the first line of the log names the first error.
  StringRef first = StringRef(logText).split('\n').first;
  return "ptxas failed on " + displayName.str() + ": " +
         (first.empty() ? errMsg : first.str());
}

std::map<std::string, PtxasEntryInfo> parsePtxasInfo(StringRef log) {
  // ptxas -v prints, per function:
  //   ptxas info    : Compiling entry function 'k' for 'sm_90'
  //   ptxas info    : Function properties for k
  //       0 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
  //   ptxas info    : Used 34 registers, used 0 barriers, 380 bytes cmem[0]
  std::map<std::string, PtxasEntryInfo> info;
  std::string current;
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  auto numberBefore = [](StringRef line, StringRef what) -> std::optional<unsigned> {
    size_t at = line.find(what);
    if (at == StringRef::npos)
      return std::nullopt;
    StringRef head = line.take_front(at).rtrim();
    size_t start = head.find_last_not_of("0123456789");
    StringRef digits =
        start == StringRef::npos ? head : head.drop_front(start + 1);
    unsigned v = 0;
    if (digits.empty() || digits.getAsInteger(10, v))
      return std::nullopt;
    return v;
  };
  for (StringRef line : lines) {
    if (size_t at = line.find("Compiling entry function '");
        at != StringRef::npos) {
      StringRef rest = line.drop_front(at + strlen("Compiling entry function '"));
      current = rest.take_until([](char c) { return c == '\''; }).str();
      info[current];
      continue;
    }
    if (size_t at = line.find("Function properties for ");
        at != StringRef::npos) {
      current = line.drop_front(at + strlen("Function properties for "))
                    .trim()
                    .str();
      continue;
    }
    auto it = info.find(current);
    if (it == info.end())
      continue; // a device function's properties, or another line
    if (auto v = numberBefore(line, " bytes spill stores"))
      it->second.spillStoreBytes = *v;
    if (auto v = numberBefore(line, " bytes spill loads"))
      it->second.spillLoadBytes = *v;
    if (line.contains("Used ") && line.contains(" registers"))
      if (auto v = numberBefore(line, " registers"))
        it->second.registers = *v;
  }
  return info;
}

} // namespace mlir::approx
