"""The files tools/gen_samples.py writes, without JAX: reading HLO text back
(entry signature, parameters, computations, instruction counts), the
reference data file (hloscope-data-v1) and samples/README.md.

The HLO text helpers need only Python; the data file needs numpy and
ml_dtypes (jax's dependencies), imported where they are used.
"""

import json
import re

FORMAT = "hloscope-data-v1"

# --------------------------------------------------------------------------
# HLO text helpers
# --------------------------------------------------------------------------

def _bfloat16():
    import ml_dtypes  # jax's own dependency; imported where it is needed
    return ml_dtypes.bfloat16


def hlo_dtypes():
    import numpy as np
    return {
        np.dtype(np.bool_): "pred",
        np.dtype(np.int8): "s8", np.dtype(np.int16): "s16",
        np.dtype(np.int32): "s32", np.dtype(np.int64): "s64",
        np.dtype(np.uint8): "u8", np.dtype(np.uint16): "u16",
        np.dtype(np.uint32): "u32", np.dtype(np.uint64): "u64",
        np.dtype(np.float16): "f16", np.dtype(_bfloat16()): "bf16",
        np.dtype(np.float32): "f32", np.dtype(np.float64): "f64",
    }


def hlo_shape_of(dtype, shape):
    import numpy as np
    return "%s[%s]" % (hlo_dtypes()[np.dtype(dtype)], ",".join(str(d) for d in shape))


def hlo_shape(a):
    import numpy as np
    a = np.asarray(a)
    return hlo_shape_of(a.dtype, a.shape)


def strip_layout(shape):
    shape = re.sub(r"/\*.*?\*/", "", shape)       # /*index=5*/ comments
    return re.sub(r"\{[^{}]*\}", "", shape).strip()


def split_top(s):
    """Split on commas not nested in (), [] or {}."""
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def entry_layout(hlo_text):
    """(param shapes, result leaf shapes) from entry_computation_layout."""
    first = hlo_text.splitlines()[0]
    m = re.search(r"entry_computation_layout=\{", first)
    i, depth = m.end(), 1
    j = i
    while depth:
        depth += {"{": 1, "}": -1}.get(first[j], 0)
        j += 1
    layout = first[i:j - 1]
    params_s, result_s = layout.split(")->", 1)
    params = [strip_layout(p) for p in split_top(params_s[1:])]
    if result_s.startswith("("):
        results = [strip_layout(r) for r in split_top(result_s[1:-1])]
    else:
        results = [strip_layout(result_s)]
    return params, results


def computations(hlo_text):
    """Yield (header line, [instruction lines]) per computation."""
    comp, body = None, []
    for line in hlo_text.splitlines():
        if comp is None:
            if line.endswith("{") and not line.startswith((" ", "HloModule")):
                comp, body = line, []
        elif line.startswith("}"):
            yield comp, body
            comp = None
        else:
            body.append(line)


def instruction_count(hlo_text):
    return sum(1 for _, body in computations(hlo_text)
               for line in body if " = " in line)


def entry_parameters(hlo_text):
    for header, body in computations(hlo_text):
        if header.startswith("ENTRY"):
            out = {}
            for line in body:
                m = re.match(r"\s*(?:ROOT )?%?\S+ = (.+?) parameter\((\d+)\)", line)
                if m:
                    out[int(m.group(2))] = strip_layout(m.group(1))
            return [out[i] for i in range(len(out))]
    raise ValueError("no ENTRY computation")


# --------------------------------------------------------------------------
# Data JSON
# --------------------------------------------------------------------------

def fmt_value(v, kind):
    if kind == "b":
        return "true" if v else "false"
    if kind in "iu":
        return str(int(v))
    f = float(v)                      # exact for f16 / bf16 / f32 / f64
    if f != f:
        return '"nan"'
    if f in (float("inf"), float("-inf")):
        return '"inf"' if f > 0 else '"-inf"'
    return repr(f)


