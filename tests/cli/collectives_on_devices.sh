#!/usr/bin/env bash
# Modules that run on several devices: `eval` evaluates every device (its
# collectives exchanging data), `check` compares every device's outputs
# after each pass of `gpu` (reduce-scatter-creator turns SPMD's sharded sum
# into a reduce-scatter), `run` runs the kernels on every device, and the
# values are the ones worked out by hand.
# Usage: collectives_on_devices.sh HLOSCOPE_CLI
set -u
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
source "$(dirname "$0")/cli_test_lib.sh"

cat >"$tmp/sharded.hlo" <<'HLO'
HloModule sharded_sum, num_partitions=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[8] iota(), iota_dimension=0
  p = u32[] partition-id()
  pf = f32[] convert(p)
  pb = f32[8] broadcast(pf), dimensions={}
  y = f32[8] add(x, pb)
  r = f32[8] all-reduce(y), channel_id=1, replica_groups=[1,4]<=[4], use_global_device_ids=true, to_apply=add
  ps = s32[] convert(p)
  two = s32[] constant(2)
  o = s32[] multiply(ps, two)
  ROOT d = f32[2] dynamic-slice(r, o), dynamic_slice_sizes={2}
}
HLO
# Device d holds iota + d; the sum over 4 devices is 4·iota + 6; device d
# keeps elements 2d and 2d+1.
expect_rc 0 "eval on 4 devices" "$cli" eval "$tmp/sharded.hlo"
expect_text "device 0's shard" "device 0 output 0: f32\[2\] .* values=\[6, 10\]" "$tmp/out"
expect_text "device 3's shard" "device 3 output 0: f32\[2\] .* values=\[30, 34\]" "$tmp/out"
expect_rc 0 "eval --json" "$cli" eval "$tmp/sharded.hlo" --json
expect_text "eval --json devices" '"devices":\[{"outputs"' "$tmp/out"
expect_rc 0 "check on 4 devices" "$cli" check "$tmp/sharded.hlo" --pipeline gpu
expect_text "check says devices" "each on 4 devices" "$tmp/out"
expect_rc 0 "opt makes a reduce-scatter" "$cli" opt "$tmp/sharded.hlo" --pipeline gpu
expect_text "reduce-scatter" "reduce-scatter(" "$tmp/out"
# The kernels run on every device too, each compared with its evaluation.
expect_rc 0 "run on 4 devices" "$cli" run "$tmp/sharded.hlo" --quiet
expect_text "run on every device" "match the interpreter on every one of 4 devices" "$tmp/out"
expect_rc 0 "run --json" "$cli" run "$tmp/sharded.hlo" --json
expect_text "run --json devices" '"device": 3,' "$tmp/out"
expect_rc 0 "run --outputs, one file per device" "$cli" run "$tmp/sharded.hlo" --quiet --outputs "$tmp/o.json"
expect_text "a data file per device" "wrote 4 data files, one per device" "$tmp/err"
expect_text "device 3's data file holds its shard" '"values":\[30.0,34.0\]' "$tmp/o.device3.json"
expect_rc 1 "run --outputs keeps existing files" "$cli" run "$tmp/sharded.hlo" --quiet --outputs "$tmp/o.json"
expect_text "no overwrite" "file exists" "$tmp/err"
expect_rc 1 "run --device cuda names the CPU run" "$cli" run "$tmp/sharded.hlo" --device cuda
expect_text "cuda refusal" "runs on 4 devices .* use --device cpu" "$tmp/err"

# Devices on different paths: an error naming where each waits, not a hang.
cat >"$tmp/diverge.hlo" <<'HLO'
HloModule diverge, num_partitions=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
reduce_it {
  v = f32[2] parameter(0)
  ROOT r = f32[2] all-reduce(v), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
}
keep_it {
  ROOT k = f32[2] parameter(0)
}
ENTRY e {
  x = f32[2] parameter(0)
  p = u32[] partition-id()
  zero = u32[] constant(0)
  first = pred[] compare(p, zero), direction=EQ
  ROOT c = f32[2] conditional(first, x, x), true_computation=reduce_it, false_computation=keep_it
}
HLO
expect_rc 1 "eval of diverging devices" timeout 60 "$cli" eval "$tmp/diverge.hlo"
expect_text "divergence named" "stopped at different collectives.*%r (run 1) waits for device 1" "$tmp/err"
expect_rc 1 "run of diverging devices" timeout 60 "$cli" run "$tmp/diverge.hlo"
expect_text "divergence named by the run" "reference interpreter: .*stopped at different collectives" "$tmp/err"
exit $fail
