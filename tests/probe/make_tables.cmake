# cmake -DDTB=path/to/dtb -DDIR=dir -DSETS=russian:4,international:3 -P make_tables.cmake
# Removes DIR and generates the named sets into it.
file(REMOVE_RECURSE ${DIR})
string(REPLACE "," ";" sets "${SETS}")
foreach(set ${sets})
  string(REPLACE ":" ";" parts "${set}")
  list(GET parts 0 variant)
  list(GET parts 1 pieces)
  execute_process(COMMAND ${DTB} gen --variant ${variant} --pieces ${pieces} --dir ${DIR}
    OUTPUT_QUIET RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "dtb gen --variant ${variant} --pieces ${pieces} failed: ${status}")
  endif()
endforeach()
