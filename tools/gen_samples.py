#!/usr/bin/env python3
"""Generate hloscope's sample programs and reference data with JAX (on the CPU).

For every sample STEM this writes, into samples/ (next to tools/):

  STEM.hlo                    unoptimized HLO text (what JAX hands to XLA)
  STEM.stablehlo.mlir         StableHLO MLIR text with debug locations
  STEM.xla_cpu_optimized.hlo  XLA's optimized module from the CPU backend
  STEM.data.json              inputs and JAX's outputs ("hloscope-data-v1");
                              not for the real-size STEM_large samples, which
                              are lowered and compiled but never run

plus samples/README.md describing all of them.

Usage:
  python3 tools/gen_samples.py                 # refuses to overwrite
  python3 tools/gen_samples.py --force         # regenerate everything
  python3 tools/gen_samples.py --check         # regenerate in memory, diff
  python3 tools/gen_samples.py --only softmax  # a subset (repeatable)
  python3 tools/gen_samples.py --only mlp_gelu_large --force --readme
      # a subset, and README.md rewritten with the other samples' facts
      # read back from their committed files

Requirements: tools/requirements-samples.txt (jax/jaxlib pinned).  The
hloscope tests never run this script: all of its outputs are committed.

To also get the GPU-optimized modules, run on a machine with a CUDA jaxlib
(pip install "jax[cuda12]==<same version>"):
  XLA_FLAGS=--xla_dump_to=/tmp/dump \
      python3 tools/gen_samples.py --platform cuda --out /tmp/gpu_samples
and pick /tmp/dump/*after_optimizations.txt.
"""

import argparse
import json
import os
import re
import sys
from pathlib import Path


def build_parser():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--force", action="store_true",
                    help="overwrite existing files")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; report files that would change")
    ap.add_argument("--only", action="append", metavar="STEM",
                    help="generate only this sample (repeatable; no README "
                         "unless --readme)")
    ap.add_argument("--readme", action="store_true",
                    help="with --only: also rewrite README.md, reading the "
                         "other samples' facts back from their files")
    ap.add_argument("--out", type=Path, default=None,
                    help="output directory (default: samples/ next to tools/)")
    ap.add_argument("--platform", default="cpu",
                    help="JAX platform (default cpu; e.g. cuda for the GPU "
                         "dump described in samples/README.md)")
    return ap


# Parsed before jax is imported: JAX_PLATFORMS must be set first.
ARGS = build_parser().parse_args() if __name__ == "__main__" else None
os.environ["JAX_PLATFORMS"] = ARGS.platform if ARGS else "cpu"
os.environ["JAX_ENABLE_X64"] = "0"

import numpy as np  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jaxlib  # noqa: E402
from jax import lax  # noqa: E402

import sample_files  # noqa: E402  (tools/: what the script writes, without JAX)
from sample_files import (  # noqa: E402,F401  (gen_jax_random_samples.py uses them too)
    computations, entry_layout, entry_parameters, hlo_shape, hlo_shape_of,
    instruction_count, readme_versions)

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "samples"

jax.config.update("jax_enable_x64", False)
# Source paths in debug info / metadata become repository-relative
# ("tools/gen_samples.py") instead of machine-specific absolute paths.
jax.config.update("jax_hlo_source_file_canonicalization_regex",
                  "^" + re.escape(str(REPO_ROOT)) + "/")


# --------------------------------------------------------------------------
# Building blocks
# --------------------------------------------------------------------------

def layer_norm(x, g, b, eps=1e-5):
    mu = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mu), axis=-1, keepdims=True)
    return (x - mu) * lax.rsqrt(var + eps) * g + b


