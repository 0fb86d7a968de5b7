#!/usr/bin/env python3
"""Compile an HLO or StableHLO module with XLA's GPU compiler, without a GPU.

XLA's whole GPU pipeline (HLO passes, priority fusion, Triton/LLVM codegen,
PTX, ptxas, buffer assignment, thunk emission) runs on a machine with no GPU
and no libcuda through JAX's CUDA PJRT plugin in compile-only mode, targeting
an H100 SXM or H200 (sm_90a) described by a GpuTargetConfigProto text file.
This script drives that and writes XLA's --xla_dump_to folder plus a small,
stable-named reference set for hloscope's tests.

Setup (once; needs a Python >= 3.12 on PATH or under ~/.pyenv/versions):

  tools/xla_gpu_reference.py --setup

This creates <repo>/.venv-xla-gpu/ with the pinned wheels
(jax, jaxlib, jax-cuda13-plugin, jax-cuda13-pjrt, all 0.12.0.1; ~300 MB).
Afterwards the script re-executes itself under that venv's python, so it can
be started by any interpreter.

Compile:

  tools/xla_gpu_reference.py samples/softmax.hlo --device h100_sxm \\
      --out /tmp/softmax_gpu [--partitions N] [--force]

Output in DIR:

  xla_dump/                  XLA's own --xla_dump_to folder, untouched:
                             before/after_optimizations, one file per HLO pass,
                             *.thunk_sequence.txt, *.ptx,
                             *-buffer-assignment.txt,
                             *.priority_fusion_dump.txt, ...
  after_optimizations.txt    copies under simple stable names
  thunk_sequence.txt
  buffer_assignment.txt
  priority_fusion_dump.txt
  live_range.txt             XLA's HloLiveRange of after_optimizations (the
                             buffer assignment's live ranges)
  kernels.ptx                all PTX files concatenated (only if their total
                             is under --ptx-limit-kb)
  passes.tar.xz              every per-pass HLO text dump under XLA's names
                             (sorted, mtime 0, owner/group 0: reproducible)
  REFERENCE.json             versions, device, target config, XLA_FLAGS,
                             input file, timings, and the mapping from the
                             stable names above to XLA's file names

--no-raw-dump deletes xla_dump/ after the stable files are collected (what
samples/xla_gpu/ commits).  A non-empty DIR is never overwritten without
--force.

--vlog MODULE=LEVEL[,...] adds xla_vlog.txt: what XLA's passes log while
compiling (TF_CPP_VMODULE).  gemm_fusion=6 shows XLA's GEMM prologue search
step by step ("Fusing operand", "Not fusing operand ... Too many
parameters"), the reference docs/fusion.md checks our triton-gemm-rewriter
against.

--costs adds xla_costs.tsv: XLA GPU's own cost-model estimate of every
instruction of the module priority fusion starts from (the
hlo_module_before_fusion of priority_fusion_dump.txt), one line each: launch
blocks and threads per block, flops, bytes read and written, and its read,
write, compute and total times in ns (gpu_performance_model=10; the log
itself is dropped unless --vlog asked for that module).  `decisions-diff`
sets our cost model's estimate beside each.

Known quirks handled for HLO text input:
  * jaxlib imports HLO `copy` as mhlo.copy, which the CUDA plugin rejects; a
    copy is rewritten as a `reshape` to the same shape (semantically the
    identity, as the copy is).
  * custom-call `operand_layout_constraints={...}` whose layouts are all the
    default (major-to-minor) are dropped.
  * SPMD modules: --partitions N compiles with num_partitions=N over a
    1x1xN topology (use_spmd_partitioning on).
StableHLO (.mlir) input goes straight to the compile.

Environment set for the compile: JAX_SKIP_CUDA_CONSTRAINTS_CHECK=1 (else the
plugin's cuInit check fails and it never registers) and JAX_PLATFORMS=cpu.
Without a device there is no autotuning: every dot becomes a Triton GEMM
fusion with default tiles.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
VENV = REPO / ".venv-xla-gpu"
VENV_PYTHON = VENV / "bin" / "python"
PINS = [
    "jax==0.12.0.1",
    "jaxlib==0.12.0.1",
    "jax-cuda13-plugin==0.12.0.1",
    "jax-cuda13-pjrt==0.12.0.1",
]
MIN_PYTHON = (3, 12)
SPECS_DIRS = [REPO / "shared" / "xla_gpu_specs",
              REPO.parent / "shared" / "xla_gpu_specs"]
DEVICES = ("h100_sxm", "h200")
DUMP_FLAGS = ["--xla_dump_hlo_as_text", "--xla_dump_emitter_re=ptx",
              "--xla_dump_hlo_pass_re=.*"]
_REEXEC_MARK = "HLOSCOPE_XLA_GPU_REFERENCE_REEXEC"
PTX_LIMIT_KB = 200


def die(msg, code=2):
    print(f"xla_gpu_reference: error: {msg}", file=sys.stderr)
    sys.exit(code)


# --------------------------------------------------------------------------
# --setup

def python_version(exe):
    """(major, minor) of interpreter `exe`, or None if it does not run."""
    try:
        out = subprocess.run(
            [str(exe), "-c", "import sys; print(*sys.version_info[:2])"],
            capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    try:
        major, minor = map(int, out.stdout.split())
    except ValueError:
        return None
    return major, minor


def find_python():
    """A Python >= 3.12 from PATH or ~/.pyenv/versions, preferring 3.12."""
    candidates = []
    for name in ("python3.12", "python3.13", "python3.14", "python3", "python"):
        p = shutil.which(name)
        if p:
            candidates.append(Path(p))
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    if pyenv.is_dir():
        for d in sorted(pyenv.iterdir()):
            candidates.append(d / "bin" / "python")
    found = []
    for exe in candidates:
        v = python_version(exe)
        if v and v >= MIN_PYTHON:
            found.append((v, exe))
    if not found:
        return None, candidates
    # Prefer the lowest new-enough version: jax 0.12 wheels exist for 3.12+.
    found.sort(key=lambda t: t[0])
    return found[0][1], candidates


def setup():
    exe, tried = find_python()
    if exe is None:
        die("no Python >= %d.%d found on PATH or under ~/.pyenv/versions "
            "(tried: %s).\n  jax 0.12 needs Python >= 3.12 (Debian 12's python3 "
            "is 3.11). Get one with e.g. `pyenv install 3.12` "
            "(https://github.com/pyenv/pyenv) or your distribution's python3.12 "
            "package, then rerun --setup."
            % (MIN_PYTHON + (", ".join(map(str, tried)) or "nothing",)))
    print(f"using {exe} (Python {'.'.join(map(str, python_version(exe)))})")
    if not VENV_PYTHON.exists():
        subprocess.run([str(exe), "-m", "venv", str(VENV)], check=True)
    subprocess.run([str(VENV_PYTHON), "-m", "pip", "install", "--upgrade",
                    "pip"], check=True)
    subprocess.run([str(VENV_PYTHON), "-m", "pip", "install", *PINS],
                   check=True)
    subprocess.run([str(VENV_PYTHON), "-c",
                    "import jax, jaxlib; print('jax', jax.__version__, "
                    "'jaxlib', jaxlib.__version__)"], check=True)
    print(f"venv ready: {VENV}")


# --------------------------------------------------------------------------
# Running under the venv

def in_venv():
    return Path(sys.prefix).resolve() == VENV.resolve()


def ensure_venv():
    """Re-exec under the venv's python, or fail saying to run --setup."""
    if in_venv():
        return
    if not VENV_PYTHON.exists():
        die(f"no venv at {VENV}; run `{sys.argv[0]} --setup` first "
            "(it installs jax/jaxlib 0.12.0.1 and the CUDA 13 plugin).")
    if os.environ.get(_REEXEC_MARK):
        die(f"re-exec under {VENV_PYTHON} did not land in the venv")
    os.environ[_REEXEC_MARK] = "1"
    os.execv(str(VENV_PYTHON),
             [str(VENV_PYTHON), str(Path(__file__).resolve()), *sys.argv[1:]])


