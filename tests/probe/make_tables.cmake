# cmake -DDTB=path/to/dtb -DDIR=dir -DSETS=russian:4,international:3 -P make_tables.cmake
# Generates the named sets into DIR afresh, unless DIR already holds what
# this very dtb program generated (its stamp is newer than the program):
# every change to the generator relinks dtb, and then the tables are made
# again, so the tests always read what this build writes.
set(stamp ${DIR}/generated-by-this-dtb.stamp)
if(EXISTS ${stamp} AND NOT ${DTB} IS_NEWER_THAN ${stamp})
  file(READ ${stamp} made)
  if(made STREQUAL "${SETS}")
    message(STATUS "${DIR}: tables of this dtb already there")
    return()
  endif()
endif()
file(REMOVE_RECURSE ${DIR})
string(REPLACE "," ";" sets "${SETS}")
foreach(set ${sets})
  string(REPLACE ":" ";" parts "${set}")
  list(GET parts 0 variant)
  list(GET parts 1 pieces)
  execute_process(COMMAND ${DTB} gen --variant ${variant} --pieces ${pieces} --dir ${DIR} --keep-raw
    OUTPUT_QUIET RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "dtb gen --variant ${variant} --pieces ${pieces} failed: ${status}")
  endif()
endforeach()
file(WRITE ${stamp} "${SETS}")