def causal_self_attention(x, w_qkv, b_qkv, w_o, b_o, n_head):
    """GPT-2 style causal multi-head self-attention; x: [B, T, C]."""
    B, T, C = x.shape
    hd = C // n_head
    qkv = x @ w_qkv + b_qkv                                  # [B, T, 3C]
    q, k, v = jnp.split(qkv, 3, axis=-1)                     # [B, T, C] each

    def heads(t):                                            # -> [B, H, T, hd]
        return t.reshape(B, T, n_head, hd).transpose(0, 2, 1, 3)

    q, k, v = heads(q), heads(k), heads(v)
    att = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(hd).astype(np.float32)
    mask = jnp.tril(jnp.ones((T, T), dtype=bool))
    att = jnp.where(mask, att, -jnp.inf)
    att = jax.nn.softmax(att, axis=-1)
    y = jnp.einsum("bhqk,bhkd->bhqd", att, v)                # [B, H, T, hd]
    y = y.transpose(0, 2, 1, 3).reshape(B, T, C)
    return y @ w_o + b_o


def transformer_block(p, x, n_head):
    """GPT-2 block (pre-LN): x + attn(ln1(x)); then x + mlp(ln2(x))."""
    h = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = x + causal_self_attention(h, p["attn_w_qkv"], p["attn_b_qkv"],
                                  p["attn_w_o"], p["attn_b_o"], n_head)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    h = jax.nn.gelu(h @ p["mlp_w_fc"] + p["mlp_b_fc"], approximate=True)
    return x + h @ p["mlp_w_proj"] + p["mlp_b_proj"]


def init_block(rng, d, mlp_ratio=4):
    def lin(fan_in, fan_out):
        return (rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in)).astype(np.float32)

    def vec(n, scale=0.1, offset=0.0):
        return (offset + scale * rng.standard_normal(n)).astype(np.float32)

    return {
        "ln1_g": vec(d, offset=1.0), "ln1_b": vec(d),
        "attn_w_qkv": lin(d, 3 * d), "attn_b_qkv": vec(3 * d),
        "attn_w_o": lin(d, d), "attn_b_o": vec(d),
        "ln2_g": vec(d, offset=1.0), "ln2_b": vec(d),
        "mlp_w_fc": lin(d, mlp_ratio * d), "mlp_b_fc": vec(mlp_ratio * d),
        "mlp_w_proj": lin(mlp_ratio * d, d), "mlp_b_proj": vec(d),
    }


def normal(rng, shape, scale=1.0):
    return (scale * rng.standard_normal(shape)).astype(np.float32)


# --------------------------------------------------------------------------
# Samples.  Each make_*(rng) returns (fn, args, description); the HLO
# parameters are the leaves of args in jax.tree_util flattening order.
# --------------------------------------------------------------------------

def make_mlp_gelu(rng, large=False):
    def mlp_gelu(params, x):
        h = jax.nn.gelu(x @ params["w1"] + params["b1"], approximate=False)
        return h @ params["w2"] + params["b2"]

    if large:  # GPT-2-small MLP: tokens 8x1024, 768 -> 3072 -> 768
        d, f = 768, 3072
        params = {"w1": normal(rng, (d, f), 1 / np.sqrt(d)), "b1": normal(rng, f, 0.1),
                  "w2": normal(rng, (f, d), 1 / np.sqrt(f)), "b2": normal(rng, d, 0.1)}
        x = normal(rng, (8, 1024, d))
        return (mlp_gelu, (params, x),
                "mlp_gelu at GPT-2-small size: x [8,1024,768] (8x1024 tokens), "
                "768 -> 3072 -> 768, exact (erf-based) GELU.")
    params = {"w1": normal(rng, (16, 64), 0.25), "b1": normal(rng, 64, 0.1),
              "w2": normal(rng, (64, 16), 0.125), "b2": normal(rng, 16, 0.1)}
    x = normal(rng, (8, 16))
    return (mlp_gelu, (params, x),
            "Two-layer MLP y = gelu(x @ w1 + b1) @ w2 + b2 with the exact "
            "(erf-based) GELU; XLA expands erf into a polynomial, so the module "
            "is mostly elementwise arithmetic, compares and selects.")


