//===- FileIOTest.cpp - Regular, bounded files only -----------------------===//
//
// readRegularFile on a regular file, its size limit, and on a directory, a
// character device and a FIFO (which must be refused without blocking).
//
//===----------------------------------------------------------------------===//
#include "approx/runtime/core/FileIO.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace approx::rt;

namespace {
std::string makeTempDir() {
  char tmpl[] = "/tmp/approx-fileio-test-XXXXXX";
  char *d = ::mkdtemp(tmpl);
  EXPECT_NE(d, nullptr);
  return d ? d : "/tmp";
}
} // namespace

TEST(FileIO, ReadsRegularFilesWithinTheLimit) {
  std::string dir = makeTempDir();
  std::string f = dir + "/data.bin";
  std::ofstream(f, std::ios::binary) << std::string("ab\0cd", 5);
  Expected<std::string> r = readRegularFile(f, 5, "input file");
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_EQ(*r, std::string("ab\0cd", 5));
  EXPECT_EQ(*regularFileSize(f, "input file"), 5u);
  r = readRegularFile(f, 4, "input file");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().message(),
            "input file '" + f + "' has 5 bytes, more than the limit of 4");
  std::string empty = dir + "/empty";
  std::ofstream(empty).close();
  r = readRegularFile(empty, 0, "input file");
  ASSERT_TRUE(r.isOk());
  EXPECT_TRUE(r->empty());
  EXPECT_EQ(std::system(("rm -rf '" + dir + "'").c_str()), 0);
}

TEST(FileIO, RefusesEverythingElse) {
  std::string dir = makeTempDir();
  Expected<std::string> r = readRegularFile(dir, 100, "manifest");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);
  EXPECT_EQ(r.status().message(),
            "manifest '" + dir + "' is a directory, not a regular file");
  r = readRegularFile("/dev/zero", 100, "input file");
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("is a character device"),
            std::string::npos);
  EXPECT_FALSE(regularFileSize("/dev/null", "input file").isOk());
  std::string fifo = dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  r = readRegularFile(fifo, 100, "input file"); // would block if opened
  ASSERT_FALSE(r.isOk());                       // without O_NONBLOCK
  EXPECT_NE(r.status().message().find("is a FIFO"), std::string::npos);
  r = readRegularFile(dir + "/missing", 100, "input file");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), StatusCode::IoError);
  EXPECT_NE(r.status().message().find("No such file"), std::string::npos);
  r = readRegularFile("", 100, "input file");
  EXPECT_FALSE(r.isOk());
  r = readRegularFile(std::string("a\0b", 3), 100, "input file");
  EXPECT_NE(r.status().message().find("'a\\x00b': the path contains a NUL"),
            std::string::npos);
  EXPECT_EQ(std::system(("rm -rf '" + dir + "'").c_str()), 0);
}
