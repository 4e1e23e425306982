//===- FileIO.cpp - open(O_NONBLOCK) + fstat before any read ---------------===//
//
// O_NONBLOCK makes open() of a FIFO with no writer return at once instead of
// waiting; fstat on the descriptor (not the path) then decides, so the file
// checked is the file read.
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/FileIO.h"

#include "approx/runtime/core/Text.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace approx::rt {

namespace {

/// Owns one file descriptor.
class Fd {
public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0)
      ::close(fd_);
  }
  Fd(const Fd &) = delete;
  Fd &operator=(const Fd &) = delete;
  int get() const { return fd_; }

private:
  int fd_;
};

const char *kindOf(mode_t m) {
  if (S_ISDIR(m))
    return "a directory";
  if (S_ISCHR(m))
    return "a character device";
  if (S_ISBLK(m))
    return "a block device";
  if (S_ISFIFO(m))
    return "a FIFO";
  if (S_ISSOCK(m))
    return "a socket";
  return "a special file";
}

/// Opens `path` and checks it is a regular file; returns the descriptor and
/// its size.
Status openRegular(const std::string &path, const std::string &what,
                   int &fdOut, uint64_t &size) {
  fdOut = -1;
  if (path.empty())
    return invalidArgument(what + ": empty path");
  if (path.find('\0') != std::string::npos)
    return invalidArgument(what + " " + quote(path) +
                           ": the path contains a NUL byte");
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return ioError("cannot open " + what + " " + quote(path) + ": " +
                   std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    return ioError("cannot stat " + what + " " + quote(path) + ": " +
                   std::strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return invalidArgument(what + " " + quote(path) + " is " +
                           kindOf(st.st_mode) + ", not a regular file");
  }
  fdOut = fd;
  size = uint64_t(st.st_size);
  return Status::ok();
}

} // namespace

Expected<uint64_t> regularFileSize(const std::string &path,
                                   const std::string &what) {
  int fd = -1;
  uint64_t size = 0;
  APPROX_RETURN_IF_ERROR(openRegular(path, what, fd, size));
  Fd owner(fd);
  return size;
}

static Expected<std::string> readOpen(int fd, uint64_t size,
                                      const std::string &path,
                                      const std::string &what);

Expected<std::string> readRegularFile(const std::string &path,
                                      uint64_t maxBytes,
                                      const std::string &what) {
  int fd = -1;
  uint64_t size = 0;
  APPROX_RETURN_IF_ERROR(openRegular(path, what, fd, size));
  Fd owner(fd);
  if (size > maxBytes)
    return invalidArgument(what + " " + quote(path) + " has " +
                           std::to_string(size) +
                           " bytes, more than the limit of " +
                           std::to_string(maxBytes));
  try {
    return readOpen(fd, size, path, what);
  } catch (const std::bad_alloc &) {
    return Status(StatusCode::OutOfMemory,
                  "out of host memory reading " + what + " " + quote(path) +
                      " (" + std::to_string(size) + " bytes)");
  }
}

static Expected<std::string> readOpen(int fd, uint64_t size,
                                      const std::string &path,
                                      const std::string &what) {
  // Regular files ignore O_NONBLOCK. Read the size fstat gave; a file that
  // shrinks or grows meanwhile is an error, not a partial read.
  std::string data(size_t(size), '\0');
  uint64_t got = 0;
  while (got < size) {
    ssize_t r = ::read(fd, &data[size_t(got)], size_t(size - got));
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0)
      return ioError("cannot read " + what + " " + quote(path) + ": " +
                     std::strerror(errno));
    if (r == 0)
      break;
    got += uint64_t(r);
  }
  char probe;
  ssize_t extra;
  do {
    extra = ::read(fd, &probe, 1);
  } while (extra < 0 && errno == EINTR);
  if (got != size || extra > 0)
    return ioError(what + " " + quote(path) +
                   " changed size while being read");
  return data;
}

} // namespace approx::rt