def tensor_json(a):
    import numpy as np
    a = np.asarray(a)
    kind = "f" if a.dtype == np.dtype(_bfloat16()) else a.dtype.kind
    flat = a.reshape(-1)
    if kind == "f" and a.dtype.itemsize < 4:
        flat = flat.astype(np.float32)  # exact widening of f16 / bf16
    vals = ",".join(fmt_value(v, kind) for v in flat.tolist())
    return '{"shape":"%s","values":[%s]}' % (hlo_shape(a), vals)


def json_str(s):
    return json.dumps(s)


def data_json(description, in_leaves, in_names, out_leaves, out_names, jax_version):
    import numpy as np
    bfloat16 = _bfloat16()
    lines = ['{"format":%s,' % json_str(FORMAT),
             ' "jax_version":%s,' % json_str(jax_version),
             ' "description":%s,' % json_str(description),
             ' "input_names":[%s],' % ",".join(json_str(n) for n in in_names),
             ' "output_names":[%s],' % ",".join(json_str(n) for n in out_names),
             ' "inputs":[']
    lines += ["  " + tensor_json(a) + ("," if i + 1 < len(in_leaves) else "")
              for i, a in enumerate(in_leaves)]
    lines.append(' ],')
    lines.append(' "outputs":[')
    lines += ["  " + tensor_json(a) + ("," if i + 1 < len(out_leaves) else "")
              for i, a in enumerate(out_leaves)]
    lines.append(' ]}')
    text = "\n".join(lines) + "\n"
    # Sanity: the file parses as JSON and reproduces every array bit-exactly.
    parsed = json.loads(text)
    for key, leaves in (("inputs", in_leaves), ("outputs", out_leaves)):
        assert len(parsed[key]) == len(leaves)
        for entry, a in zip(parsed[key], leaves):
            a = np.asarray(a)
            assert entry["shape"] == hlo_shape(a)
            vals = [float(v) if isinstance(v, str) else v for v in entry["values"]]
            back = np.array(vals, dtype=np.float64 if a.dtype.kind == "f"
                            or a.dtype == np.dtype(bfloat16) else a.dtype)
            back = back.astype(a.dtype).reshape(a.shape)
            if a.dtype == np.dtype(bfloat16) or a.dtype.kind == "f":
                same = back.tobytes() == np.ascontiguousarray(a).tobytes()
            else:
                same = np.array_equal(back, a)
            assert same, "round trip failed for %s" % entry["shape"]
    return text


# --------------------------------------------------------------------------
# README
# --------------------------------------------------------------------------

