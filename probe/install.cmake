# What `cmake --install` puts where, for engines:
#   include/dtb/probe.h                the C API
#   lib/libdtb_probe.a                 the probe with the rules and table-file
#                                      code it uses, in one archive
#   lib/cmake/dtb/dtbConfig.cmake      find_package(dtb) -> target dtb::probe
#   lib/pkgconfig/dtb.pc               pkg-config --cflags --libs dtb
# The archive needs zstd, xxHash and the C++ runtime at link time; both the
# CMake target and dtb.pc say so. It is compiled with this build's flags:
# configure with -DDTB_NATIVE=OFF for a library that runs on other machines.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# One archive of the probe's objects and those of the modules it calls, so
# that an engine links one library and not dtb's internal ones. Unused
# members (the table writer, which needs OpenMP) are never pulled in.
add_library(dtb_probe_install STATIC
  $<TARGET_OBJECTS:dtb_probe_objects> $<TARGET_OBJECTS:dtb_rules> $<TARGET_OBJECTS:dtb_compress>)
set_target_properties(dtb_probe_install PROPERTIES
  OUTPUT_NAME dtb_probe
  EXPORT_NAME probe
  ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/install-lib)  # apart from the in-tree libdtb_probe.a
target_include_directories(dtb_probe_install INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
# Made by dtbConfig.cmake where the package is found.
target_link_libraries(dtb_probe_install INTERFACE $<INSTALL_INTERFACE:dtb::zstd;dtb::xxhash;Threads::Threads>)

install(FILES include/dtb/probe.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dtb)
install(TARGETS dtb_probe_install EXPORT dtbTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/dtb)
install(EXPORT dtbTargets NAMESPACE dtb:: DESTINATION ${config_dir})
configure_package_config_file(dtbConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/dtbConfig.cmake
  INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/dtbConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/dtbConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/dtbConfigVersion.cmake
  DESTINATION ${config_dir})

# dtb.pc finds its prefix from where it lies (${pcfiledir}), so the
# installed tree can be moved or installed with --prefix.
file(RELATIVE_PATH pc_to_prefix /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" pc_to_prefix "${pc_to_prefix}")
configure_file(dtb.pc.in ${CMAKE_CURRENT_BINARY_DIR}/dtb.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/dtb.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
