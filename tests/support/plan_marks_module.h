// A module whose plan has a kernel no emitter writes (a collective inside a
// fusion, as XLA GPU's Triton collectives) and a custom-call into an
// external target ("foo") beside ordinary kernels: the report's and the
// GUI's kernel listings show both without failing.
#pragma once

namespace hloscope::testing {

inline constexpr const char* kPlanMarksHlo = R"hlo(HloModule plan_marks

%sum (sx: f32[], sy: f32[]) -> f32[] {
  %sx = f32[] parameter(0)
  %sy = f32[] parameter(1)
  ROOT %s = f32[] add(f32[] %sx, f32[] %sy)
}

%in_kernel_all_reduce (p: f32[64]) -> f32[64] {
  %p = f32[64] parameter(0)
  ROOT %ar = f32[64] all-reduce(f32[64] %p), replica_groups={}, to_apply=%sum
}

ENTRY %main (a: f32[64], x: f32[64]) -> (f32[64], f32[64], f32[64]) {
  %a = f32[64] parameter(0)
  %x = f32[64] parameter(1)
  %collective = f32[64] fusion(f32[64] %a), kind=kCustom, calls=%in_kernel_all_reduce
  %e = f32[64] exponential(f32[64] %x)
  %m = f32[64] multiply(f32[64] %e, f32[64] %x)
  %ext = f32[64] custom-call(f32[64] %m), custom_call_target="foo"
  %t = f32[64] tanh(f32[64] %ext)
  ROOT %out = (f32[64], f32[64], f32[64]) tuple(%collective, %m, %t)
}
)hlo";

}  // namespace hloscope::testing
