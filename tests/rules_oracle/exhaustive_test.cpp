// The count oracle against dtb adjudicate on every position of every table
// up to 4 pieces, both variants (adjudicate_sweep.hpp): label slow, run by
// scripts/slow-tests.sh, not by the everyday test command.
#include "tests/rules_oracle/adjudicate_sweep.hpp"

namespace dtb::oracle_test {
namespace {

// Every position; every combination of counts on the tables up to 3
// pieces, fresh counts and 7 others on those of 4 (all of them would be
// some 400 answers a position); every 1000th answer that DTW leaves open
// searched, at most 500 per table; every 10th still open answered by the
// oracle for the record.
SweepOptions every_position() {
    SweepOptions o;
    o.samples_per_table = 0;
    o.counts_per_position = 8;
    o.all_counts_up_to = 3;
    o.search_nodes = 1000000;
    o.search_every = 1000;
    o.searches_per_table = 500;
    o.judge_every = 10;
    return o;
}

TEST(OracleAgainstAdjudicateEveryPosition, Russian) {
    EXPECT_EQ(sweep_all<Russian>(every_position()).disagreements, 0u);
}
TEST(OracleAgainstAdjudicateEveryPosition, International) {
    EXPECT_EQ(sweep_all<International>(every_position()).disagreements, 0u);
}

}  // namespace
}  // namespace dtb::oracle_test