def make_mlp_gelu_bf16(rng):
    def mlp_gelu_bf16(params, x):
        h = jax.nn.gelu(x @ params["w1"] + params["b1"], approximate=True)
        return h @ params["w2"] + params["b2"]

    bf16 = jnp.bfloat16
    params = {"w1": normal(rng, (16, 32), 0.25).astype(bf16),
              "b1": normal(rng, 32, 0.1).astype(bf16),
              "w2": normal(rng, (32, 8), 0.18).astype(bf16),
              "b2": normal(rng, 8, 0.1).astype(bf16)}
    x = normal(rng, (4, 16)).astype(bf16)
    return (mlp_gelu_bf16, (params, x),
            "The MLP computed entirely in bfloat16 (inputs, weights, dots and "
            "the tanh-approximate GELU); outputs are bf16.")


def make_softmax(rng):
    def softmax(x):
        return jax.nn.softmax(x, axis=-1)

    x = normal(rng, (4, 16), 2.0)
    return (softmax, (x,),
            "Numerically stable softmax over the last axis (jax.nn.softmax): "
            "max-reduce, subtract, exp, sum-reduce, divide.")


def make_layer_norm(rng, large=False):
    def layer_norm_fn(x, gamma, beta):
        return layer_norm(x, gamma, beta)

    if large:
        d = 768
        x = normal(rng, (8, 1024, d), 1.5) + np.float32(0.5)
        gamma = (1.0 + 0.1 * rng.standard_normal(d)).astype(np.float32)
        beta = normal(rng, d, 0.1)
        return (layer_norm_fn, (x, gamma, beta),
                "layer_norm at GPT-2-small size: x [8,1024,768], normalized "
                "over the last axis (768), eps = 1e-5.")
    x = normal(rng, (8, 32), 1.5) + np.float32(0.5)
    gamma = (1.0 + 0.1 * rng.standard_normal(32)).astype(np.float32)
    beta = normal(rng, 32, 0.1)
    return (layer_norm_fn, (x, gamma, beta),
            "Layer normalization over the last axis with learned scale and "
            "shift, eps = 1e-5 (mean, variance, rsqrt).")


def make_attention(rng, large=False):
    d, n_head = (768, 12) if large else (32, 4)

    def attention(params, x):
        return causal_self_attention(x, params["w_qkv"], params["b_qkv"],
                                     params["w_o"], params["b_o"], n_head)

    blk = init_block(rng, d)
    params = {"w_qkv": blk["attn_w_qkv"], "b_qkv": blk["attn_b_qkv"],
              "w_o": blk["attn_w_o"], "b_o": blk["attn_b_o"]}
    if large:
        x = normal(rng, (8, 1024, d))
        return (attention, (params, x),
                "attention at GPT-2-small size: causal multi-head self-attention, "
                "batch 8, seq 1024, d_model 768, 12 heads of 64 (scores "
                "[8,12,1024,1024]).")
    x = normal(rng, (2, 8, d))
    return (attention, (params, x),
            "Causal multi-head self-attention (batch 2, seq 8, d_model 32, "
            "4 heads of 8): fused QKV projection, split into heads, scaled "
            "Q.K^T, lower-triangular mask with -inf, softmax, weighted sum of "
            "V, output projection.")


def make_transformer_block(rng, large=False):
    d, n_head = (768, 12) if large else (32, 4)

    def transformer_block_fn(params, x):
        return transformer_block(params, x, n_head)

    params = init_block(rng, d)
    if large:
        x = normal(rng, (8, 1024, d))
        return (transformer_block_fn, (params, x),
                "transformer_block at GPT-2-small size: batch 8, seq 1024, d_model 768, 12 heads of "
                "64, MLP 3072 (tanh-approximate GELU).")
    x = normal(rng, (2, 8, d))
    # The description is recorded in transformer_block.data.json as it was
    # written when this was the GUI's default; README.md drops that prefix
    # (see readme()).
    return (transformer_block_fn, (params, x),
            "THE DEFAULT SAMPLE. One GPT-2-style (pre-LayerNorm) transformer "
            "block forward: x + attn(ln1(x)), then x + mlp(ln2(x)); causal "
            "multi-head self-attention (4 heads), MLP with tanh-approximate "
            "GELU and 4x expansion. Batch 2, seq 8, d_model 32.")