README_HEAD = """\
# hloscope samples

Real programs written in JAX and lowered/compiled by XLA, plus reference
inputs and outputs. **Generated** by `python3 tools/gen_samples.py` with
jax/jaxlib @JAX_VERSION@ on the CPU (`JAX_PLATFORMS=cpu`, `jax_enable_x64`
off); versions pinned in `tools/requirements-samples.txt` (the summary's `jax`
column says which version made each sample). Do not edit these files by hand;
rerun the script with `--force` instead (`--check` regenerates in memory and
reports any file that would change; `--only STEM --force --readme` regenerates
one sample and rewrites this file, reading the other samples' facts back from
their files).

**The tests never need Python or JAX: every output below is committed.**

## Files per sample `STEM`

| file | what it is | how it was produced |
|---|---|---|
| `STEM.hlo` | unoptimized HLO module text, exactly what JAX hands to XLA | `jax.jit(f).lower(*args).compiler_ir('hlo').as_hlo_text()` |
| `STEM.stablehlo.mlir` | StableHLO MLIR text with debug locations (`loc(...)`, paths relative to the repository) | `jax.jit(f).lower(*args).as_text(debug_info=True)` |
| `STEM.xla_cpu_optimized.hlo` | XLA's own optimized module from the CPU backend (fusions, layouts, schedule, copies) | `jax.jit(f).lower(*args).compile().as_text()` |
| `STEM.data.json` | the inputs and JAX's outputs for them (not for the real-size `*_large` samples) | running the compiled executable on the CPU |

Text-format notes for parsers (as produced by this jax version):

* `STEM.hlo` has no `%` sigils, no `metadata={...}` and no
  instruction types in the computation headers (`ENTRY main.5 {`); layouts
  are printed (`f32[8,16]{1,0}`). Parameter instructions are not necessarily
  in parameter-number order inside ENTRY, and computations are printed
  callee-first. Entry parameter names are derived from the Python argument
  paths (`params__w1__.1` for `params['w1']`).
* `STEM.xla_cpu_optimized.hlo` uses `%` sigils, typed computation headers
  (`ENTRY %main.5 (x.1: f32[2,3]) -> f32[2,3] {`), `metadata={op_name=...
  stack_frame_id=N}`, `backend_config={...}` JSON, and, between the
  `HloModule` line and the first computation, the stack-frame tables
  `FileNames`, `FunctionNames`, `FileLocations`, `StackFrames` (one entry per
  line, blank line between tables). It is CPU-specific and may differ
  between jaxlib versions and host CPUs.
* Instruction counts below are the number of lines containing ` = ` inside
  computations.

## `STEM.data.json` format (`hloscope-data-v1`)

```
{"format":"hloscope-data-v1",
 "inputs":[{"shape":"f32[2,3]","values":[...flat row-major numbers...]}, ...],
 "outputs":[{"shape":"f32[2,3]","values":[...]} , ...]}
```

* `inputs`: one entry per ENTRY-computation parameter, in parameter-number
  order (= the order in which JAX flattens the argument pytrees; dict keys
  sorted). The generator verifies count and shapes against the HLO ENTRY.
* `outputs`: one entry per output leaf; a tuple result is flattened in order
  (a single non-tuple result gives one entry).
* `shape`: HLO spelling, element type then dimensions: `pred`, `s8`, `s16`,
  `s32`, `s64`, `u8`, `u32`, `f16`, `bf16`, `f32`, `f64`; scalars are `f32[]`.
* `values`: flat, row-major (last dimension fastest), `product(dims)`
  elements (1 for a scalar). Integers are JSON integers; `pred` values are
  `true`/`false`; floats are written with enough digits to round-trip exactly
  (Python `repr` of the value as a double; parse as double, then round to the
  element type — this is exact). bf16 / f16 values are written as their exact
  value. Non-finite floats are the strings `"nan"`, `"inf"`, `"-inf"`.
* Extra top-level keys (ignore them if not needed): `jax_version`,
  `description`, `input_names`, `output_names` (the pytree path of each
  leaf, e.g. `params['w1']`, `out[1]['bn1']['running_mean']`).

Outputs are what XLA:CPU computed; an independent evaluator should compare
with a tolerance (transcendental functions, reduction order and bf16
rounding may legitimately differ in the last bits).

## GPU-optimized modules

These are not committed (generated without a GPU). On a machine with a GPU
and a CUDA-enabled jaxlib of the same version (`pip install
"jax[cuda12]==@JAX_VERSION@"`):

```
XLA_FLAGS=--xla_dump_to=/tmp/dump \\
    python3 tools/gen_samples.py --platform cuda --out /tmp/gpu_samples
```

and pick `/tmp/dump/*after_optimizations.txt` (one per jitted function; the
file names contain `jit_STEM`). The `--out` directory receives the same
files per sample, with the `.xla_cpu_optimized.hlo` name but GPU content, so
keep it out of `samples/`. Without `--platform cuda` the same `XLA_FLAGS`
setting dumps the CPU compilations instead (`*before_optimizations.txt`,
`*after_optimizations.txt`).

Which dump file to pick. Called directly (without `gen_samples.py`), set
`XLA_FLAGS="--xla_dump_to=/tmp/dump --xla_dump_hlo_as_text"`; every jitted
function then gives `module_NNNN.jit_STEM.before_optimizations.txt` (what JAX
handed to XLA), `module_NNNN.jit_STEM.sm_9.0_gpu_after_optimizations.txt`
(XLA:GPU's optimized module; `sm_X.Y` names the GPU, the CPU backend writes
`cpu_after_optimizations.txt`) and the same name ending in
`-buffer-assignment.txt` (XLA's own buffer assignment). The helper functions
JAX compiles on the way (`jit_convert_element_type`, `jit_broadcast_in_dim`,
...) get modules of their own: pick the one named `jit_STEM`
(`hloscope-cli xla-dump /tmp/dump` lists them with their steps; adding
`--xla_dump_hlo_pass_re=.*` also dumps the module after every pass). Then
`hloscope-cli compare samples/STEM.hlo /tmp/dump --module jit_STEM
--pipeline-a gpu` compares our GPU pipeline with XLA's, and
`hloscope-cli export-timeline --xla-buffer-assignment FILE -o xla.svg` draws
XLA's buffer timeline.

## Real-size samples (`*_large`)

Fusion decisions depend on shapes, and the samples above are tiny.
`transformer_block_large`, `attention_large`, `mlp_gelu_large`,
`layer_norm_large` and `resnet_block_large` are the same JAX functions at real
sizes: GPT-2 small (batch 8, sequence 1024, width 768, 12 heads of 64, MLP
3072) and, for the ResNet block, NHWC `[8,56,56,64]` into the first
downsampling block of ResNet-18/34's second stage (`[8,28,28,128]` out). Their
modules have as many instructions as the small ones, but the arrays are large
(the attention scores alone are `f32[8,12,1024,1024]`, 384 MiB), so they have
**no recorded values**: no `STEM.data.json`; JAX lowers and compiles them but
never runs them, and the tests never run them through the reference
interpreter (numeric checks stay on the small samples). Their HLO module names
end in `_large` (`jit_transformer_block_fn_large`). `transformer_block_large`
is the GUI's default sample. XLA's own GPU compilation of each (H100 SXM) is in
`xla_gpu/STEM/` (see `xla_gpu/README.md`).

## Summary

| stem | params | outputs | HLO instructions | optimized (CPU) | recorded values | jax | bytes (all files) |
|---|---:|---:|---:|---:|---|---|---:|
@SUMMARY_ROWS@

"""


