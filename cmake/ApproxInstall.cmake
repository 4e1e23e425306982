# Installs the compiler libraries, headers and approx-opt as a CMake package:
#   find_package(Approx CONFIG REQUIRED)   # from <prefix>/lib/cmake/approx
#   target_link_libraries(my-frontend PRIVATE Approx::ApproxPasses)
# test/consumer builds an out-of-tree frontend against an installed copy.
include(CMakePackageConfigHelpers)

foreach(lib ApproxDialect ApproxPasses ApproxCAPI)
  target_include_directories(${lib} INTERFACE
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
endforeach()

install(TARGETS ApproxDialect ApproxPasses ApproxCAPI approx_lns_math
  EXPORT ApproxTargets
  ARCHIVE DESTINATION lib LIBRARY DESTINATION lib)
install(DIRECTORY include/approx include/approx-c DESTINATION include
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/approx DESTINATION include
  FILES_MATCHING PATTERN "*.inc")
install(EXPORT ApproxTargets NAMESPACE Approx:: DESTINATION lib/cmake/approx)

configure_package_config_file(cmake/ApproxConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lib/cmake/approx/ApproxConfig.cmake
  INSTALL_DESTINATION lib/cmake/approx)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/lib/cmake/approx/ApproxConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/lib/cmake/approx/ApproxConfig.cmake
              ${PROJECT_BINARY_DIR}/lib/cmake/approx/ApproxConfigVersion.cmake
  DESTINATION lib/cmake/approx)
