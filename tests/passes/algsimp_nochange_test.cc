// algsimp: one near miss per named rewrite — a module that looks like the
// rewrite's pattern but differs in what the rule depends on, so nothing may
// change. The changed cases are in algsimp_{arith,shapes,slices,reduce}_test;
// the identities with a constant operand (x + 0, x * 1, ...) have their
// no-change cases, on every form, in algsimp_splat_test.
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

struct NearMiss {
  const char* rule;  // the rewrite this case must not trigger
  std::string hlo;
};

void PrintTo(const NearMiss& c, std::ostream* os) { *os << c.rule; }

const char* kMax = "max {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT m = f32[] maximum(a, b)\n}\n";
const char* kAddS32 = "add {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  ROOT s = s32[] add(a, b)\n}\n";

std::string F2(const std::string& body) {
  return Module1("  p = f32[4] parameter(0)\n  q = f32[4] parameter(1)\n" + body);
}
std::string I2(const std::string& body) {
  return Module1("  p = s32[4] parameter(0)\n  q = s32[4] parameter(1)\n" + body);
}

class AlgsimpNearMiss : public ::testing::TestWithParam<NearMiss> {};

TEST_P(AlgsimpNearMiss, NoChange) {
  SCOPED_TRACE(GetParam().rule);
  CheckNoChange(GetParam().hlo);
}

INSTANTIATE_TEST_SUITE_P(
    Arith, AlgsimpNearMiss,
    ::testing::Values(
        NearMiss{"x - x → 0 (integers)", I2("  ROOT r = s32[4] subtract(p, q)")},
        NearMiss{"max(x, x) → x", F2("  ROOT r = f32[4] maximum(p, q)")},
        NearMiss{"min(x, x) → x", F2("  ROOT r = f32[4] minimum(p, q)")},
        NearMiss{"and(x, x) → x", I2("  ROOT r = s32[4] and(p, q)")},
        NearMiss{"or(x, x) → x", I2("  ROOT r = s32[4] or(p, q)")},
        NearMiss{"xor(x, x) → 0", I2("  ROOT r = s32[4] xor(p, q)")},
        NearMiss{"compare(x, x) → constant (integers)", I2("  ROOT r = pred[4] compare(p, q), direction=LE")},
        NearMiss{"negate(negate(x)) → x", F2("  e = f32[4] exponential(p)\n  ROOT r = f32[4] negate(e)")},
        NearMiss{"not(not(x)) → x", Module1("  p = pred[4] parameter(0)\n  ROOT r = pred[4] not(p)")},
        NearMiss{"abs(abs(x)) → abs(x)", F2("  a = f32[4] floor(p)\n  ROOT r = f32[4] abs(a)")},
        NearMiss{"floor(floor(x)) → floor(x)", F2("  a = f32[4] ceil(p)\n  ROOT r = f32[4] floor(a)")},
        NearMiss{"sign(sign(x)) → sign(x)", F2("  a = f32[4] abs(p)\n  ROOT r = f32[4] sign(a)")},
        NearMiss{"abs(negate(x)) → abs(x)", F2("  a = f32[4] abs(p)\n  ROOT r = f32[4] negate(a)")},
        NearMiss{"real(complex(a, b)) → a", Module1("  c = c64[4] parameter(0)\n  ROOT r = f32[4] real(c)")},
        NearMiss{"imag(complex(a, b)) → b", Module1("  c = c64[4] parameter(0)\n  ROOT r = f32[4] imag(c)")},
        NearMiss{"reduce-precision to the type's own precision → x",
                 F2("  ROOT r = f32[4] reduce-precision(p), exponent_bits=5, mantissa_bits=10")},
        NearMiss{"convert to the same type → x", F2("  ROOT r = f64[4] convert(p)")},
        NearMiss{"convert(convert(x)) through a lossless type → convert(x)",
                 F2("  h = f16[4] convert(p)\n  ROOT r = f64[4] convert(h)")},
        NearMiss{"op(broadcast(scalar)) → broadcast(op(scalar))",
                 F2("  s = f32[] parameter(2)\n  b = f32[4] broadcast(s), dimensions={}\n  ROOT r = f32[4] add(b, p)")},
        NearMiss{"select(p, x, x) → x / select(not(p), a, b)",
                 F2("  c = pred[4] parameter(2)\n  ROOT r = f32[4] select(c, p, q)")}));

