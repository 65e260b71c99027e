# cmake -DDTB=path/to/dtb -DDIR=dir -P make_adjudicate_tables.cmake
# The tables the adjudication tests read: Russian up to 4 pieces,
# international up to 3, and international three kings against one. Made
# afresh when this dtb is newer than them (as make_tables.cmake does), so
# the tests read what this build's generator writes.
set(stamp ${DIR}/generated-by-this-dtb.stamp)
if(EXISTS ${stamp} AND NOT ${DTB} IS_NEWER_THAN ${stamp})
  message(STATUS "${DIR}: tables of this dtb already there")
  return()
endif()
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${DTB} gen --variant russian --pieces 4 --dir ${DIR} --keep-raw OUTPUT_QUIET RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "dtb gen --variant russian --pieces 4 failed: ${status}")
endif()
execute_process(COMMAND ${DTB} gen --variant international --pieces 3 --dir ${DIR} --keep-raw OUTPUT_QUIET RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "dtb gen --variant international --pieces 3 failed: ${status}")
endif()
execute_process(COMMAND ${DTB} gen --variant international --only KKKvK --dir ${DIR} OUTPUT_QUIET
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "dtb gen --variant international --only KKKvK failed: ${status}")
endif()
file(WRITE ${stamp} "russian:4,international:3,international:KKKvK")
