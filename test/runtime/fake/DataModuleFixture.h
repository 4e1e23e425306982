//===- DataModuleFixture.h - a compiled test-data module, fake driver -*- C++ -*-===//
//
// The fixture of the tests that load one compiled module from test data
// (LnsTableTest, Texture3DTest): a context on the fake driver, a private
// temporary directory holding a copy of `<name>.ptx`, the parsed
// `<name>.manifest.json` to edit, loadWith() to load an edited manifest next
// to the PTX, and teardown checks that no module, allocation, array or
// texture is left.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TEST_RUNTIME_FAKE_DATAMODULEFIXTURE_H
#define APPROX_TEST_RUNTIME_FAKE_DATAMODULEFIXTURE_H

#include "FakeDriver.h"

#include "approx/runtime/core/Runtime.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace approx::rt::fake {

class DataModuleFixture : public ::testing::Test {
protected:
  /// `dataDir` holds `<name>.ptx` and `<name>.manifest.json`.
  DataModuleFixture(std::string dataDir, std::string name)
      : dataDir_(std::move(dataDir)), name_(std::move(name)) {}

  void SetUp() override {
    f.reset();
    Expected<std::shared_ptr<Context>> c = detail::createContext(f.table(), 0);
    ASSERT_TRUE(c.isOk()) << c.status().toString();
    ctx = *c;
    std::string tmpl = "/tmp/approx-" + name_ + "-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir = tmpl;
    std::ofstream(dir + "/" + name_ + ".ptx")
        << readFile(dataDir_ + "/" + name_ + ".ptx");
    manifest = nlohmann::json::parse(
        readFile(dataDir_ + "/" + name_ + ".manifest.json"));
  }
  void TearDown() override {
    ctx.reset();
    EXPECT_EQ(f.liveModules(), 0u);
    EXPECT_EQ(f.liveAllocations(), 0u);
    EXPECT_EQ(f.liveArrays(), 0u);
    EXPECT_EQ(f.liveTextures(), 0u);
    EXPECT_EQ(std::system(("rm -rf '" + dir + "'").c_str()), 0);
  }

  /// Writes `m` as the module's manifest beside its PTX and loads it.
  Expected<std::unique_ptr<Module>> loadWith(const nlohmann::json &m) {
    const std::string path = dir + "/" + name_ + ".manifest.json";
    std::ofstream(path) << m.dump(1);
    return Module::load(ctx, path);
  }

  static std::string readFile(const std::string &path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  FakeDriver &f = FakeDriver::get();
  std::shared_ptr<Context> ctx;
  std::string dir;
  nlohmann::json manifest;

private:
  std::string dataDir_, name_;
};

} // namespace approx::rt::fake

#endif // APPROX_TEST_RUNTIME_FAKE_DATAMODULEFIXTURE_H
