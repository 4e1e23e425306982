//===- FileIO.h - Reading files that must be regular and bounded -*- C++ -*-===//
//
// A manifest, an image or an input file named on a command line could be a
// directory, a device (/dev/zero never ends), a FIFO (blocks forever) or far
// larger than memory. `readRegularFile` opens without blocking, checks with
// fstat that the file is regular and within a size limit, and only then
// reads it. Errors are one line naming the file.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_CORE_FILEIO_H
#define APPROX_RUNTIME_CORE_FILEIO_H

#include "approx/runtime/core/Status.h"

#include <cstdint>
#include <string>

namespace approx::rt {

/// Reads all of `path`, which must be a regular file of at most `maxBytes`
/// bytes; `what` names the file's role in errors ("manifest", "input file").
/// FIFOs, devices and directories are refused without reading from them.
Expected<std::string> readRegularFile(const std::string &path,
                                      uint64_t maxBytes,
                                      const std::string &what);

/// The size of regular file `path`, refusing anything else as
/// readRegularFile does (without reading it).
Expected<uint64_t> regularFileSize(const std::string &path,
                                   const std::string &what);

} // namespace approx::rt

#endif // APPROX_RUNTIME_CORE_FILEIO_H
