# approx_find_gtest(WHO): GoogleTest for the unit tests of directory WHO.
# Installed (found again in each directory: imported targets are per
# directory), else built once from a source tree (the GPU machine: .carry/
# googletest, or /usr/src/googletest); the first directory to build it
# defines the global GTest::gtest aliases the others reuse.
macro(approx_find_gtest who)
  if(NOT TARGET GTest::gtest)
    find_package(GTest CONFIG QUIET)
    if(NOT GTest_FOUND)
      find_package(GTest QUIET)
    endif()
  endif()
  if(NOT TARGET GTest::gtest)
    find_path(APPROX_GTEST_SOURCE_DIR googletest/CMakeLists.txt
      HINTS ${CMAKE_SOURCE_DIR}/.carry/googletest /usr/src/googletest
      NO_DEFAULT_PATH
      DOC "A GoogleTest source tree (holding googletest/CMakeLists.txt)")
    if(NOT APPROX_GTEST_SOURCE_DIR)
      message(FATAL_ERROR "approx ${who} tests: GoogleTest not found; install "
        "libgtest-dev/googletest or set APPROX_GTEST_SOURCE_DIR")
    endif()
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
    add_subdirectory(${APPROX_GTEST_SOURCE_DIR}
      ${CMAKE_CURRENT_BINARY_DIR}/googletest EXCLUDE_FROM_ALL)
    # GoogleTest >= 1.11 defines these aliases itself.
    if(NOT TARGET GTest::gtest)
      add_library(GTest::gtest ALIAS gtest)
      add_library(GTest::gtest_main ALIAS gtest_main)
    endif()
  endif()
  include(GoogleTest)
endmacro()