def make_transformer_train_step(rng):
    # Smaller width than transformer_block (same block code) so that the
    # parameters + Adam state stay small on disk; 2 blocks.
    vocab, seq, batch, d, n_head, n_layer = 16, 8, 2, 8, 2, 2
    lr, b1, b2, eps = 1e-3, 0.9, 0.999, 1e-8

    def forward_loss(params, tokens, targets):
        x = params["wte"][tokens] + params["wpe"][None, :, :]       # [B, T, d]
        for blk in params["blocks"]:
            x = transformer_block(blk, x, n_head)
        x = layer_norm(x, params["lnf_g"], params["lnf_b"])
        logits = x @ params["wte"].T                                # tied head
        logp = jax.nn.log_softmax(logits, axis=-1)
        nll = -jnp.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
        return jnp.mean(nll)

    def transformer_train_step(params, adam_m, adam_v, step, tokens, targets):
        loss, grads = jax.value_and_grad(forward_loss)(params, tokens, targets)
        t = (step + 1).astype(jnp.float32)
        new_m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g,
                                       adam_m, grads)
        new_v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g,
                                       adam_v, grads)
        corr1 = 1 - jnp.power(jnp.float32(b1), t)
        corr2 = 1 - jnp.power(jnp.float32(b2), t)
        new_params = jax.tree_util.tree_map(
            lambda p, m, v: p - lr * (m / corr1) / (jnp.sqrt(v / corr2) + eps),
            params, new_m, new_v)
        return loss, new_params, new_m, new_v, step + 1

    params = {
        "wte": normal(rng, (vocab, d), 0.5),
        "wpe": normal(rng, (seq, d), 0.1),
        "blocks": [init_block(rng, d) for _ in range(n_layer)],
        "lnf_g": (1.0 + 0.1 * rng.standard_normal(d)).astype(np.float32),
        "lnf_b": normal(rng, d, 0.1),
    }
    # Adam state as after a few steps: small first moments, positive second.
    adam_m = jax.tree_util.tree_map(lambda p: normal(rng, p.shape, 1e-3), params)
    adam_v = jax.tree_util.tree_map(
        lambda p: np.square(normal(rng, p.shape, 1e-3)).astype(np.float32), params)
    step = np.int32(3)
    tokens = rng.randint(0, vocab, size=(batch, seq)).astype(np.int32)
    targets = np.concatenate(
        [tokens[:, 1:], rng.randint(0, vocab, size=(batch, 1))], axis=1).astype(np.int32)
    return (transformer_train_step, (params, adam_m, adam_v, step, tokens, targets),
            "A full training step of a 2-block GPT-2-style language model "
            "(vocab 16, seq 8, batch 2, d_model 8, 2 heads, MLP 32; token + position "
            "embeddings, final LayerNorm, head tied to the token embedding): "
            "forward, mean next-token cross-entropy, backward via "
            "jax.value_and_grad, and a hand-written Adam update (lr 1e-3, "
            "b1 0.9, b2 0.999, eps 1e-8, bias correction from the s32 step "
            "counter). Outputs: loss, new params, new Adam m, new Adam v, "
            "step + 1.")


