#!/usr/bin/env python3
"""A JAX shard_map program on 4 CPU devices (a 2x2 mesh), as XLA CPU compiles
it, with every device's inputs and outputs: the reference for the
interpreter's multi-device evaluation (tests/eval/eval_devices_test.cc,
EvalDevices.JaxShardMapAsXlaCompiledIt).

The program uses every collective shard_map writes: psum (all-reduce),
all_gather, psum_scatter (reduce-scatter), ppermute (collective-permute),
all_to_all and axis_index (partition-id). XLA CPU writes its replica groups
in today's mesh form (`replica_groups=mesh['x'=2,'y'=2] {'y'}`).

Writes OUT/shard_map.xla_cpu.hlo and OUT/shard_map.partition{0..3}.data.json
(hloscope-data-v1: that partition's input shards and output shard); and the
StableHLO JAX lowers (OUT/shard_map.mlir: sdy.manual_computation, groups as
#stablehlo.replica_group_mesh_axes) with OUT/shard_map.data.json (the global
inputs and JAX's global output).

Usage: .venv-xla-gpu/bin/python tools/gen_shard_map_reference.py OUT
"""
import json
import os
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
os.environ["JAX_PLATFORMS"] = "cpu"

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

try:
    from jax import shard_map
except ImportError:  # older JAX
    from jax.experimental.shard_map import shard_map


def body(a, w):
    h = a @ w
    s = jax.lax.psum(h, "y")
    g = jax.lax.all_gather(s, "x", axis=0, tiled=True)
    r = jax.lax.psum_scatter(g, "x", scatter_dimension=0, tiled=True)
    p = jax.lax.ppermute(r, "y", perm=[(0, 1), (1, 0)])
    t = jax.lax.all_to_all(p, "x", 1, 0, tiled=True)
    i = jax.lax.axis_index("x")
    return t * (i + 1).astype(t.dtype)


def entry(x):
    x = np.asarray(x)
    return {"shape": "f32[" + ",".join(str(d) for d in x.shape) + "]",
            "values": [float(v) for v in x.reshape(-1)]}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    mesh = Mesh(np.array(jax.devices()).reshape(2, 2), ("x", "y"))
    f = jax.jit(shard_map(body, mesh=mesh, in_specs=(P("x", "y"), P("y", None)), out_specs=P("x", "y")))
    a = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8) / 64
    w = jnp.arange(8 * 4, dtype=jnp.float32).reshape(8, 4) / 32
    with open(os.path.join(out_dir, "shard_map.xla_cpu.hlo"), "w") as fh:
        fh.write(f.lower(a, w).compile().as_text())
    with open(os.path.join(out_dir, "shard_map.mlir"), "w") as fh:
        fh.write(f.lower(a, w).as_text())
    with open(os.path.join(out_dir, "shard_map.data.json"), "w") as fh:
        json.dump({"format": "hloscope-data-v1", "inputs": [entry(a), entry(w)], "outputs": [entry(f(a, w))]}, fh)
    ad = jax.device_put(a, NamedSharding(mesh, P("x", "y")))
    wd = jax.device_put(w, NamedSharding(mesh, P("y", None)))
    out = f(ad, wd)

    def shards(arr):
        return {s.device.id: np.asarray(s.data) for s in arr.addressable_shards}

    sa, sw, so = shards(ad), shards(wd), shards(out)
    # Partition p runs on the mesh's p-th device (row-major), as XLA assigns them.
    for p, dev in enumerate(mesh.devices.reshape(-1)):
        d = dev.id
        data = {"format": "hloscope-data-v1", "inputs": [entry(sa[d]), entry(sw[d])], "outputs": [entry(so[d])]}
        with open(os.path.join(out_dir, f"shard_map.partition{p}.data.json"), "w") as fh:
            json.dump(data, fh)
    print("wrote", out_dir, "with JAX", jax.__version__)


if __name__ == "__main__":
    main()
