# cmake -DDTB=path/to/dtb -DDIR=dir -DSETS=russian:4,international:3 -P make_tables.cmake
# Generates the named sets into DIR afresh, unless DIR already holds what
# this very dtb program generated (its stamp is newer than the program):
# every change to the generator relinks dtb, and then the tables are made
# again, so the tests always read what this build writes.
# -DDTC=ON adds the .dtc tables (dtb gen --dtc); -DFORMAT=3 writes table
# format 3 (dtb gen --format 3); -DCOPY_FROM=dir starts from
# the files another run of this script made (the .dtc work alone is new).
set(stamp ${DIR}/generated-by-this-dtb.stamp)
set(what "${SETS}")
set(extra)
if(DTC)
  set(what "${what} dtc")
  list(APPEND extra --dtc)
endif()
if(FORMAT)
  set(what "${what} format ${FORMAT}")
  list(APPEND extra --format ${FORMAT})
endif()
if(EXISTS ${stamp} AND NOT ${DTB} IS_NEWER_THAN ${stamp})
  file(READ ${stamp} made)
  if(made STREQUAL "${what}")
    message(STATUS "${DIR}: tables of this dtb already there")
    return()
  endif()
endif()
file(REMOVE_RECURSE ${DIR})
if(COPY_FROM)
  file(GLOB made ${COPY_FROM}/*)
  file(MAKE_DIRECTORY ${DIR})
  file(COPY ${made} DESTINATION ${DIR})
  file(REMOVE ${DIR}/generated-by-this-dtb.stamp)
endif()
string(REPLACE "," ";" sets "${SETS}")
foreach(set ${sets})
  string(REPLACE ":" ";" parts "${set}")
  list(GET parts 0 variant)
  list(GET parts 1 pieces)
  execute_process(COMMAND ${DTB} gen --variant ${variant} --pieces ${pieces} --dir ${DIR} --keep-raw ${extra}
    OUTPUT_QUIET RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "dtb gen --variant ${variant} --pieces ${pieces} failed: ${status}")
  endif()
endforeach()
file(WRITE ${stamp} "${what}")