# --------------------------------------------------------------------------
# HLO text quirks

def _all_default_layouts(constraints):
    """True if every layout in the constraint text is major-to-minor."""
    for m in re.finditer(r"\[([0-9,]*)\]\{([^}]*)\}", constraints):
        dims = [d for d in m.group(1).split(",") if d]
        layout = m.group(2)
        if not re.fullmatch(r"[0-9,]*", layout):
            return False  # tiling / memory space: not default
        want = ",".join(str(i) for i in reversed(range(len(dims))))
        if layout != want:
            return False
    return True


def _find_braced(text, start):
    """Index one past the '}' matching the '{' at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    raise ValueError("unbalanced braces")


def fix_hlo_text(text):
    """Apply the known import quirks; returns (text, list of notes)."""
    notes = []
    # 1. `copy(` as the opcode (right after a non-tuple result shape) ->
    #    `reshape(` to the same shape.
    copy_re = re.compile(r"^(\s*(?:ROOT\s+)?%?[^\s=]+\s*=\s*"
                         r"[a-z0-9]+\[[^\]]*\](?:\{[^}]*\})?\s+)copy\(",
                         re.MULTILINE)
    text, n = copy_re.subn(r"\1reshape(", text)
    if n:
        notes.append(f"rewrote {n} copy instruction(s) as reshape")
    # 2. all-default operand_layout_constraints={...} dropped.
    out, pos, dropped = [], 0, 0
    key = "operand_layout_constraints="
    while True:
        i = text.find(key, pos)
        if i < 0:
            out.append(text[pos:])
            break
        j = i + len(key)
        end = _find_braced(text, j)
        body = text[j:end]
        # Strip the preceding ", ".
        k = i
        while k > pos and text[k - 1] in " ,":
            k -= 1
        if _all_default_layouts(body):
            out.append(text[pos:k])
            dropped += 1
        else:
            out.append(text[pos:end])
        pos = end
    if dropped:
        notes.append(f"dropped {dropped} all-default operand_layout_constraints")
    return "".join(out), notes


# --------------------------------------------------------------------------
# Compile

def spec_file(device):
    for d in SPECS_DIRS:
        f = d / f"{device}.txtpb"
        if f.is_file():
            return f
    die(f"target config {device}.txtpb not found in "
        + " or ".join(map(str, SPECS_DIRS)))


def compile_module(input_path, device, partitions, dump_dir):
    """Compile; returns a dict of facts for REFERENCE.json."""
    cfg = spec_file(device)
    xla_flags = " ".join([f"--xla_dump_to={dump_dir}", *DUMP_FLAGS])
    prior = os.environ.get("XLA_FLAGS", "").strip()
    if prior:
        xla_flags = prior + " " + xla_flags
    os.environ["XLA_FLAGS"] = xla_flags
    os.environ["JAX_SKIP_CUDA_CONSTRAINTS_CHECK"] = "1"
    os.environ["JAX_PLATFORMS"] = "cpu"

    t0 = time.monotonic()
    import numpy as np
    import jax
    import jaxlib
    from jax.experimental import topologies
    from jax._src.interpreters import mlir as jmlir
    from jax._src.lib import _jax, xla_client
    from jax._src.lib.mlir import ir

    topo = topologies.get_topology_desc(
        platform="cuda", topology_name="", target_config=cfg.read_text(),
        topology=f"1x1x{partitions}")
    devices = list(topo.devices)[:partitions]
    if len(devices) < partitions:
        die(f"topology 1x1x{partitions} gave only {len(devices)} devices")
    t_init = time.monotonic() - t0

    notes = []
    text = input_path.read_text()
    if input_path.suffix == ".mlir":
        mlir_text = text
    else:
        text, notes = fix_hlo_text(text)
        hlo = jaxlib._hlo.hlo_module_from_text(text)
        mlir_text = _jax.mlir.hlo_to_stablehlo(
            hlo.as_serialized_hlo_module_proto())

    opts = xla_client.CompileOptions()
    build = opts.executable_build_options
    build.num_replicas = 1
    build.num_partitions = partitions
    if partitions > 1:
        build.use_spmd_partitioning = True
        build.device_assignment = xla_client.DeviceAssignment.create(
            np.arange(partitions).reshape(1, partitions))

    t1 = time.monotonic()
    with jmlir.make_ir_context():
        try:
            module = ir.Module.parse(mlir_text)
            executable = devices[0].client.compile(
                module, executable_devices=xla_client.DeviceList(tuple(devices)),
                compile_options=opts)
        except Exception as e:
            unsupported_import(input_path, str(e))
            raise
    t_compile = time.monotonic() - t1
    del executable
    return {
        "jax": jax.__version__,
        "jaxlib": jaxlib.__version__,
        "device_kind": devices[0].device_kind,
        "target_config": str(cfg),
        "target_config_sha256": hashlib.sha256(cfg.read_bytes()).hexdigest(),
        "XLA_FLAGS": xla_flags,
        "env": {"JAX_SKIP_CUDA_CONSTRAINTS_CHECK": "1", "JAX_PLATFORMS": "cpu"},
        "partitions": partitions,
        "input_fixups": notes,
        "seconds_init": round(t_init, 2),
        "seconds_compile": round(t_compile, 2),
    }


# --------------------------------------------------------------------------
# Collecting stable-named files

def _module_prefix(files):
    """XLA's 'module_NNNN.NAME' prefix of the compiled module's dumps."""
    prefixes = sorted({f.name.split(".")[0] for f in files
                       if f.name.startswith("module_")})
    # The module compiled is the one with an after_optimizations dump.
    for p in prefixes:
        if any(f.name.startswith(p + ".") and
               f.name.endswith("after_optimizations.txt") for f in files):
            return p
    return prefixes[0] if prefixes else None


def _is_hlo_text_dump(path):
    """Per-pass HLO text dumps: every dumped .txt that is an HLO module.

    That is NNNN.<pipeline>.after_<pass>.before_<pass>.txt for each pass,
    before_optimizations.txt, after_spmd_partitioner.txt,
    before_config_assignment.txt and the final after_optimizations.txt.
    """
    if not path.name.endswith(".txt"):
        return False
    with open(path, "rb") as f:
        return f.read(10) == b"HloModule "


def reproducible_tar_xz(out_path, base_dir, names):
    """tar -cJf with sorted names, mtime 0, owner/group 0 (GNU tar)."""
    names = sorted(names)
    cmd = ["tar", "-cJf", str(out_path), "--sort=name", "--mtime=@0",
           "--owner=0", "--group=0", "--numeric-owner",
           "--mode=a+rX,u+w,go-w", "-C", str(base_dir), "--", *names]
    env = dict(os.environ, XZ_OPT="-9e", LC_ALL="C")
    subprocess.run(cmd, check=True, env=env)


def collect(dump_dir, out_dir, ptx_limit_kb):
    files = sorted(p for p in dump_dir.iterdir() if p.is_file())
    prefix = _module_prefix(files)
    if prefix is None:
        die(f"XLA wrote no module dumps into {dump_dir}")
    mine = [f for f in files if f.name.startswith(prefix + ".")]
    mapping = {}

    def pick(stable, pred, what):
        hits = [f for f in mine if pred(f.name)]
        if not hits:
            print(f"warning: no {what} in the dump", file=sys.stderr)
            return
        if len(hits) > 1:
            hits.sort(key=lambda f: len(f.name))
        shutil.copyfile(hits[0], out_dir / stable)
        mapping[stable] = hits[0].name

    pick("after_optimizations.txt",
         lambda n: re.search(r"\.[^.]*_gpu_after_optimizations\.txt$", n)
         is not None,
         "after_optimizations")
    pick("thunk_sequence.txt", lambda n: n.endswith("thunk_sequence.txt"),
         "thunk sequence")
    pick("buffer_assignment.txt",
         lambda n: n.endswith("buffer-assignment.txt"), "buffer assignment")
    pick("priority_fusion_dump.txt",
         lambda n: n.endswith("priority_fusion_dump.txt"),
         "priority fusion dump")
    # XLA GPU's buffer assignment has no live ranges; they are in this file.
    pick("live_range.txt", lambda n: n.endswith("-live-range.txt"),
         "live range")

    # XLA compiles kernels in parallel, so which kernel lands in which
    # numbered .ptx file varies between runs; order by kernel name instead.
    def entries(f):
        return re.findall(r"^\.visible \.entry (\S+?)\(", f.read_text(), re.M)
    ptx = sorted((f for f in mine if f.name.endswith(".ptx")),
                 key=lambda f: (entries(f), f.name))
    ptx_bytes = sum(f.stat().st_size for f in ptx)
    ptx_info = {"files": {f.name: entries(f) for f in ptx},
                "total_bytes": ptx_bytes, "limit_bytes": ptx_limit_kb * 1024}
    if ptx and ptx_bytes < ptx_limit_kb * 1024:
        with open(out_dir / "kernels.ptx", "w") as out:
            for f in ptx:
                text = f.read_text()
                out.write(f"// ===== kernels: {', '.join(entries(f))}\n")
                out.write(text if text.endswith("\n") else text + "\n")
        mapping["kernels.ptx"] = [f.name for f in ptx]
        ptx_info["written"] = True
    else:
        ptx_info["written"] = False
        ptx_info["reason"] = (
            "no PTX in the dump" if not ptx else
            "not kept: all PTX together is %d bytes, not under --ptx-limit-kb %d"
            % (ptx_bytes, ptx_limit_kb))

    passes = [f.name for f in mine if _is_hlo_text_dump(f)]
    if passes:
        reproducible_tar_xz(out_dir / "passes.tar.xz", dump_dir, passes)
        mapping["passes.tar.xz"] = sorted(passes)
    return prefix, mapping, ptx_info


def thunk_counts(thunk_path):
    """Thunk kinds in a thunk sequence dump, e.g. {"kCustomKernel": 9, ...}.

    Counts are static: a kernel inside a while body (indented under kWhile)
    is counted once, not once per trip.
    """
    counts = {}
    if not thunk_path.exists():
        return counts
    for line in thunk_path.read_text().splitlines():
        m = re.match(r"\s*\d+:\s+(k[A-Za-z0-9]+)", line)
        if m:
            counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    return dict(sorted(counts.items()))


def kernel_launches(counts):
    """Kernel-launch thunks (kKernel and kCustomKernel) among `counts`."""
    return sum(n for k, n in counts.items() if k in ("kKernel", "kCustomKernel"))


# --------------------------------------------------------------------------

def build_parser():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input", nargs="?", type=Path,
                    help="HLO text (.hlo/.txt) or StableHLO MLIR (.mlir)")
    ap.add_argument("--setup", action="store_true",
                    help=f"create the venv {VENV} and install the pinned JAX")
    ap.add_argument("--device", choices=DEVICES, default="h100_sxm",
                    help="target config (default h100_sxm)")
    ap.add_argument("--out", type=Path, help="output directory")
    ap.add_argument("--partitions", type=int, default=1, metavar="N",
                    help="SPMD partitions (topology 1x1xN; default 1)")
    ap.add_argument("--force", action="store_true",
                    help="replace a non-empty --out directory")
    ap.add_argument("--no-raw-dump", action="store_true",
                    help="delete DIR/xla_dump/ after collecting stable files")
    ap.add_argument("--ptx-limit-kb", type=int, default=PTX_LIMIT_KB,
                    metavar="KB",
                    help="write kernels.ptx only if all PTX is under this "
                         "(default %d; 0: never)" % PTX_LIMIT_KB)
    ap.add_argument("--vlog", metavar="MODULE=LEVEL[,...]",
                    help="XLA's own log of its reasons, written to "
                         "DIR/xla_vlog.txt (TF_CPP_VMODULE): gemm_fusion=6 "
                         "names every GEMM prologue candidate XLA took or "
                         "left out and why ('Too many parameters', "
                         "'Cannot fuse parameter', ...)")
    ap.add_argument("--costs", action="store_true",
                    help="write DIR/xla_costs.tsv: XLA's cost-model estimate "
                         "(blocks, threads, flops, bytes, times) of every "
                         "instruction priority fusion starts from")
    return ap


COSTS_VLOG = "gpu_performance_model=10"
_RUNTIME_DATA = re.compile(
    r"EstimateRunTimeForInstruction: (\S+)\n(?:[^\n]*\n)*?"
    r"[^\n]*Runtime data for HLO: \1\n"
    r"blocks: \{(\d+), \d+, \d+\}, threads/block: \{(\d+), \d+, \d+\}\n"
    r"EstimateRunTimeData\{\n(.*?)\n\}", re.S)


def _ns(text):
    """absl's duration text ("0", "6.25ns", "1.5us") in nanoseconds."""
    text = text.strip()
    if text == "0":
        return 0.0
    m = re.fullmatch(r"([0-9.e+-]+)(ns|us|ms|s)", text)
    if not m:
        die(f"unexpected duration {text!r} in XLA's cost log")
    return float(m.group(1)) * {"ns": 1, "us": 1e3, "ms": 1e6,
                                "s": 1e9}[m.group(2)]


