// The runtime's own data movement of collectives between devices, on values
// worked out by hand (not against the interpreter, which the CPU run on
// devices is compared with), and the rendezvous's errors.
#include "core/runtime/collective_exchange.h"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "core/parser/parser.h"

namespace hloscope::runtime {
namespace {

Literal Values(const std::string& shape, const std::vector<double>& v) {
  auto s = ParseShape(shape);
  EXPECT_TRUE(s.ok()) << shape;
  Shape logical = *s;
  logical.set_layout(std::nullopt);
  Literal l(logical);
  for (size_t i = 0; i < v.size(); ++i) {
    if (IsFloat(logical.element_type())) {
      l.SetDouble(static_cast<int64_t>(i), v[i]);
    } else {
      l.SetInt(static_cast<int64_t>(i), static_cast<int64_t>(v[i]));
    }
  }
  return l;
}

std::vector<double> Of(const Literal& l) {
  std::vector<double> out;
  for (int64_t i = 0; i < l.num_elements(); ++i)
    out.push_back(IsFloat(l.shape().element_type()) ? l.GetDouble(i) : static_cast<double>(l.GetInt(i)));
  return out;
}

CollectiveThunk Thunk(const std::string& op, const std::string& operand, const std::string& result,
                      std::vector<int64_t> dims = {}, const std::string& reducer = "") {
  CollectiveThunk c;
  c.op = op;
  c.instruction = op;
  c.operands = {Slice{0, 0, 0}};
  c.results = {Slice{0, 0, 0}};
  c.operand_shapes = {operand};
  c.result_shapes = {result};
  c.dimensions = std::move(dims);
  c.reduction_kind = reducer;
  c.reduction = reducer.empty() ? "" : "r";
  c.device_groups = {{0, 1}};
  return c;
}

std::vector<std::vector<Literal>> Exchange(const CollectiveThunk& c, std::vector<Literal> a, std::vector<Literal> b) {
  std::vector<std::vector<Literal>> members{std::move(a), std::move(b)};
  auto r = ExchangeInGroup(c, {0, 1}, members);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(*r) : std::vector<std::vector<Literal>>{};
}

TEST(CollectiveExchange, AllToAllSendsPieceJToMemberJ) {
  auto c = Thunk("all-to-all", "f32[2,4]", "f32[2,4]", {1});
  auto r = Exchange(c, {Values("f32[2,4]", {0, 1, 2, 3, 4, 5, 6, 7})},
                    {Values("f32[2,4]", {10, 11, 12, 13, 14, 15, 16, 17})});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(Of(r[0][0]), (std::vector<double>{0, 1, 10, 11, 4, 5, 14, 15}));
  EXPECT_EQ(Of(r[1][0]), (std::vector<double>{2, 3, 12, 13, 6, 7, 16, 17}));
}

TEST(CollectiveExchange, AllGatherAndReduceScatterAlongAnInnerDimension) {
  auto g = Thunk("all-gather", "f32[2,2]", "f32[2,4]", {1});
  auto r = Exchange(g, {Values("f32[2,2]", {0, 1, 2, 3})}, {Values("f32[2,2]", {10, 11, 12, 13})});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(Of(r[0][0]), (std::vector<double>{0, 1, 10, 11, 2, 3, 12, 13}));
  EXPECT_EQ(Of(r[1][0]), Of(r[0][0]));
  auto s = Thunk("reduce-scatter", "f32[2,4]", "f32[2,2]", {1}, "add");
  r = Exchange(s, {Values("f32[2,4]", {0, 1, 2, 3, 4, 5, 6, 7})}, {Values("f32[2,4]", {1, 1, 1, 1, 2, 2, 2, 2})});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(Of(r[0][0]), (std::vector<double>{1, 2, 6, 7}));
  EXPECT_EQ(Of(r[1][0]), (std::vector<double>{3, 4, 8, 9}));
}

TEST(CollectiveExchange, ReducersInTheElementType) {
  // s8 wraps; u32 compares unsigned; max propagates NaN; bf16 rounds each step.
  auto r = Exchange(Thunk("all-reduce", "s8[2]", "s8[2]", {}, "add"), {Values("s8[2]", {100, -1})},
                    {Values("s8[2]", {100, 1})});
  EXPECT_EQ(Of(r[0][0]), (std::vector<double>{-56, 0}));
  r = Exchange(Thunk("all-reduce", "u32[1]", "u32[1]", {}, "maximum"), {Values("u32[1]", {1})},
               {Values("u32[1]", {4294967295.0})});
  EXPECT_EQ(Of(r[1][0]), (std::vector<double>{4294967295.0}));
  r = Exchange(Thunk("all-reduce", "f32[2]", "f32[2]", {}, "maximum"), {Values("f32[2]", {NAN, 1})},
               {Values("f32[2]", {3, 2})});
  EXPECT_TRUE(std::isnan(Of(r[0][0])[0]));
  EXPECT_EQ(Of(r[0][0])[1], 2);
  r = Exchange(Thunk("all-reduce", "bf16[1]", "bf16[1]", {}, "add"), {Values("bf16[1]", {256})},
               {Values("bf16[1]", {1})});
  EXPECT_EQ(Of(r[0][0]), (std::vector<double>{256}));  // 257 is not a bf16
}

TEST(CollectiveExchange, PermuteTakesFromItsSourceOrZeros) {
  auto c = Thunk("collective-permute", "f32[2]", "f32[2]");
  c.device_groups.clear();
  c.permute_sources = {-1, 0};
  auto r = Exchange(c, {Values("f32[2]", {1, 2})}, {Values("f32[2]", {3, 4})});
  EXPECT_EQ(Of(r[0][0]), (std::vector<double>{0, 0}));
  EXPECT_EQ(Of(r[1][0]), (std::vector<double>{1, 2}));
}

TEST(CollectiveExchange, WhatCannotRunIsNamed) {
  auto c = Thunk("all-reduce", "f32[2]", "f32[2]", {}, "");
  c.reduction = "addmul";
  EXPECT_NE(CollectiveUnsupportedOnDevices(c).find("addmul"), std::string::npos);
  c.reduction_kind = "add";
  c.device_groups.clear();
  EXPECT_NE(CollectiveUnsupportedOnDevices(c).find("groups"), std::string::npos);
  size_t place = 0;
  c.device_groups = {{1}};
  EXPECT_FALSE(GroupOfDevice(c, 0, 2, &place).ok());
}

TEST(CollectiveExchange, DevicesAtDifferentCollectivesEndWithAnError) {
  // Device 0 waits at one all-reduce, device 1 at another: no group can
  // complete, and both are told where each waits.
  auto a = Thunk("all-reduce", "f32[1]", "f32[1]", {}, "add");
  auto b = Thunk("all-reduce", "f32[1]", "f32[1]", {}, "add");
  a.instruction = "first";
  b.instruction = "second";
  DeviceRendezvous rv(2);
  Status s0 = Status::Ok(), s1 = Status::Ok();
  std::thread t0([&] { s0 = rv.Arrive(0, a, {Values("f32[1]", {1})}).status(); });
  std::thread t1([&] { s1 = rv.Arrive(1, b, {Values("f32[1]", {2})}).status(); });
  t0.join();
  t1.join();
  ASSERT_FALSE(s0.ok());
  ASSERT_FALSE(s1.ok());
  EXPECT_NE(s0.message().find("'second'"), std::string::npos) << s0.message();
  // And a meeting completes when both come.
  DeviceRendezvous ok(2);
  StatusOr<std::vector<Literal>> r0 = Status::Error(""), r1 = Status::Error("");
  std::thread u0([&] { r0 = ok.Arrive(0, a, {Values("f32[1]", {1})}); });
  std::thread u1([&] { r1 = ok.Arrive(1, a, {Values("f32[1]", {2})}); });
  u0.join();
  u1.join();
  ASSERT_TRUE(r0.ok()) << r0.status().message();
  ASSERT_TRUE(r1.ok()) << r1.status().message();
  EXPECT_EQ(Of((*r0)[0]), (std::vector<double>{3}));
  EXPECT_EQ(Of((*r1)[0]), (std::vector<double>{3}));
}

}  // namespace
}  // namespace hloscope::runtime