def make_resnet_block(rng, large=False):
    eps, momentum = 1e-5, 0.9
    dn = ("NHWC", "HWIO", "NHWC")

    def conv(x, w, stride, pad):
        return lax.conv_general_dilated(x, w, window_strides=(stride, stride),
                                        padding=((pad, pad), (pad, pad)),
                                        dimension_numbers=dn)

    def batch_norm(x, bn):
        mean = jnp.mean(x, axis=(0, 1, 2))
        var = jnp.mean(jnp.square(x - mean), axis=(0, 1, 2))
        y = (x - mean) * lax.rsqrt(var + eps) * bn["gamma"] + bn["beta"]
        n = x.shape[0] * x.shape[1] * x.shape[2]
        new_stats = {
            "running_mean": momentum * bn["running_mean"] + (1 - momentum) * mean,
            "running_var": momentum * bn["running_var"]
            + (1 - momentum) * var * (n / (n - 1)),
        }
        return y, new_stats

    def resnet_block(params, x):
        h = conv(x, params["conv1_w"], stride=2, pad=1)
        h, s1 = batch_norm(h, params["bn1"])
        h = jax.nn.relu(h)
        h = conv(h, params["conv2_w"], stride=1, pad=1)
        h, s2 = batch_norm(h, params["bn2"])
        sc = conv(x, params["shortcut_w"], stride=2, pad=0)
        sc, s3 = batch_norm(sc, params["bn_shortcut"])
        y = jax.nn.relu(h + sc)
        return y, {"bn1": s1, "bn2": s2, "bn_shortcut": s3}

    # Large: the first downsampling block of ResNet-18/34's second stage.
    c_in, c_out = (64, 128) if large else (4, 8)

    def bn_params():
        return {"gamma": (1.0 + 0.1 * rng.standard_normal(c_out)).astype(np.float32),
                "beta": normal(rng, c_out, 0.1),
                "running_mean": normal(rng, c_out, 0.1),
                "running_var": (1.0 + 0.1 * rng.random(c_out)).astype(np.float32)}

    params = {
        "conv1_w": normal(rng, (3, 3, c_in, c_out), 1 / np.sqrt(9 * c_in)),
        "bn1": bn_params(),
        "conv2_w": normal(rng, (3, 3, c_out, c_out), 1 / np.sqrt(9 * c_out)),
        "bn2": bn_params(),
        "shortcut_w": normal(rng, (1, 1, c_in, c_out), 1 / np.sqrt(c_in)),
        "bn_shortcut": bn_params(),
    }
    if large:
        x = normal(rng, (8, 56, 56, c_in))
        return (resnet_block, (params, x),
                "resnet_block at ImageNet ResNet size: input NHWC [8,56,56,64] "
                "-> output [8,28,28,128]; the same 3x3 stride-2 and 3x3 "
                "convolutions, 1x1 stride-2 projection shortcut and "
                "training-mode batch norms.")
    x = normal(rng, (2, 8, 8, c_in))
    return (resnet_block, (params, x),
            "ResNet basic block with downsampling, NHWC activations and HWIO "
            "kernels: conv3x3 stride 2 -> batch norm -> relu -> conv3x3 -> "
            "batch norm, plus a conv1x1 stride 2 + batch norm projection "
            "shortcut; add, relu. Batch norm uses training-mode batch "
            "statistics and also returns updated running mean/var (momentum "
            "0.9, unbiased variance). Input [2,8,8,4] -> output [2,4,4,8].")


def make_embedding_xent(rng):
    vocab, d, batch, seq = 50, 16, 2, 8

    def embedding_xent(params, tokens, targets):
        h = params["embedding"][tokens]                        # gather
        logits = h @ params["w_out"] + params["b_out"]         # [B, T, V]
        logp = jax.nn.log_softmax(logits, axis=-1)
        nll = -jnp.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
        correct = jnp.argmax(logits, axis=-1) == targets
        return jnp.mean(nll), nll, correct

    params = {"embedding": normal(rng, (vocab, d)),
              "w_out": normal(rng, (d, vocab), 1 / np.sqrt(d)),
              "b_out": normal(rng, vocab, 0.1)}
    tokens = rng.randint(0, vocab, size=(batch, seq)).astype(np.int32)
    targets = rng.randint(0, vocab, size=(batch, seq)).astype(np.int32)
    return (embedding_xent, (params, tokens, targets),
            "Embedding lookup (gather of rows by s32 token id), linear "
            "projection to vocabulary logits, log-softmax cross-entropy "
            "against s32 targets (a second gather). Outputs: mean loss, "
            "per-token loss, and a pred mask of argmax(logits) == target.")