def before_fusion_names(dump_text):
    """Instruction names of the module in priority_fusion_dump.txt's
    hlo_module_before_fusion (a C-escaped proto string)."""
    m = re.search(r'hlo_module_before_fusion: "((?:[^"\\]|\\.)*)"', dump_text)
    if not m:
        return set()
    module = m.group(1).encode("latin1").decode("unicode_escape")
    return set(re.findall(r"^\s*(?:ROOT )?([\w.\-]+) = ", module, re.M))


def write_costs(vlog_text, dump_text, path):
    """XLA's first estimate of each instruction of the pre-fusion module,
    as tab-separated values; returns how many."""
    names = before_fusion_names(dump_text)
    rows = {}
    for m in _RUNTIME_DATA.finditer(vlog_text):
        name = m.group(1)
        if name not in names or name in rows:
            continue
        fields = dict(ln.strip().split(": ", 1)
                      for ln in m.group(4).splitlines() if ": " in ln)
        rows[name] = [name, m.group(2), m.group(3), fields["flops"],
                      fields["bytes_read"], fields["bytes_written"],
                      *("%g" % _ns(fields[k]) for k in
                        ("read_time", "write_time", "compute_time",
                         "exec_time"))]
    header = ("# XLA GPU's cost-model estimate of each instruction before "
              "priority fusion (gpu_performance_model=10)\n"
              "name\tblocks\tthreads\tflops\tbytes_read\tbytes_written\t"
              "read_ns\twrite_ns\tcompute_ns\texec_ns\n")
    path.write_text(header + "".join("\t".join(r) + "\n"
                                     for r in rows.values()))
    return len(rows)


