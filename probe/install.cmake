# What `cmake --install` puts where, for engines:
#   include/dtb/probe.h                the C API
#   lib/libdtb_probe.a                 the probe with the rules, table-file
#                                      and table-contract code it uses, in
#                                      one archive
#   lib/cmake/dtb/dtbConfig.cmake      find_package(dtb) -> target dtb::probe
#                                      (and dtb::adjudication)
#   lib/pkgconfig/dtb.pc               pkg-config --cflags --libs dtb (both
#                                      libraries)
# The adjudication's header and archive (include/dtb/adjudication.h,
# lib/libdtb_adjudication.a) come from adjudication/install.cmake into the
# same package.
# The archive needs zstd, xxHash and the C++ runtime at link time; both the
# CMake target and dtb.pc say so.
#
# The archive is compiled apart from the in-tree libraries, without
# -march=native: an engine built with it must run on any x86-64 machine,
# not only on the one dtb was built on. DTB_PORTABLE_ARCH (for example
# x86-64-v3) raises the baseline on purpose.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The sources of the layers the probe stands on, as their targets list them.
# The table writer, the whole-table reader and the atomic file writer are left
# out: the probe never writes a file nor reads a table whole (and the writer
# and the whole-table reader need OpenMP).
set(portable_sources)
foreach(layer dtb_rules dtb_compress dtb_tables dtb_probe)
  get_target_property(layer_dir ${layer} SOURCE_DIR)
  get_target_property(layer_sources ${layer} SOURCES)
  foreach(source IN LISTS layer_sources)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY ${layer_dir})
    list(APPEND portable_sources ${source})
  endforeach()
endforeach()
list(FILTER portable_sources EXCLUDE REGEX "/compress/(writer|whole_table|atomic_file)\\.cpp$")

add_library(dtb_probe_install STATIC ${portable_sources})
# Position-independent, so that shared objects link it too: an engine's
# plugin, the Python module (python/).
set_target_properties(dtb_probe_install PROPERTIES
  POSITION_INDEPENDENT_CODE ON
  OUTPUT_NAME dtb_probe
  EXPORT_NAME probe
  ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/install-lib)  # apart from the in-tree libdtb_probe.a
target_include_directories(dtb_probe_install
  PRIVATE ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/include
  INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(dtb_probe_install PRIVATE cxx_std_20)
if(DTB_PORTABLE_ARCH)
  target_compile_options(dtb_probe_install PRIVATE -march=${DTB_PORTABLE_ARCH})
endif()
# Headers only at compile time; the libraries are named below for the
# installed package, where dtbConfig.cmake finds them.
target_include_directories(dtb_probe_install SYSTEM PRIVATE
  $<TARGET_PROPERTY:zstd::libzstd_shared,INTERFACE_INCLUDE_DIRECTORIES>
  $<TARGET_PROPERTY:PkgConfig::XXHASH,INTERFACE_INCLUDE_DIRECTORIES>)
target_link_libraries(dtb_probe_install
  PRIVATE $<BUILD_INTERFACE:dtb_common_options>
  INTERFACE $<INSTALL_INTERFACE:dtb::zstd;dtb::xxhash;Threads::Threads>)

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
