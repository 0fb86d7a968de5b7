#!/usr/bin/env python3
"""XLA GPU's own speed on the throughput modules of benchmarks/gpu/, on a lent GPU.

    python3 tools/xla_gpu_bench.py [--repeat N] [--json FILE]

Runs, through JAX (jit, i.e. XLA GPU with its Triton and cuBLAS kernels), the
same computations as benchmarks/gpu/*.hlo at the same sizes: a 4096^3 bf16
GEMM with f32 accumulation, a row softmax over 16384x1024 f32 and a layer norm
over 32768x1024 bf16, plus a device-to-device copy of 1 GiB (the bandwidth
ceiling hloscope-run's %copy column divides by). Prints one line per case with
the median over N batches of 10 runs after warm-up, TFLOP/s or GB/s, and, for the
memory-bound ones, % of the measured copy bandwidth. tools/gpu_check.sh
--remote runs it after hloscope-run when python3 can import jax, so that our
kernels and XLA's are measured on the same machine in the same call.

Needs only jax with a CUDA backend (the device machine's image has it). Exit
2 when jax or a GPU is missing (nothing measured).
"""
import argparse
import json
import statistics
import sys
import time


def median_seconds(fn, args, repeat):
    out = fn(*args)
    out.block_until_ready()
    for _ in range(3):
        fn(*args).block_until_ready()
    # Batches of 10 launches, one wait each: the per-call dispatch overlaps
    # the previous kernel, as it does in a real step.
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(9):
            fn(*args)
        fn(*args).block_until_ready()
        times.append((time.perf_counter() - t0) / 10)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--json", help="also write the results as JSON here")
    a = ap.parse_args()
    try:
        import jax
        import jax.numpy as jnp
    except ImportError as e:
        print(f"xla_gpu_bench: jax is not importable ({e}); nothing measured", file=sys.stderr)
        return 2
    gpus = [d for d in jax.devices() if d.platform == "gpu"]
    if not gpus:
        print("xla_gpu_bench: jax sees no GPU; nothing measured", file=sys.stderr)
        return 2
    print(f"# xla_gpu_bench: jax {jax.__version__} on {gpus[0].device_kind}")
    key = jax.random.PRNGKey(1)
    rows = []

    # Copy bandwidth: 1 GiB f32 read + written (x + 0 would be folded; a
    # multiply by a runtime scalar is a streaming kernel XLA cannot remove).
    n = 256 * 1024 * 1024
    x = jax.random.normal(key, (n,), jnp.float32)
    s = jnp.float32(1.0)
    copy = jax.jit(lambda v, k: v * k)
    t = median_seconds(copy, (x, s), a.repeat)
    copy_gbs = 2 * n * 4 / t / 1e9
    rows.append({"case": "copy_f32_1gib", "median_us": t * 1e6, "GB/s": copy_gbs})
    del x

    m = k = nn = 4096
    ka, kb = jax.random.split(key)
    A = jax.random.normal(ka, (m, k), jnp.bfloat16)
    B = jax.random.normal(kb, (k, nn), jnp.bfloat16)
    gemm = jax.jit(lambda p, q: jnp.dot(p, q, preferred_element_type=jnp.float32).astype(jnp.bfloat16))
    t = median_seconds(gemm, (A, B), a.repeat)
    rows.append({"case": "gemm_bf16_4096", "median_us": t * 1e6, "TFLOP/s": 2 * m * k * nn / t / 1e12})
    del A, B

    X = jax.random.normal(key, (16384, 1024), jnp.float32)
    softmax = jax.jit(lambda v: jax.nn.softmax(v, axis=-1))
    t = median_seconds(softmax, (X,), a.repeat)
    gbs = 2 * X.size * 4 / t / 1e9
    rows.append({"case": "softmax_f32_64mb", "median_us": t * 1e6, "GB/s": gbs, "%copy": 100 * gbs / copy_gbs})
    del X

    Y = jax.random.normal(key, (32768, 1024), jnp.bfloat16)
    gamma = jnp.ones((1024,), jnp.float32)
    beta = jnp.zeros((1024,), jnp.float32)

    def layer_norm(v, g, b):
        f = v.astype(jnp.float32)
        mean = f.mean(axis=1, keepdims=True)
        c = f - mean
        var = (c * c).mean(axis=1, keepdims=True)
        return (c * jax.lax.rsqrt(var + 1e-5) * g + b).astype(jnp.bfloat16)

    t = median_seconds(jax.jit(layer_norm), (Y, gamma, beta), a.repeat)
    gbs = 2 * Y.size * 2 / t / 1e9
    rows.append({"case": "layer_norm_bf16_64mb", "median_us": t * 1e6, "GB/s": gbs, "%copy": 100 * gbs / copy_gbs})

    for r in rows:
        rest = "  ".join(f"{k}={v:.1f}" for k, v in r.items() if k != "case")
        print(f"{r['case']:24s} {rest}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"jax": jax.__version__, "device": gpus[0].device_kind, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