def drop_cost_lines(path):
    """Removes the cost model's per-instruction records from the log (kept
    in xla_costs.tsv instead)."""
    out, skipping = [], False
    for ln in path.read_text(errors="replace").splitlines(keepends=True):
        if re.match(r"[IWEF] \S+\.cc:\d+\] ", ln):  # a new record
            skipping = bool(re.match(r"[IWEF] gpu_performance_model(_base)?\.cc:", ln))
        if not skipping:
            out.append(ln)
    path.write_text("".join(out))


def start_vlog(spec):
    """Sets XLA's per-module log levels; call before jax is imported."""
    if not re.fullmatch(r"\w+=\d+(,\w+=\d+)*", spec):
        die(f"--vlog takes MODULE=LEVEL[,MODULE=LEVEL...] "
            f"(e.g. gemm_fusion=6), not {spec!r}")
    os.environ["TF_CPP_VMODULE"] = spec
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "0"


_GLOG_PREFIX = re.compile(r"^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ ")


def strip_log_prefixes(path, out_dir):
    """Drops glog's date, time and thread id from each line ("I1204
    22:21:17.379301   31913 gemm_fusion.cc:1830] ..." keeps its severity,
    "I gemm_fusion.cc:1830] ...") and writes this checkout's and the output
    folder's paths as <repo> and DIR, so the log says the same on any
    machine."""
    text = path.read_text(errors="replace")
    text = text.replace(str(out_dir), "DIR").replace(str(REPO), "<repo>")
    lines = text.splitlines(keepends=True)
    path.write_text("".join(
        _GLOG_PREFIX.sub(lambda m: m.group(0)[0] + " ", ln) for ln in lines))


