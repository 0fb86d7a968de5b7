// CommonFactors and ReshapeLeavesDimensionsUnmodified (core/ir/shape.h),
// against the groupings XLA's CommonFactors gives for the same dims.
#include <gtest/gtest.h>

#include "core/ir/shape.h"

namespace hloscope {
namespace {

using Bounds = std::vector<std::pair<int64_t, int64_t>>;

TEST(CommonFactors, SplitsIntoTheFinestEqualProducts) {
  EXPECT_EQ(CommonFactors({2, 8, 96}, {16, 96}), (Bounds{{0, 0}, {2, 1}, {3, 2}}));
  EXPECT_EQ(CommonFactors({16, 96}, {2, 8, 96}), (Bounds{{0, 0}, {1, 2}, {2, 3}}));
  // Equal leading dims are groups of their own.
  EXPECT_EQ(CommonFactors({4, 6, 5}, {4, 30}), (Bounds{{0, 0}, {1, 1}, {3, 2}}));
  // Size-1 dims are split off where they can be.
  EXPECT_EQ(CommonFactors({1, 96}, {96}), (Bounds{{0, 0}, {1, 0}, {2, 1}}));
  EXPECT_EQ(CommonFactors({3, 2}, {3, 2}), (Bounds{{0, 0}, {1, 1}, {2, 2}}));
  // A zero-sized tail is one group; different tail products make one group
  // of everything.
  EXPECT_EQ(CommonFactors({2, 3, 0}, {2, 0}), (Bounds{{0, 0}, {1, 1}, {3, 2}}));
  EXPECT_EQ(CommonFactors({2, 0, 3}, {2, 0}), (Bounds{{0, 0}, {3, 2}}));
  EXPECT_EQ(CommonFactors({2, 3}, {7}), (Bounds{{0, 0}, {2, 1}}));
  // Products that overflow are not multiplied out.
  const int64_t big = int64_t{1} << 40;
  EXPECT_EQ(CommonFactors({big, big, 0}, {0}), (Bounds{{0, 0}, {3, 1}}));
}

TEST(ReshapeLeavesDimensionsUnmodified, MapsWholeDimsAndRefusesMergedOnes) {
  // A bias broadcast along the last dim survives [2,8,96] → [16,96].
  EXPECT_EQ(ReshapeLeavesDimensionsUnmodified({2, 8, 96}, {16, 96}, {2}), (std::vector<int64_t>{1}));
  EXPECT_EQ(ReshapeLeavesDimensionsUnmodified({16, 96}, {2, 8, 96}, {1}), (std::vector<int64_t>{2}));
  EXPECT_EQ(ReshapeLeavesDimensionsUnmodified({1, 96}, {96}, {1}), (std::vector<int64_t>{0}));
  EXPECT_EQ(ReshapeLeavesDimensionsUnmodified({2, 8, 96}, {2, 8, 96}, {0, 2}), (std::vector<int64_t>{0, 2}));
  // Dim 1 merges with dim 0.
  EXPECT_EQ(ReshapeLeavesDimensionsUnmodified({2, 8, 96}, {16, 96}, {1, 2}), std::nullopt);
  EXPECT_EQ(ReshapeLeavesDimensionsUnmodified({2, 8, 96}, {2, 768}, {2}), std::nullopt);
  // Different element counts: no reshape at all.
  EXPECT_EQ(ReshapeLeavesDimensionsUnmodified({2, 3}, {7}, {0}), std::nullopt);
  EXPECT_EQ(ReshapeLeavesDimensionsUnmodified({2, 3}, {3, 2}, {}), (std::vector<int64_t>{}));
}

TEST(ReshapeIsBitcastBetween, RowMajorShapesOfEqualCountsOnly) {
  auto s = [](std::vector<int64_t> dims, std::vector<int64_t> m2m) {
    Shape x(PrimitiveType::kF32, std::move(dims));
    if (!m2m.empty()) x.set_layout(Layout{m2m});
    return x;
  };
  // The tree reduction's reshape of a full reduce: [512,128256] as [4096,16032].
  EXPECT_TRUE(ReshapeIsBitcastBetween(s({512, 128256}, {1, 0}), s({4096, 16032}, {1, 0})));
  EXPECT_TRUE(ReshapeIsBitcastBetween(s({8, 6}, {}), s({48}, {0})));
  // Size-1 dims may sit anywhere in the layout.
  EXPECT_TRUE(ReshapeIsBitcastBetween(s({1, 8, 6}, {0, 2, 1}), s({48}, {0})));
  EXPECT_FALSE(ReshapeIsBitcastBetween(s({1, 8, 6}, {1, 2, 0}), s({48}, {0})));  // 8 minor to 6
  EXPECT_FALSE(ReshapeIsBitcastBetween(s({8, 6}, {}), s({47}, {})));          // counts differ
  EXPECT_FALSE(ReshapeIsBitcastBetween(s({8, 6}, {0, 1}), s({48}, {0})));    // column-major
  EXPECT_FALSE(ReshapeIsBitcastBetween(s({2, 3, 8}, {2, 0, 1}), s({6, 8}, {1, 0})));
}

}  // namespace
}  // namespace hloscope
