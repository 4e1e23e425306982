//===- OutputFiles.cpp - a set of output files committed together --------===//
//
// See approx/Passes/OutputFiles.h.
//
//===----------------------------------------------------------------------===//
#include "approx/Passes/OutputFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

using namespace mlir::approx;
using llvm::SmallString;
using llvm::StringRef;

DirectoryLock::DirectoryLock(StringRef dir, std::string &error) {
  std::string path = dir.empty() ? "." : dir.str();
  fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot lock '" + path + "': " + std::strerror(errno);
    return;
  }
  int rc;
  do
    rc = ::flock(fd, LOCK_EX);
  while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    error = "cannot lock '" + path + "': " + std::strerror(errno);
    ::close(fd);
    fd = -1;
  }
}

DirectoryLock::~DirectoryLock() {
  if (fd >= 0)
    ::close(fd); // releases the lock
}

OutputFiles::~OutputFiles() {
  for (File &f : files)
    llvm::sys::fs::remove(f.tmp);
}

std::string OutputFiles::reserve(StringRef path, std::string &error) {
  SmallString<256> model(path);
  model += ".tmp-%%%%%%%%";
  int fd = -1;
  SmallString<256> tmp;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, fd, tmp)) {
    error = "cannot create a temporary for '" + path.str() +
            "': " + ec.message();
    return "";
  }
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  files.push_back({tmp.str().str(), path.str()});
  return tmp.str().str();
}

std::string OutputFiles::write(StringRef path, StringRef contents,
                               std::string *tmpPath) {
  SmallString<256> model(path);
  model += ".tmp-%%%%%%%%";
  int fd = -1;
  SmallString<256> tmp;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, fd, tmp))
    return "cannot write '" + path.str() + "': " + ec.message();
  files.push_back({tmp.str().str(), path.str()});
  if (tmpPath)
    *tmpPath = tmp.str().str();
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << contents;
  os.close();
  if (os.has_error()) {
    std::string why = os.error().message();
    // A stream destroyed with its error set is a fatal error in LLVM.
    os.clear_error();
    return "cannot write '" + path.str() + "': " + why;
  }
  return "";
}

void OutputFiles::adopt(StringRef tmp, StringRef path) {
  files.push_back({tmp.str(), path.str()});
}

void OutputFiles::discard(StringRef tmp) {
  llvm::sys::fs::remove(tmp);
  llvm::erase_if(files, [&](const File &f) { return f.tmp == tmp; });
}

std::string OutputFiles::commit() {
  std::string error;
  DirectoryLock lock(dir, error);
  if (!error.empty())
    return error;
  for (File &f : files) {
    llvm::sys::fs::file_status st;
    if (llvm::sys::fs::status(f.dest, st, /*follow=*/false))
      continue; // does not exist
    if (st.type() != llvm::sys::fs::file_type::regular_file &&
        st.type() != llvm::sys::fs::file_type::symlink_file)
      return "cannot write '" + f.dest +
             "': something other than a file is in the way";
  }
  llvm::SmallVector<std::pair<std::string, std::string>> asides; // backup, dest
  llvm::SmallVector<std::string> placed;
  auto rollback = [&] {
    for (const std::string &dest : placed)
      llvm::sys::fs::remove(dest);
    for (auto &[backup, dest] : asides)
      llvm::sys::fs::rename(backup, dest);
  };
  for (File &f : files) {
    if (llvm::sys::fs::exists(f.dest) || llvm::sys::fs::is_symlink_file(f.dest)) {
      SmallString<256> model(f.dest);
      model += ".old-%%%%%%%%";
      SmallString<256> backup;
      if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, backup)) {
        rollback();
        return "cannot set aside '" + f.dest + "': " + ec.message();
      }
      if (std::error_code ec = llvm::sys::fs::rename(f.dest, backup)) {
        llvm::sys::fs::remove(backup);
        rollback();
        return "cannot write '" + f.dest + "': " + ec.message();
      }
      asides.emplace_back(backup.str().str(), f.dest);
    }
    if (std::error_code ec = llvm::sys::fs::rename(f.tmp, f.dest)) {
      rollback();
      return "cannot write '" + f.dest + "': " + ec.message();
    }
    placed.push_back(f.dest);
  }
  for (auto &[backup, dest] : asides)
    llvm::sys::fs::remove(backup);
  files.clear();
  return "";
}