class StderrToFile:
    """XLA logs to file descriptor 2: send it to `path` while compiling,
    keeping Python's own messages (sys.stderr) on the terminal."""

    def __init__(self, path):
        self.path = path

    def __enter__(self):
        sys.stderr.flush()
        self.saved = os.dup(2)
        self.py_stderr = sys.stderr
        sys.stderr = os.fdopen(os.dup(self.saved), "w")
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 2)
        os.close(fd)
        return self

    def __exit__(self, *exc):
        sys.stderr.flush()
        os.dup2(self.saved, 2)
        os.close(self.saved)
        sys.stderr.close()
        sys.stderr = self.py_stderr
        return False


def unsupported_import(input_path, message):
    """Dies with an explanation when XLA's HLO -> StableHLO import, the only
    way an HLO text file reaches a compile-only JAX client, has no StableHLO
    form for an op of the module."""
    if input_path.suffix == ".mlir":
        return
    hints = {
        "ragged-dot": "export the program from JAX as StableHLO instead "
                      "(jax.jit(f).trace(...).lower(lowering_platforms=("
                      "'cuda',)).as_text() writes chlo.ragged_dot) and run "
                      "this on that .mlir file",
        "scaled-dot": "StableHLO has no scaled dot at all, so this module "
                      "cannot be compiled here",
    }
    for op, what in (("mhlo.ragged_dot", "ragged-dot"),
                     ('"scaled-dot"', "scaled-dot")):
        if op in message:
            die(f"{input_path}: XLA's HLO-to-StableHLO import has no StableHLO "
                f"form for {what}, so a compile-only JAX client cannot take "
                f"this HLO text; {hints[what]}")


