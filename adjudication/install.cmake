# What `cmake --install` adds for the adjudication, beside the probe's
# package (probe/install.cmake, whose dtbConfig.cmake and dtb.pc name it too):
#   include/dtb/adjudication.h         the C API
#   lib/libdtb_adjudication.a          the judge, its words and its C calls
#   find_package(dtb)                  -> target dtb::adjudication (links dtb::probe)
#   pkg-config --libs dtb              -ldtb_adjudication before -ldtb_probe
# A portable build (no -march=native) of the sources of the C API only:
# facade.hpp's functions are the dtb program's, not an engine's.
include(GNUInstallDirs)

set(adjudication_portable_sources c_api.cpp c_ruling.cpp ruling_text.cpp)
list(TRANSFORM adjudication_portable_sources PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/)

add_library(dtb_adjudication_install STATIC ${adjudication_portable_sources})
set_target_properties(dtb_adjudication_install PROPERTIES
  POSITION_INDEPENDENT_CODE ON
  OUTPUT_NAME dtb_adjudication
  EXPORT_NAME adjudication
  ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/install-lib)  # apart from the in-tree libdtb_adjudication.a
target_include_directories(dtb_adjudication_install
  PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/probe/include ${CMAKE_CURRENT_SOURCE_DIR}/include
  INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(dtb_adjudication_install PRIVATE cxx_std_20)
if(DTB_PORTABLE_ARCH)
  target_compile_options(dtb_adjudication_install PRIVATE -march=${DTB_PORTABLE_ARCH})
endif()
target_include_directories(dtb_adjudication_install SYSTEM PRIVATE
  $<TARGET_PROPERTY:zstd::libzstd_shared,INTERFACE_INCLUDE_DIRECTORIES>
  $<TARGET_PROPERTY:PkgConfig::XXHASH,INTERFACE_INCLUDE_DIRECTORIES>)
target_link_libraries(dtb_adjudication_install
  PRIVATE $<BUILD_INTERFACE:dtb_common_options>
  PUBLIC dtb_probe_install)

install(FILES include/dtb/adjudication.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dtb)
install(TARGETS dtb_adjudication_install EXPORT dtbTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