INSTANTIATE_TEST_SUITE_P(
    Shapes, AlgsimpNearMiss,
    ::testing::Values(
        NearMiss{"reshape to the same shape → x", Module1("  p = f32[2,3] parameter(0)\n  ROOT r = f32[3,2] reshape(p)")},
        NearMiss{"reshape(reshape(x)) → reshape(x)",
                 Module1("  p = f32[2,3] parameter(0)\n  t = f32[3,2] transpose(p), dimensions={1,0}\n"
                         "  ROOT r = f32[6] reshape(t)")},
        NearMiss{"reshape(broadcast(scalar)) → broadcast(scalar)",
                 Module1("  v = f32[3] parameter(0)\n  b = f32[3,4] broadcast(v), dimensions={0}\n"
                         "  ROOT r = f32[12] reshape(b)")},
        NearMiss{"reshape(broadcast(x)) → broadcast(x): the reshape leaves x's dims whole",
                 Module1("  x = f32[8,96] parameter(0)\n  b = f32[2,8,96] broadcast(x), dimensions={1,2}\n"
                         "  ROOT r = f32[16,96] reshape(b)")},
        NearMiss{"iota folding: reshape(iota) → iota",
                 Module1("  i = s32[2,3] iota(), iota_dimension=1\n  ROOT r = s32[6] reshape(i)")},
        NearMiss{"identity transpose → x", Module1("  p = f32[2,3] parameter(0)\n  ROOT r = f32[3,2] transpose(p), dimensions={1,0}")},
        NearMiss{"transpose(transpose(x)) → transpose(x)",
                 Module1("  p = f32[6] parameter(0)\n  a = f32[2,3] reshape(p)\n"
                         "  ROOT r = f32[3,2] transpose(a), dimensions={1,0}")},
        NearMiss{"transpose(broadcast(x)) → broadcast(x)",
                 Module1("  v = f32[2,3] parameter(0)\n  b = f32[2,3,4] broadcast(v), dimensions={0,1}\n"
                         "  ROOT r = f32[3,2,4] transpose(b), dimensions={1,0,2}")},
        NearMiss{"broadcast to the same shape → x",
                 Module1("  p = f32[3] parameter(0)\n  ROOT r = f32[3,2] broadcast(p), dimensions={0}")},
        NearMiss{"broadcast(broadcast(x)) / broadcast(iota) → iota",
                 Module1("  p = f32[6] parameter(0)\n  a = f32[2,3] reshape(p)\n"
                         "  ROOT r = f32[2,3,4] broadcast(a), dimensions={0,1}")},
        NearMiss{"iota folding: iota over a size-1 dimension → zeros", Module1("  ROOT i = s32[2,4] iota(), iota_dimension=0")},
        NearMiss{"reverse of size-1 dimensions → x", Module1("  p = f32[2,4] parameter(0)\n  ROOT r = f32[2,4] reverse(p), dimensions={0}")},
        NearMiss{"reverse(reverse(x)) → x",
                 Module1("  p = f32[2,4] parameter(0)\n  a = f32[2,4] reverse(p), dimensions={0}\n"
                         "  ROOT r = f32[2,4] reverse(a), dimensions={1}")},
        NearMiss{"reverse(broadcast(scalar)) → broadcast(scalar)",
                 Module1("  v = f32[4] parameter(0)\n  b = f32[3,4] broadcast(v), dimensions={1}\n"
                         "  ROOT r = f32[3,4] reverse(b), dimensions={1}")},
        NearMiss{"bitcast to the same shape → x / bitcast(bitcast(x))",
                 Module1("  p = f32[2,3]{1,0} parameter(0)\n  ROOT r = f32[6]{0} bitcast(p)")},
        NearMiss{"constant with equal elements → broadcast(scalar)",
                 Module1("  ROOT c = s32[3] constant({7, 7, 8})")}));

