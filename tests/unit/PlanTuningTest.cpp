// Plan tunings (SCANJIT_PLAN_TUNE, scripts/tune.sh): every key reads back
// from its own text, and a bad token is refused with an error naming it.
#include "compiler/PlanTuning.h"

#include "llvm/Support/Error.h"

#include "gtest/gtest.h"

using namespace scanjit;

namespace {

TEST(PlanTuning, EveryKeyReadsBackFromItsText) {
  const char *text = "threads=256,items=8,lookback=2,unroll=5,stages=3,rows=48,blocks=1024,occupancy=4,"
                     "lookback_warps=2,lookback_slack=2,lookback_rows=512,vector=1,groups=2,pieces=100,tile_rows=96,lane_width=2,"
                     "exact_batch=1,off_grid=1,whole_rows=0,held_shares=1,evict_first=0,lane_runs=1,lanes_on_grid=1,packed_direct=1,reread_shares=1,reread_tiles=0,lazy_start=1,lane_threads=1,"
                     "word_copies=1,piece_spans=0,fitted_panel=1,segmented=0,warp_rows=1";
  auto tuning = parsePlanTuning(text);
  ASSERT_TRUE(bool(tuning)) << llvm::toString(tuning.takeError());
  EXPECT_EQ(tuning->toString(), text);
  EXPECT_FALSE(tuning->empty());
  auto again = parsePlanTuning(tuning->toString());
  ASSERT_TRUE(bool(again));
  EXPECT_EQ(again->toString(), text);
}

TEST(PlanTuning, FlagsTakeZeroAndOneAndTheEmptyTextIsNoTuning) {
  for (const char *flag : {"whole_rows", "held_shares", "evict_first", "lane_threads", "lane_runs", "lanes_on_grid", "packed_direct", "reread_shares", "lazy_start", "word_copies", "piece_spans",
                           "fitted_panel", "segmented", "warp_rows"})
    for (const char *value : {"0", "1"}) {
      const std::string text = std::string(flag) + "=" + value;
      auto tuning = parsePlanTuning(text);
      ASSERT_TRUE(bool(tuning)) << text << ": " << llvm::toString(tuning.takeError());
      EXPECT_EQ(tuning->toString(), text);
      EXPECT_FALSE(tuning->empty()) << text;
    }
  auto none = parsePlanTuning("");
  ASSERT_TRUE(bool(none));
  EXPECT_TRUE(none->empty());
  EXPECT_EQ(none->toString(), "");
}

TEST(PlanTuning, BadTokensAreRefusedByName) {
  for (const char *text : {"threads=100", "threads=0", "vector=3", "fitted_panel=2", "piece_spans=-1", "warp_rows=2", "word_copies=2", "lookback_slack=3", "rows=65",
                           "stages=9", "colour=1", "threads", "groups=x", "lane_width=3", "lane_width=16"}) {
    auto tuning = parsePlanTuning(std::string("items=4,") + text);
    ASSERT_FALSE(bool(tuning)) << text;
    const std::string message = llvm::toString(tuning.takeError());
    EXPECT_NE(message.find(text), std::string::npos) << message;
  }
}

} // namespace
