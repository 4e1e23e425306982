//===- OutputFiles.h - a set of output files committed together -*- C++ -*-===//
//
// The compiler's outputs (NAME.ptx, NAME.manifest.json, NAME.cubin, and
// approx-cc's NAME.h and NAME.raised.mlir) are one result: a reader must
// never see the files of two runs mixed, nor half of one. OutputFiles writes
// each file to an exclusive temporary beside its destination, then commit()
// renames them all into place while it holds an exclusive lock on the
// destination directory (flock on the directory itself: no lock file is left
// behind), so two runs writing the same names commit one after the other:
//   - every destination is checked before the first rename (something other
//     than a file in the way is refused with nothing changed);
//   - replaced files are set aside until the last rename succeeded, and put
//     back on any failure;
//   - every temporary not committed is removed when the set is destroyed.
// Errors are one line, returned as a string ("" on success).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_PASSES_OUTPUTFILES_H
#define APPROX_PASSES_OUTPUTFILES_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::approx {

/// Holds an exclusive advisory lock (flock) on a directory while alive.
class DirectoryLock {
public:
  /// Locks `dir`, waiting for another holder; `error` names why not.
  DirectoryLock(llvm::StringRef dir, std::string &error);
  ~DirectoryLock();
  DirectoryLock(const DirectoryLock &) = delete;
  DirectoryLock &operator=(const DirectoryLock &) = delete;

private:
  int fd = -1;
};

class OutputFiles {
public:
  /// Files whose destinations are all in `dir`.
  explicit OutputFiles(llvm::StringRef dir) : dir(dir.str()) {}
  ~OutputFiles();
  OutputFiles(const OutputFiles &) = delete;
  OutputFiles &operator=(const OutputFiles &) = delete;

  /// Creates an empty exclusive temporary for `path` (for a tool to fill);
  /// returns its name, or "" and the reason in `error`.
  std::string reserve(llvm::StringRef path, std::string &error);
  /// Writes `contents` to a fresh exclusive temporary for `path`; returns
  /// an error message or "". `tmpPath` receives the temporary's name.
  std::string write(llvm::StringRef path, llvm::StringRef contents,
                    std::string *tmpPath = nullptr);
  /// Takes the existing file `tmp` (on the destination's file system) as
  /// the temporary of `path`: committed with the others, removed if not.
  void adopt(llvm::StringRef tmp, llvm::StringRef path);
  /// Removes the temporary `tmp` and forgets it (an intermediate file).
  void discard(llvm::StringRef tmp);
  /// Renames every temporary into place, under the directory's lock (see
  /// the file comment); returns an error message or "".
  std::string commit();

private:
  struct File {
    std::string tmp, dest;
  };
  std::string dir;
  llvm::SmallVector<File> files;
};

} // namespace mlir::approx

#endif // APPROX_PASSES_OUTPUTFILES_H