INSTANTIATE_TEST_SUITE_P(
    Slices, AlgsimpNearMiss,
    ::testing::Values(
        NearMiss{"slice(slice(x)) → slice(x)",
                 Module1("  p = f32[8] parameter(0)\n  a = f32[8] reverse(p), dimensions={0}\n"
                         "  ROOT r = f32[3] slice(a), slice={[1:4]}")},
        NearMiss{"slice(pad) inside the operand / slice of padding only",
                 Module1("  p = f32[4] parameter(0)\n  z = f32[] constant(0)\n"
                         "  d = f32[10] pad(p, z), padding=3_3\n  ROOT r = f32[3] slice(d), slice={[2:5]}")},
        NearMiss{"slice(broadcast(scalar)) → broadcast(scalar)",
                 Module1("  v = f32[4] parameter(0)\n  b = f32[3,4] broadcast(v), dimensions={1}\n"
                         "  ROOT r = f32[2,4] slice(b), slice={[0:2], [0:4]}")},
        NearMiss{"iota folding: slice(iota) → iota",
                 Module1("  i = s32[8] iota(), iota_dimension=0\n  ROOT r = s32[3] slice(i), slice={[2:5]}")},
        NearMiss{"concatenate of one operand → x",
                 F2("  ROOT r = f32[8] concatenate(p, q), dimensions={0}")},
        NearMiss{"concatenate of adjacent slices → slice",
                 Module1("  p = f32[8] parameter(0)\n  a = f32[2] slice(p), slice={[0:2]}\n"
                         "  b = f32[2] slice(p), slice={[3:5]}\n  ROOT r = f32[4] concatenate(a, b), dimensions={0}")},
        NearMiss{"pad with zero padding → x",
                 Module1("  p = f32[4] parameter(0)\n  z = f32[] constant(0)\n  ROOT r = f32[5] pad(p, z), padding=1_0")},
        NearMiss{"dynamic-slice with constant indices → slice",
                 Module1("  p = f32[8] parameter(0)\n  i = s32[] parameter(1)\n"
                         "  ROOT r = f32[3] dynamic-slice(p, i), dynamic_slice_sizes={3}")},
        NearMiss{"dynamic-update-slice of full size → update",
                 Module1("  p = f32[8] parameter(0)\n  u = f32[3] parameter(1)\n  i = s32[] parameter(2)\n"
                         "  ROOT r = f32[8] dynamic-update-slice(p, u, i)")}));

INSTANTIATE_TEST_SUITE_P(
    Reduce, AlgsimpNearMiss,
    ::testing::Values(
        NearMiss{"reduce over zero elements / over size-1 dimensions",
                 Module1("  p = f32[3,5] parameter(0)\n  z = f32[] constant(-inf)\n"
                         "  ROOT r = f32[3] reduce(p, z), dimensions={1}, to_apply=max",
                         kMax)},
        NearMiss{"reduce(broadcast(scalar)) → op(init, scalar) (idempotent op)",
                 Module1("  v = f32[3] parameter(0)\n  b = f32[3,5] broadcast(v), dimensions={0}\n"
                         "  z = f32[] constant(-inf)\n  ROOT r = f32[3] reduce(b, z), dimensions={1}, to_apply=max",
                         kMax)},
        NearMiss{"reduce-add(broadcast(scalar)) → init + n*scalar (integers)",
                 Module1("  v = s32[3] parameter(0)\n  b = s32[3,5] broadcast(v), dimensions={0}\n"
                         "  z = s32[] constant(0)\n  ROOT r = s32[3] reduce(b, z), dimensions={1}, to_apply=add",
                         kAddS32)},
        NearMiss{"dot with degenerate contracting dimensions → multiply",
                 Module1("  a = f32[2,3] parameter(0)\n  b = f32[3,4] parameter(1)\n"
                         "  ROOT r = f32[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}")},
        NearMiss{"dot(broadcast(a), broadcast(b)) → broadcast(a*b*K) (integers)",
                 Module1("  x = s32[2] parameter(0)\n  y = s32[] parameter(1)\n"
                         "  a = s32[2,3] broadcast(x), dimensions={0}\n  b = s32[3,4] broadcast(y), dimensions={}\n"
                         "  ROOT r = s32[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}")}));

}  // namespace
}  // namespace hloscope::testing