OLD_DEFAULT_PREFIX = "THE DEFAULT SAMPLE. "


def readme(infos, default_sample):
    rows = []
    for i in infos:
        rows.append("| `%s` | %d | %d | %d | %d | %s | %s | %d |" % (
            i["stem"], len(i["inputs"]), len(i["outputs"]), i["instructions"],
            i["opt_instructions"],
            "**no** (real size)" if i["large"] else "yes",
            i["jax"], sum(i["bytes"].values())))
    versions = sorted({i["jax"] for i in infos})
    text = (README_HEAD.replace("@JAX_VERSION@", " / ".join(versions))
            .replace("@SUMMARY_ROWS@", "\n".join(rows)))
    for i in infos:
        default = " (default sample)" if i["stem"] == default_sample else ""
        description = i["description"]
        if description.startswith(OLD_DEFAULT_PREFIX):  # see make_transformer_block
            description = description[len(OLD_DEFAULT_PREFIX):]
        text += "## `%s`%s\n\n%s\n\n" % (i["stem"], default, description)
        if i["large"]:
            text += ("* **No recorded values** (real size): no `%s.data.json`; "
                     "made with jax %s\n" % (i["stem"], i["jax"]))
        text += ("* HLO instructions: %d in %d computation(s) (optimized CPU "
                 "module: %d)%s\n" % (i["instructions"], i["computations"],
                                      i["opt_instructions"],
                                      "; contains a `while` loop" if i["has_while"] else ""))
        text += "* Inputs (%d):\n" % len(i["inputs"])
        text += "".join("  %d. `%s` `%s`\n" % (k, s, n)
                        for k, (n, s) in enumerate(i["inputs"]))
        text += "* Outputs (%d):\n" % len(i["outputs"])
        text += "".join("  %d. `%s` `%s`\n" % (k, s, n)
                        for k, (n, s) in enumerate(i["outputs"]))
        text += "* Files: %s\n\n" % ", ".join(
            "`%s` (%d B)" % (f, b) for f, b in i["bytes"].items())
    return text


def readme_versions(path):
    """{stem: jax version} from the summary table of an existing README.md."""
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        m = re.match(r"\| `(\w+)` \|(?:[^|]*\|){5} ([^ |]+) \| \d+ \|$", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out
