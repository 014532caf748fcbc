#include "import/rank_from_name.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

TEST(RankFromName, RecognisesEngineNamingSchemes) {
  EXPECT_EQ(rank_from_file_name("/tmp/1730000000-TP-3.trace.json.gz"), 3);
  EXPECT_EQ(rank_from_file_name("tp2_mlp_decode_rank1.json.gz"), 1);
  EXPECT_EQ(rank_from_file_name("worker_rank_12.pt.trace.json"), 12);
  EXPECT_EQ(rank_from_file_name("dir_rank9/rank-4.json"), 4);
  EXPECT_EQ(rank_from_file_name("decode_step.json"), std::nullopt);
  EXPECT_EQ(rank_from_file_name("frank5.json"), std::nullopt);
}

}  // namespace
}  // namespace cuprobe
