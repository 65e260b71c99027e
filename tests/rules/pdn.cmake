# The PDN game reader and writer (rules/pdn.hpp).
dtb_add_test(NAME rules_pdn_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/pdn_test.cpp LIBS dtb::rules LABELS rules)