def make_scan_rnn(rng):
    T, B, D, H = 6, 2, 4, 8

    def scan_rnn(params, h0, xs):
        def cell(h, x):
            h = jnp.tanh(x @ params["w_x"] + h @ params["w_h"] + params["b"])
            return h, h

        h_final, hs = lax.scan(cell, h0, xs)
        return h_final, hs

    params = {"w_x": normal(rng, (D, H), 1 / np.sqrt(D)),
              "w_h": normal(rng, (H, H), 1 / np.sqrt(H)),
              "b": normal(rng, H, 0.1)}
    h0 = normal(rng, (B, H), 0.5)
    xs = normal(rng, (T, B, D))
    return (scan_rnn, (params, h0, xs),
            "Elman RNN h' = tanh(x @ w_x + h @ w_h + b) over 6 time steps via "
            "lax.scan, which lowers to an HLO while loop (condition and body "
            "computations, dynamic-slice / dynamic-update-slice on the "
            "stacked sequence). Outputs: final hidden state and all hidden "
            "states.")


SAMPLES = [
    ("mlp_gelu", make_mlp_gelu),
    ("mlp_gelu_bf16", make_mlp_gelu_bf16),
    ("softmax", make_softmax),
    ("layer_norm", make_layer_norm),
    ("attention", make_attention),
    ("transformer_block", make_transformer_block),
    ("transformer_train_step", make_transformer_train_step),
    ("resnet_block", make_resnet_block),
    ("embedding_xent", make_embedding_xent),
    ("scan_rnn", make_scan_rnn),
    # Real sizes (GPT-2 small, ImageNet ResNet): the same functions with
    # bigger shapes, for fusion decisions that depend on shapes.  They are
    # lowered and compiled but never run: no STEM.data.json (numeric checks
    # use the small samples).
    ("transformer_block_large", lambda rng: make_transformer_block(rng, large=True)),
    ("attention_large", lambda rng: make_attention(rng, large=True)),
    ("mlp_gelu_large", lambda rng: make_mlp_gelu(rng, large=True)),
    ("layer_norm_large", lambda rng: make_layer_norm(rng, large=True)),
    ("resnet_block_large", lambda rng: make_resnet_block(rng, large=True)),
]
# Seed per sample: stable under reordering / --only.
SEEDS = {stem: 1000 + i for i, (stem, _) in enumerate(SAMPLES)}


def is_large(stem):
    """Real-size sample: no recorded values (no STEM.data.json)."""
    return stem.endswith("_large")


# The sample the GUI opens by default (app/gui/main_window.cc).
DEFAULT_SAMPLE = "transformer_block_large"

SUFFIXES = [".hlo", ".stablehlo.mlir", ".xla_cpu_optimized.hlo", ".data.json"]


def suffixes(stem):
    return [s for s in SUFFIXES if not (is_large(stem) and s == ".data.json")]


def data_json(description, in_leaves, in_names, out_leaves, out_names):
    return sample_files.data_json(description, in_leaves, in_names, out_leaves,
                                  out_names, jax.__version__)


def leaf_names(tree, root):
    paths, _ = jax.tree_util.tree_flatten_with_path(tree)
    return [root + jax.tree_util.keystr(p) for p, _ in paths]


# --------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------

def hlo_text_of(lowered):
    """Unoptimized HLO text; tolerate older/newer JAX APIs."""
    try:
        return lowered.compiler_ir("hlo").as_hlo_text()
    except Exception:  # pragma: no cover - depends on the JAX version
        return lowered.as_text(dialect="hlo")


