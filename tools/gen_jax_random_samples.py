#!/usr/bin/env python3
"""Generate the jax.random samples (samples/jax_random/) with JAX >= 0.12.

What JAX 0.12 writes for any program that draws random numbers is what
these samples are for: its StableHLO carries Shardy ops (`sdy.mesh` at
module level, `sdy.sharding_constraint` on the key) and its HLO a `Sharding`
custom-call, both identities on one device. The files are made as tools/gen_samples.py
makes the main samples (its helpers, the same formats:
STEM.hlo, STEM.stablehlo.mlir, STEM.xla_cpu_optimized.hlo, STEM.data.json);
they live in their own folder because they need a newer JAX than the one
pinned for samples/ (tools/requirements-samples.txt).

Usage (JAX 0.12 from the venv that tools/xla_gpu_reference.py --setup makes):
  .venv-xla-gpu/bin/python tools/gen_jax_random_samples.py [--force]

The tests never run this script: its outputs are committed.
"""

import argparse
import os
import sys
from pathlib import Path

os.environ["JAX_PLATFORMS"] = "cpu"
sys.path.insert(0, str(Path(__file__).resolve().parent))

import gen_samples as gs  # noqa: E402  (builds nothing on import)
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

OUT = gs.REPO_ROOT / "samples" / "jax_random"


def make_dropout(rng):
    """An MLP layer with dropout: tanh(x @ w), then keep 75% (jax.random.bernoulli)."""

    def dropout_layer(key, x, w):
        h = jnp.tanh(x @ w)
        keep = jax.random.bernoulli(key, 0.75, h.shape)
        return jnp.where(keep, h / 0.75, 0.0)

    # A typed key argument is what makes JAX write the Sharding custom-call;
    # in HLO (and in the data file) it is its raw threefry data, u32[2].
    key = jax.random.key(42)
    args = (key, gs.normal(rng, (4, 8)), gs.normal(rng, (8, 16), 0.3))
    return dropout_layer, args, ("Dropout after a tanh layer: a typed threefry key (u32[2] in HLO) feeds "
                                 "jax.random.bernoulli(p=0.75); JAX 0.12 wraps the key in a Sharding "
                                 "custom-call (sdy.sharding_constraint under an sdy.mesh in StableHLO).")


SAMPLES = [("dropout", make_dropout)]


def generate(stem, maker):
    """gen_samples.generate for arguments that may be typed PRNG keys."""
    rng = np.random.RandomState(2000 + [s for s, _ in SAMPLES].index(stem))
    fn, args, description = maker(rng)
    arg_names = fn.__code__.co_varnames[:fn.__code__.co_argcount]
    raw = [np.asarray(jax.random.key_data(a)) if jnp.issubdtype(a.dtype, jax.dtypes.prng_key) else a
           for a in args]
    lowered = jax.jit(fn).lower(*args)
    hlo = gs.hlo_text_of(lowered)
    mlir = gs.stablehlo_text_of(lowered)
    compiled = lowered.compile()
    out = np.asarray(compiled(*args))
    if "Sharding" not in hlo or "sdy.sharding_constraint" not in mlir:
        sys.exit("%s: expected JAX to write a Sharding custom-call and sdy.sharding_constraint" % stem)
    params = gs.entry_parameters(hlo)
    want = [gs.hlo_shape(a) for a in raw]
    if params != want:
        sys.exit("%s: ENTRY parameters %s != inputs %s" % (stem, params, want))
    files = {
        stem + ".hlo": hlo,
        stem + ".stablehlo.mlir": mlir,
        stem + ".xla_cpu_optimized.hlo": compiled.as_text(),
        stem + ".data.json": gs.data_json(description, raw, list(arg_names), [out], ["out"]),
    }
    return files, gs.instruction_count(hlo)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--force", action="store_true", help="overwrite existing files")
    args = ap.parse_args()
    if tuple(int(x) for x in jax.__version__.split(".")[:2]) < (0, 12):
        sys.exit("needs jax >= 0.12 (found %s): run it with .venv-xla-gpu/bin/python" % jax.__version__)
    for stem, maker in SAMPLES:
        files, instructions = generate(stem, maker)
        existing = [n for n in files if (OUT / n).exists()]
        if existing and not args.force:
            sys.exit("refusing to overwrite %s; pass --force" % (OUT / existing[0]))
        OUT.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (OUT / name).write_text(text)
        print("%s: %d instructions (jax %s)" % (stem, instructions, jax.__version__))
    return 0


if __name__ == "__main__":
    sys.exit(main())
