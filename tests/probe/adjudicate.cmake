# Tests of the draw-rule adjudication: dtb_adjudicate (probe/adjudicate.hpp)
# and dtb adjudicate. Their tables (Russian up to 4 pieces, international
# up to 3 and KKKvK) are made by their own fixture.
set(adjudicate_tables ${CMAKE_BINARY_DIR}/probe-tables/adjudicate)
add_test(NAME probe_make_adjudicate_tables COMMAND ${CMAKE_COMMAND}
  -DDTB=$<TARGET_FILE:dtb> -DDIR=${adjudicate_tables} -P ${CMAKE_CURRENT_SOURCE_DIR}/make_adjudicate_tables.cmake)
set_tests_properties(probe_make_adjudicate_tables PROPERTIES FIXTURES_SETUP probe_adjudicate_tables LABELS probe)

foreach(name adjudicate adjudicate_cli)
  probe_test(NAME probe_${name}_test SOURCES ${name}_test.cpp LABELS probe FIXTURE probe_adjudicate_tables)
  target_compile_definitions(probe_${name}_test PRIVATE DTB_ADJUDICATE_TABLES="${adjudicate_tables}"
    DTB_DRAW_GAMES="${PROJECT_SOURCE_DIR}/tests/rules/draw_games")
endforeach()
target_link_libraries(probe_adjudicate_cli_test PRIVATE nlohmann_json::nlohmann_json)
add_dependencies(probe_adjudicate_cli_test dtb)