def stablehlo_text_of(lowered):
    try:
        return lowered.as_text(debug_info=True)
    except TypeError:  # pragma: no cover - older JAX
        return lowered.as_text()


def generate(stem, maker):
    rng = np.random.RandomState(SEEDS[stem])
    fn, args, description = maker(rng)
    large = is_large(stem)
    if large:  # module jit_NAME_large, apart from the small sample's jit_NAME
        fn.__name__ += "_large"
    # Arguments go in as numpy arrays so the data file and the run see
    # exactly the same bits.
    arg_names = fn.__code__.co_varnames[:fn.__code__.co_argcount]
    in_leaves = jax.tree_util.tree_leaves(args)
    in_names = [n for name, a in zip(arg_names, args) for n in leaf_names(a, name)]

    lowered = jax.jit(fn).lower(*args)
    hlo = hlo_text_of(lowered)
    mlir = stablehlo_text_of(lowered)
    compiled = lowered.compile()
    opt = compiled.as_text()
    if large:  # never run: only the output structure and shapes
        out = jax.eval_shape(fn, *args)
        out_leaves = None
        want_out = [hlo_shape_of(o.dtype, o.shape)
                    for o in jax.tree_util.tree_leaves(out)]
    else:
        out = compiled(*args)
        out_leaves = [np.asarray(o) for o in jax.tree_util.tree_leaves(out)]
        want_out = [hlo_shape(a) for a in out_leaves]
    out_names = leaf_names(out, "out")

    # ---- consistency checks against the HLO module itself
    layout_params, layout_results = entry_layout(hlo)
    params = entry_parameters(hlo)
    want_in = [hlo_shape(a) for a in in_leaves]
    if params != want_in or layout_params != want_in:
        raise SystemExit("%s: ENTRY parameters %s != inputs %s"
                         % (stem, params, want_in))
    if layout_results != want_out:
        raise SystemExit("%s: ENTRY result %s != outputs %s"
                         % (stem, layout_results, want_out))
    opt_params, opt_results = entry_layout(opt)
    if opt_params != want_in or opt_results != want_out:
        raise SystemExit("%s: optimized module signature differs" % stem)

    # Properties the samples exist to demonstrate.
    if stem == "scan_rnn" and not re.search(r" while\(", hlo):
        raise SystemExit("scan_rnn: expected a while loop in the HLO")
    if stem == "transformer_train_step" and instruction_count(hlo) <= 1000:
        raise SystemExit("transformer_train_step: expected > 1000 instructions")

    files = {
        stem + ".hlo": hlo,
        stem + ".stablehlo.mlir": mlir,
        stem + ".xla_cpu_optimized.hlo": opt,
    }
    if not large:
        files[stem + ".data.json"] = data_json(description, in_leaves, in_names,
                                               out_leaves, out_names)
    info = {
        "stem": stem, "description": description, "large": large,
        "jax": jax.__version__,
        "inputs": list(zip(in_names, want_in)),
        "outputs": list(zip(out_names, want_out)),
        "instructions": instruction_count(hlo),
        "opt_instructions": instruction_count(opt),
        "computations": sum(1 for _ in computations(hlo)),
        "has_while": bool(re.search(r" while\(", hlo)),
        "bytes": {k: len(v.encode()) for k, v in files.items()},
    }
    return files, info


