/* enospc.c - an injected full disk for the write-error tests: preloaded
 * (LD_PRELOAD), write(2) to a regular file whose path contains
 * $ENOSPC_MATCH fails with ENOSPC, as on a full file system. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int matches(int fd) {
  const char *match = getenv("ENOSPC_MATCH");
  struct stat st;
  if (!match || !*match || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    return 0;
  char link[64], path[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path - 1);
  if (n <= 0)
    return 0;
  path[n] = '\0';
  return strstr(path, match) != NULL;
}

ssize_t write(int fd, const void *buf, size_t count) {
  static ssize_t (*real)(int, const void *, size_t);
  if (!real)
    real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
  if (count > 0 && matches(fd)) {
    errno = ENOSPC;
    return -1;
  }
  return real(fd, buf, count);
}
