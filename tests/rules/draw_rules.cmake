# The move-count draw rules and their counts (rules/draw_rules.hpp,
# rules/draw_tracker.hpp); the games they replay are in draw_games/.
dtb_add_test(NAME rules_draw_rules_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/draw_rules_test.cpp LIBS dtb::rules
  LABELS rules)
target_compile_definitions(rules_draw_rules_test PRIVATE DTB_DRAW_GAMES="${CMAKE_CURRENT_SOURCE_DIR}/draw_games")