def info_from_files(stem, maker, out_dir, versions):
    """README facts of a sample this run did not regenerate, read back from
    its files: nothing is lowered or run (the maker's arrays give the input
    names, jax.eval_shape the output names)."""
    rng = np.random.RandomState(SEEDS[stem])
    fn, args, description = maker(rng)
    arg_names = fn.__code__.co_varnames[:fn.__code__.co_argcount]
    in_names = [n for name, a in zip(arg_names, args) for n in leaf_names(a, name)]
    out_names = leaf_names(jax.eval_shape(fn, *args), "out")
    hlo = (out_dir / (stem + ".hlo")).read_text()
    opt = (out_dir / (stem + ".xla_cpu_optimized.hlo")).read_text()
    params, results = entry_layout(hlo)
    if len(params) != len(in_names) or len(results) != len(out_names):
        raise SystemExit("%s: %s does not match the sample's signature; "
                         "regenerate it" % (stem, stem + ".hlo"))
    data = out_dir / (stem + ".data.json")
    version = (json.loads(data.read_text()).get("jax_version", "?")
               if data.exists() else versions.get(stem, "?"))
    return {
        "stem": stem, "description": description, "large": is_large(stem),
        "jax": version,
        "inputs": list(zip(in_names, params)),
        "outputs": list(zip(out_names, results)),
        "instructions": instruction_count(hlo),
        "opt_instructions": instruction_count(opt),
        "computations": sum(1 for _ in computations(hlo)),
        "has_while": bool(re.search(r" while\(", hlo)),
        "bytes": {stem + s: (out_dir / (stem + s)).stat().st_size
                  for s in suffixes(stem)},
    }


# --------------------------------------------------------------------------

def main():
    ap = build_parser()
    args = ARGS
    if args.out is None:
        args.out = DEFAULT_OUT

    known = [s for s, _ in SAMPLES]
    chosen = SAMPLES
    if args.only:
        bad = [s for s in args.only if s not in known]
        if bad:
            ap.error("unknown sample(s) %s; known: %s" % (bad, ", ".join(known)))
        chosen = [(s, m) for s, m in SAMPLES if s in args.only]
    if args.readme and not args.only:
        ap.error("--readme goes with --only (a full run always writes README.md)")
    write_readme = not args.only or args.readme

    targets = [args.out / (s + suf) for s, _ in chosen for suf in suffixes(s)]
    if write_readme:
        targets.append(args.out / "README.md")
    existing = [t for t in targets if t.exists()]
    if existing and not (args.force or args.check):
        print("refusing to overwrite %d existing file(s) (e.g. %s); pass --force"
              % (len(existing), existing[0]), file=sys.stderr)
        return 1

    all_files, infos = {}, []
    for stem, maker in chosen:
        files, info = generate(stem, maker)
        all_files.update(files)
        infos.append(info)
    if write_readme:
        made = {i["stem"]: i for i in infos}
        versions = readme_versions(args.out / "README.md")
        all_files["README.md"] = sample_files.readme([
            made[s] if s in made else info_from_files(s, m, args.out, versions)
            for s, m in SAMPLES], DEFAULT_SAMPLE)

    changed = []
    if args.check:
        for name, text in all_files.items():
            p = args.out / name
            if not p.exists() or p.read_text() != text:
                changed.append(name)
    else:
        args.out.mkdir(parents=True, exist_ok=True)
        for name, text in all_files.items():
            (args.out / name).write_text(text)

    hdr = ("stem", "params", "outputs", "hlo_instrs", "opt_instrs",
           ".hlo", ".mlir", ".opt.hlo", ".json", "total")
    print("%-24s %6s %7s %10s %10s %8s %8s %8s %8s %8s" % hdr)
    total = 0
    for i in infos:
        b = [i["bytes"].get(i["stem"] + s, 0) for s in SUFFIXES]
        total += sum(b)
        print("%-24s %6d %7d %10d %10d %8d %8d %8d %8d %8d" % (
            i["stem"], len(i["inputs"]), len(i["outputs"]), i["instructions"],
            i["opt_instructions"], *b, sum(b)))
    print("jax %s, jaxlib %s; %d sample files, %d bytes%s"
          % (jax.__version__, jaxlib.__version__,
             sum(len(i["bytes"]) for i in infos), total,
             " (+ README.md)" if write_readme else ""))
    if args.check:
        if changed:
            print("would change: " + ", ".join(changed))
            return 1
        print("check: all files up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
