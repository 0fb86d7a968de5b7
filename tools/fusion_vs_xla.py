#!/usr/bin/env python3
"""Our `gpu` pipeline against XLA GPU's own fusions, sample by sample.

For every samples/xla_gpu/STEM/ (XLA GPU's after_optimizations for H100,
committed) this runs

  hloscope-cli compare samples/STEM.hlo samples/xla_gpu/STEM/after_optimizations.txt \
      --pipeline-a gpu --json

and prints a markdown table: kernels (ours, XLA's), the ratio, XLA's fusions
that we reproduce with the same members (`same_groups` against XLA's fusion
count), and the share of XLA's ops that `compare` matched. Acceptance of
issue 24: kernels within 15%, same groups >= 75%, matched >= 90%.

Usage: tools/fusion_vs_xla.py [--cli build/bin/hloscope-cli] [--pipeline gpu]
       [--extra NAME=OURS.hlo:XLA_after_optimizations.txt ...]
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(cli, pipeline, ours, xla):
    out = subprocess.run([cli, "compare", str(ours), str(xla), "--pipeline-a", pipeline, "--json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"compare {ours}: {out.stderr.strip()}")
    j = json.loads(out.stdout)
    a, b = j["a"], j["b"]
    return {
        "ours": a["kernels"], "xla": b["kernels"], "xla_fusions": b["fusions"],
        "same": j["same_groups"], "matched": b["matched"], "ops": b["ops"],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", default=str(ROOT / "build/bin/hloscope-cli"))
    ap.add_argument("--pipeline", default="gpu")
    ap.add_argument("--extra", action="append", default=[], metavar="NAME=OURS:XLA")
    args = ap.parse_args()
    rows = []
    for d in sorted((ROOT / "samples/xla_gpu").iterdir()):
        xla = d / "after_optimizations.txt"
        ours = ROOT / "samples" / f"{d.name}.hlo"
        if xla.is_file() and ours.is_file():
            rows.append((d.name, ours, xla))
    for e in args.extra:
        name, _, rest = e.partition("=")
        ours, _, xla = rest.partition(":")
        rows.append((name, Path(ours), Path(xla)))
    print("| module | ours | XLA GPU | ratio | same groups / XLA fusions | XLA ops matched |")
    print("|---|---|---|---|---|---|")
    bad = 0
    for name, ours, xla in rows:
        try:
            m = measure(args.cli, args.pipeline, ours, xla)
        except RuntimeError as err:
            print(f"| {name} | error: {err} | | | | |")
            bad += 1
            continue
        ratio = m["ours"] / m["xla"] if m["xla"] else float("inf")
        same = m["same"] / m["xla_fusions"] if m["xla_fusions"] else 1.0
        matched = m["matched"] / m["ops"] if m["ops"] else 1.0
        ok = abs(ratio - 1) <= 0.15 and same >= 0.75 and matched >= 0.90
        bad += not ok
        print(f"| {name} | {m['ours']} | {m['xla']} | {ratio:.2f} | {m['same']}/{m['xla_fusions']} ({same:.0%}) "
              f"| {m['matched']}/{m['ops']} ({matched:.1%}) |{'' if ok else ' ✗'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