def main():
    ap = build_parser()
    args = ap.parse_args()
    if args.setup:
        setup()
        return
    if args.input is None or args.out is None:
        ap.error("an input file and --out DIR are needed (or --setup)")
    if not args.input.is_file():
        die(f"no such file: {args.input}")
    if args.partitions < 1:
        die("--partitions must be >= 1")
    out = args.out
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        if not args.force:
            die(f"{out} exists and is not empty; pass --force to replace it")
    ensure_venv()
    vlog = ",".join(v for v in (args.vlog, COSTS_VLOG if args.costs else None)
                    if v)
    if vlog:
        start_vlog(vlog)
    try:
        import jax  # noqa: F401
    except ImportError as e:
        die(f"cannot import jax in {sys.executable} ({e}); run "
            f"`{Path(__file__).name} --setup`")

    if out.exists():
        shutil.rmtree(out) if out.is_dir() else out.unlink()
    out.mkdir(parents=True)
    out = out.resolve()
    dump_dir = out / "xla_dump"
    dump_dir.mkdir()

    if vlog:
        # The log is cleaned even when XLA fails (it then says why).
        try:
            with StderrToFile(out / "xla_vlog.txt"):
                facts = compile_module(args.input.resolve(), args.device,
                                       args.partitions, dump_dir)
        finally:
            strip_log_prefixes(out / "xla_vlog.txt", out)
    else:
        facts = compile_module(args.input.resolve(), args.device,
                               args.partitions, dump_dir)
    prefix, mapping, ptx_info = collect(dump_dir, out, args.ptx_limit_kb)
    n_costs = None
    if args.costs:
        vlog_path = out / "xla_vlog.txt"
        dump_path = out / "priority_fusion_dump.txt"
        n_costs = write_costs(vlog_path.read_text(errors="replace"),
                              dump_path.read_text(errors="replace")
                              if dump_path.exists() else "",
                              out / "xla_costs.tsv")
        if not args.vlog:
            vlog_path.unlink()
        elif "gpu_performance_model=" not in args.vlog:
            drop_cost_lines(vlog_path)

    inp = args.input.resolve()
    try:
        shown = str(inp.relative_to(REPO))
    except ValueError:
        shown = str(inp)
    facts["target_config"] = os.path.relpath(facts["target_config"], REPO)
    facts["XLA_FLAGS"] = facts["XLA_FLAGS"].replace(str(dump_dir), "DIR/xla_dump")
    counts = thunk_counts(out / "thunk_sequence.txt")
    ref = {
        "format": "hloscope-xla-gpu-reference-v1",
        "input": shown,
        "input_sha256": hashlib.sha256(inp.read_bytes()).hexdigest(),
        "device": args.device,
        **facts,
        "xla_module_prefix": prefix,
        "kernel_launches": kernel_launches(counts),
        "thunk_kinds": counts,
        "ptx": ptx_info,
        "files": mapping,
        "command": " ".join(["tools/xla_gpu_reference.py", shown,
                             "--device", args.device, "--out", "DIR"] +
                            (["--partitions", str(args.partitions)]
                             if args.partitions > 1 else []) +
                            (["--no-raw-dump"] if args.no_raw_dump else []) +
                            (["--ptx-limit-kb", str(args.ptx_limit_kb)]
                             if args.ptx_limit_kb != PTX_LIMIT_KB else []) +
                            (["--vlog", args.vlog] if args.vlog else []) +
                            (["--costs"] if args.costs else [])),
    }
    if args.vlog:
        ref["vlog"] = {"modules": args.vlog, "file": "xla_vlog.txt"}
    if args.costs:
        ref["costs"] = {"file": "xla_costs.tsv", "instructions": n_costs,
                        "vlog": COSTS_VLOG}
    (out / "REFERENCE.json").write_text(json.dumps(ref, indent=2) + "\n")
    if args.no_raw_dump:
        shutil.rmtree(dump_dir)
    print(f"{shown}: compiled in {facts['seconds_compile']} s "
          f"(+{facts['seconds_init']} s init), "
          f"{ref['kernel_launches']} kernel launches -> {out}")


if __name__ == "__main__":
    main()
