# approx::cli: include/approx/Support/Cli.h over CLI11, the command-line
# library of every approx tool (header-only). CLI11 is Debian's libcli11-dev
# (its CMake package), else a copy of its headers: the GPU machine has no
# libcli11-dev, so scripts/gpu-prepare.sh carries /usr/include/CLI in
# .carry/cli11/CLI, as it carries GoogleTest.
find_package(CLI11 CONFIG QUIET)
if(NOT TARGET CLI11::CLI11)
  find_path(APPROX_CLI11_INCLUDE_DIR CLI/CLI.hpp
    HINTS ${PROJECT_SOURCE_DIR}/.carry/cli11
    DOC "A directory holding CLI11's CLI/CLI.hpp")
  if(NOT APPROX_CLI11_INCLUDE_DIR)
    message(FATAL_ERROR "approx: CLI11 not found; install libcli11-dev or "
      "set APPROX_CLI11_INCLUDE_DIR to a directory holding CLI/CLI.hpp")
  endif()
  add_library(CLI11::CLI11 INTERFACE IMPORTED GLOBAL)
  set_target_properties(CLI11::CLI11 PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES ${APPROX_CLI11_INCLUDE_DIR})
  message(STATUS "approx: CLI11 headers from ${APPROX_CLI11_INCLUDE_DIR}")
else()
  message(STATUS "approx: CLI11 ${CLI11_VERSION}")
endif()

add_library(approx_cli INTERFACE)
add_library(approx::cli ALIAS approx_cli)
target_include_directories(approx_cli INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>)
target_link_libraries(approx_cli INTERFACE CLI11::CLI11)

# approx_add_cli_cases(PREFIX <test name prefix> COMMAND <program and fixed
#   arguments...> [EXPECT_PREFIX <regex>] [EXPECT_SUFFIX <regex>]
#   CASES "<name>|<arg>@<arg>...|<regex>" ...)
# One ctest per case: COMMAND followed by the case's arguments (split at
# '@'), stdout and stderr together, then "rc=<exit status>"; it passes when
# that text matches EXPECT_PREFIX, the case's regex and EXPECT_SUFFIX.
function(approx_add_cli_cases)
  cmake_parse_arguments(ARG "" "PREFIX;EXPECT_PREFIX;EXPECT_SUFFIX" "COMMAND;CASES" ${ARGN})
  foreach(case IN LISTS ARG_CASES)
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 name)
    list(GET parts 1 args)
    list(GET parts 2 expect)
    string(REPLACE "@" ";" args "${args}")
    add_test(NAME ${ARG_PREFIX}${name}
      COMMAND sh -c "\"$0\" \"$@\" 2>&1; echo rc=$?" ${ARG_COMMAND} ${args})
    set_tests_properties(${ARG_PREFIX}${name} PROPERTIES
      PASS_REGULAR_EXPRESSION "${ARG_EXPECT_PREFIX}${expect}${ARG_EXPECT_SUFFIX}")
  endforeach()
endfunction()
