#!/usr/bin/env python3
"""Generate a set of fresh, realistic JAX programs as HLO for an "unseen modules" check.

For every program NAME this writes, into OUT (default /tmp/unseen):
  NAME.hlo          jax.jit(f).lower(*args).as_text(dialect="hlo")   (pre-optimization HLO)
  NAME.xla_cpu.hlo  jax.jit(f).lower(*args).compile().as_text()      (XLA CPU's optimized HLO)
  NAME.cuda.hlo     the same program lowered for CUDA (cuSOLVER calls, `scan` ops), without a GPU

The programs are written for this check (issue 23, acceptance 1) and are deliberately
different from samples/*.hlo. Each is small (tensors <= ~1e5 elements, loops <= a few
hundred iterations) so the reference interpreter evaluates it quickly.

Also NAME.data.json (hloscope-data-v1, samples/README.md): the program's own inputs and
JAX's outputs on them, for `hloscope-cli run FILE --inputs NAME.data.json`.

Usage: JAX_PLATFORMS=cpu python tools/gen_unseen_modules.py [--out DIR] [--only NAME,...]
Needs jax/jaxlib (tested with 0.12.0.1, CPU) in a Python >= 3.12 environment.
"""
import argparse
import importlib
import json
import os
import sys
import traceback

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402
import jax  # noqa: E402

import sample_files  # noqa: E402  (tools/: the hloscope-data-v1 writer)

# The programs, in two files (tools/unseen_programs*.py), register themselves
# in unseen_programs.PROGRAMS when imported, in this order.
for _m in ("unseen_programs", "unseen_programs_more"):
    importlib.import_module(_m)
PROGRAMS = sys.modules["unseen_programs"].PROGRAMS


# On the CPU, JAX lowers cholesky / triangular_solve straight to LAPACK custom-calls
# (lapack_spotrf_ffi, lapack_strsm_ffi). These variants are lowered for a platform whose
# lowering keeps the portable HLO ops (cholesky, triangular-solve); only NAME.hlo is
# written for them, since they cannot be compiled here.
PORTABLE = {"cholesky_solve_portable": "cholesky_solve",
            "gaussian_process_nll_portable": "gaussian_process_nll"}


def write_data(name, f, args, kw, hlo, out):
    """NAME.data.json (hloscope-data-v1): the program's own inputs and JAX's outputs."""
    in_leaves = [np.asarray(x) for x in jax.tree_util.tree_leaves(args)]
    n_params = sum(1 for ln in hlo.split("ENTRY", 1)[1].split("\n}")[0].splitlines()
                   if " parameter(" in ln)
    if n_params != len(in_leaves):
        return "skipped: %d leaves, %d parameters" % (len(in_leaves), n_params)
    outs = jax.jit(f)(*args)  # no donation here: args stay valid
    out_leaves = [np.asarray(x) for x in jax.tree_util.tree_leaves(outs)]
    text = ('{"format":"hloscope-data-v1","jax_version":%s,\n "inputs":[\n  %s\n ],\n'
            ' "outputs":[\n  %s\n ]}\n') % (
        json.dumps(jax.__version__), ",\n  ".join(map(sample_files.tensor_json, in_leaves)),
        ",\n  ".join(map(sample_files.tensor_json, out_leaves)))
    json.loads(text)
    with open(os.path.join(out, name + ".data.json"), "w") as fh:
        fh.write(text)
    return "data"


def lower_one(name, fn, out):
    f, args, kw = fn()
    jf = jax.jit(f, **kw)
    if name in PORTABLE:
        hlo = jf.trace(*args).lower(lowering_platforms=("tpu",)).as_text(dialect="hlo")
        with open(os.path.join(out, name + ".hlo"), "w") as fh:
            fh.write(hlo)
        return hlo.count(" = "), 0, "no data file (not compiled here)"
    low = jf.lower(*args)
    hlo = low.as_text(dialect="hlo")
    # What a GPU machine's JAX writes (cuSOLVER calls, `scan` for cumsum):
    # lowered for CUDA without a GPU; compiled nowhere here.
    try:
        cuda = jf.trace(*args).lower(lowering_platforms=("cuda",)).as_text(dialect="hlo")
        with open(os.path.join(out, name + ".cuda.hlo"), "w") as fh:
            fh.write(cuda)
    except Exception as e:  # no CUDA plugin: the CPU forms are still written
        print("  (no CUDA lowering for %s: %s)" % (name, type(e).__name__))
    comp = low.compile().as_text()
    with open(os.path.join(out, name + ".hlo"), "w") as fh:
        fh.write(hlo)
    with open(os.path.join(out, name + ".xla_cpu.hlo"), "w") as fh:
        fh.write(comp)
    try:
        d = write_data(name, f, args, kw, hlo, out)
    except Exception as e:  # the modules are still useful without a data file
        d = "no data file: %s: %s" % (type(e).__name__, e)
    return hlo.count(" = "), comp.count(" = "), d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/unseen")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    only = set(filter(None, a.only.split(",")))
    for alias, base in PORTABLE.items():
        PROGRAMS[alias] = PROGRAMS[base]
    failed = []
    print(f"jax {jax.__version__}, {len(PROGRAMS)} programs -> {a.out}")
    for name, fn in PROGRAMS.items():
        if only and name not in only:
            continue
        try:
            n1, n2, d = lower_one(name, fn, a.out)
            print(f"ok   {name}: {n1} / {n2} instructions; {d}")
        except Exception as e:  # drop programs that fail to lower, and say so
            failed.append(name)
            print(f"FAIL {name}: {type(e).__name__}: {e}")
            traceback.print_exc(limit=2)
    if failed:
        print("failed to lower:", ", ".join(failed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
