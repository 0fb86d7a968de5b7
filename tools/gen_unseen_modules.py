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
import json
import os
import sys
import traceback

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

PROGRAMS = {}


def program(fn):
    """Register fn; fn() returns (callable, args tuple, jit kwargs dict)."""
    PROGRAMS[fn.__name__] = fn
    return fn


def key(i):
    return jax.random.PRNGKey(i)


def rn(i, shape, dtype=jnp.float32, scale=1.0):
    return (jax.random.normal(key(i), shape, jnp.float32) * scale).astype(dtype)


# ---------------------------------------------------------------- CNNs / pooling
def _conv(x, w, stride=1, padding="SAME", groups=1, dil=1):
    return lax.conv_general_dilated(
        x, w, (stride, stride), padding, rhs_dilation=(dil, dil),
        dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=groups)


def _maxpool(x, k=2, s=2):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, k, k, 1), (1, s, s, 1), "VALID")


def _avgpool(x, k=2, s=2):
    return lax.reduce_window(x, 0.0, lax.add, (1, k, k, 1), (1, s, s, 1), "VALID") / (k * k)


@program
def cnn_maxpool_train():
    def loss(p, x, y):
        h = jax.nn.relu(_conv(x, p["w1"]) + p["b1"])
        h = _maxpool(h)
        h = jax.nn.relu(_conv(h, p["w2"]) + p["b2"])
        h = _maxpool(h, 3, 2)
        h = h.reshape(h.shape[0], -1)
        logits = h @ p["wo"]
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * y, -1))

    def step(p, x, y):
        l, g = jax.value_and_grad(loss)(p, x, y)
        return l, jax.tree.map(lambda a, b: a - 0.05 * b, p, g)

    p = {"w1": rn(1, (3, 3, 3, 8), scale=0.2), "b1": jnp.zeros(8),
         "w2": rn(2, (3, 3, 8, 16), scale=0.1), "b2": jnp.zeros(16),
         "wo": rn(3, (3 * 3 * 16, 10), scale=0.1)}
    x = rn(4, (4, 16, 16, 3))
    y = jax.nn.one_hot(jnp.array([1, 3, 5, 7]), 10)
    return step, (p, x, y), {}


@program
def cnn_avgpool_train():
    def loss(p, x, y):
        h = jnp.tanh(_conv(x, p["w1"], stride=2) + p["b1"])
        h = _avgpool(h)
        h = jnp.mean(h, axis=(1, 2))
        return jnp.mean((h @ p["wo"] - y) ** 2)

    def step(p, x, y):
        g = jax.grad(loss)(p, x, y)
        return jax.tree.map(lambda a, b: a - 0.1 * b, p, g)

    p = {"w1": rn(5, (5, 5, 2, 12), scale=0.1), "b1": jnp.zeros(12), "wo": rn(6, (12, 4))}
    return step, (p, rn(7, (3, 20, 20, 2)), rn(8, (3, 4))), {}


@program
def conv_grouped_dilated():
    def f(x, w_dw, w_pw, w_dil):
        h = _conv(x, w_dw, groups=16)              # depthwise
        h = jax.nn.silu(_conv(h, w_pw))            # pointwise
        h = _conv(h, w_dil, dil=2, padding="VALID", groups=4)  # dilated grouped
        return h

    return f, (rn(9, (2, 14, 14, 16)), rn(10, (3, 3, 1, 16)), rn(11, (1, 1, 16, 32)),
               rn(12, (3, 3, 8, 32))), {}


@program
def conv1d_causal_grad():
    def loss(w, x):
        # causal 1D conv over time with left padding, NWC layout
        y = lax.conv_general_dilated(x, w, (1,), [(4, 0)], rhs_dilation=(2,),
                                     dimension_numbers=("NWC", "WIO", "NWC"))
        return jnp.sum(jax.nn.gelu(y) ** 2)

    return jax.grad(loss, argnums=(0, 1)), (rn(13, (3, 6, 10)), rn(14, (2, 50, 6))), {}


# ---------------------------------------------------------------- scans / cumulative
@program
def cumsum_cumprod():
    def f(x, m):
        a = jnp.cumsum(x, axis=1)
        b = jnp.cumprod(1.0 + 0.01 * x, axis=0)
        c = lax.cummax(x, axis=1)
        d = jnp.cumsum(m.astype(jnp.int32), axis=-1)
        return a, b, c, d, jnp.cumsum(x[::-1], 0)[::-1]

    return f, (rn(15, (32, 64)), jax.random.bernoulli(key(16), 0.3, (32, 64))), {}


@program
def sort_argsort():
    def f(x, k):
        s = jnp.sort(x, axis=-1)
        i = jnp.argsort(x, axis=0)
        # lexicographic multi-operand sort
        ks, vs = lax.sort((k, x[0]), num_keys=1)
        med = jnp.median(x, axis=1)
        return s, i, ks, vs, med

    return f, (rn(17, (16, 100)), jax.random.randint(key(18), (100,), 0, 10)), {}


@program
def moe_topk_routing():
    def f(x, wg, we):
        logits = x @ wg                          # [T, E]
        probs = jax.nn.softmax(logits, -1)
        vals, idx = lax.top_k(probs, 2)          # [T, 2]
        vals = vals / jnp.sum(vals, -1, keepdims=True)
        disp = jax.nn.one_hot(idx, wg.shape[1])  # [T, 2, E]
        comb = jnp.einsum("tk,tke->te", vals, disp)
        ex = jnp.einsum("td,edh->teh", x, we)    # every expert
        out = jnp.einsum("te,teh->th", comb, jax.nn.relu(ex))
        load = jnp.mean(disp.sum(1), 0)
        aux = jnp.sum(load * jnp.mean(probs, 0)) * wg.shape[1]
        return out, aux

    return f, (rn(19, (32, 24)), rn(20, (24, 8)), rn(21, (8, 24, 32), scale=0.2)), {}


@program
def random_sampling():
    def f(k, logits):
        k1, k2, k3, k4 = jax.random.split(k, 4)
        u = jax.random.uniform(k1, (64, 32))
        n = jax.random.normal(k2, (64, 32))
        c = jax.random.categorical(k3, logits, axis=-1)
        mask = jax.random.bernoulli(k4, 0.9, (64, 32))
        drop = jnp.where(mask, n / 0.9, 0.0)
        return u.mean(), n.std(), c, drop

    return f, (key(22), rn(23, (16, 50))), {}


@program
def dropout_mlp_train():
    def loss(p, x, y, k):
        h = jax.nn.relu(x @ p["w1"] + p["b1"])
        keep = jax.random.bernoulli(k, 0.8, h.shape)
        h = jnp.where(keep, h / 0.8, 0)
        o = h @ p["w2"]
        return jnp.mean(optax_free_huber(o - y))

    def optax_free_huber(d, delta=1.0):
        a = jnp.abs(d)
        return jnp.where(a < delta, 0.5 * d * d, delta * (a - 0.5 * delta))

    def step(p, x, y, k):
        k, sub = jax.random.split(k)
        l, g = jax.value_and_grad(loss)(p, x, y, sub)
        return jax.tree.map(lambda a, b: a - 0.01 * b, p, g), l, k

    p = {"w1": rn(24, (20, 64), scale=0.2), "b1": jnp.zeros(64), "w2": rn(25, (64, 5), scale=0.2)}
    return step, (p, rn(26, (16, 20)), rn(27, (16, 5)), key(28)), {}


@program
def embedding_bag_grad():
    def loss(table, ids, w):
        e = table[ids]                           # gather [B, L, D]
        pooled = jnp.sum(e, 1) / ids.shape[1]
        return jnp.sum((pooled @ w) ** 2)

    g = jax.grad(loss, argnums=(0, 2))           # table grad = scatter-add
    return g, (rn(29, (500, 32)), jax.random.randint(key(30), (8, 12), 0, 500), rn(31, (32, 4))), {}


@program
def onehot_classifier():
    def f(labels, logits):
        oh = jax.nn.one_hot(labels, logits.shape[-1], dtype=jnp.float32)
        smooth = oh * 0.9 + 0.1 / logits.shape[-1]
        lse = jax.nn.logsumexp(logits, -1, keepdims=True)
        xent = -jnp.sum(smooth * (logits - lse), -1)
        acc = jnp.mean(jnp.argmax(logits, -1) == labels)
        return jnp.mean(xent), acc

    return f, (jax.random.randint(key(32), (128,), 0, 40), rn(33, (128, 40))), {}


# ---------------------------------------------------------------- FFT / linalg / complex
@program
def fft_variants():
    def f(x, img):
        a = jnp.fft.fft(x.astype(jnp.complex64), axis=-1)
        b = jnp.fft.ifft(a * jnp.conj(a), axis=-1).real
        r = jnp.fft.rfft(x, axis=-1)
        ir = jnp.fft.irfft(r * 0.5, n=x.shape[-1], axis=-1)
        f2 = jnp.fft.fft2(img)
        return b, jnp.abs(r), ir, jnp.angle(f2)

    return f, (rn(34, (8, 64)), rn(35, (16, 16))), {}


@program
def spectral_conv_layer():
    # Fourier neural operator style 1D spectral layer
    def f(x, wr, wi):
        xf = jnp.fft.rfft(x, axis=1)             # [B, N/2+1, C]
        modes = wr.shape[0]
        w = lax.complex(wr, wi)                  # [M, C, C]
        yf_low = jnp.einsum("bmc,mcd->bmd", xf[:, :modes], w)
        yf = jnp.zeros((x.shape[0], xf.shape[1], w.shape[2]), jnp.complex64)
        yf = yf.at[:, :modes].set(yf_low)
        y = jnp.fft.irfft(yf, n=x.shape[1], axis=1)
        return jax.nn.gelu(y + x)

    return f, (rn(36, (4, 64, 8)), rn(37, (12, 8, 8), scale=0.3), rn(38, (12, 8, 8), scale=0.3)), {}


@program
def complex_arith():
    def f(a, b, t):
        z = lax.complex(a, b)
        w = jnp.exp(1j * t) * z
        q = (w * jnp.conj(z)) / (z + (1 + 1j))
        return jnp.abs(q), jnp.angle(w), jnp.real(jnp.sqrt(q)), jnp.imag(jnp.log(w + 2))

    return f, (rn(39, (40, 40)), rn(40, (40, 40)), rn(41, (40, 40))), {}


@program
def cholesky_solve():
    def f(a, b):
        spd = a @ a.T + 16.0 * jnp.eye(a.shape[0])
        L = jnp.linalg.cholesky(spd)
        y = jax.scipy.linalg.solve_triangular(L, b, lower=True)
        x = jax.scipy.linalg.solve_triangular(L.T, y, lower=False)
        logdet = 2.0 * jnp.sum(jnp.log(jnp.diag(L)))
        return x, logdet

    return f, (rn(42, (16, 16)), rn(43, (16, 3))), {}


@program
def lu_solve_inverse():
    # jnp.linalg.solve / inv / slogdet: LAPACK's getrf (LU with partial
    # pivoting) and trsm calls on the CPU, cuSOLVER's on GPUs.
    def f(a, b, c):
        x = jnp.linalg.solve(a, b)
        inv = jnp.linalg.inv(c)
        sign, logdet = jnp.linalg.slogdet(a)
        return x, inv, sign * logdet

    return f, (rn(46, (12, 12)), rn(47, (12, 4)), rn(48, (3, 5, 5))), {}


@program
def qr_least_squares():
    # jnp.linalg.qr: LAPACK's geqrf (Householder QR) and orgqr (Q from the
    # reflectors) on the CPU, cuSOLVER's on GPUs; a least-squares fit
    # through R, and a batch of wide matrices.
    def f(a, b, c):
        q, r = jnp.linalg.qr(a)
        x = jax.scipy.linalg.solve_triangular(r, q.T @ b, lower=False)
        qc, rc = jnp.linalg.qr(c)
        return q, r, x, qc, rc

    return f, (rn(49, (10, 6)), rn(50, (10, 2)), rn(51, (2, 3, 5))), {}


@program
def complex_lu_solve():
    # Complex matrices: jnp.linalg.solve, inv and det (LAPACK's cgetrf and
    # ctrsm on the CPU, cuSOLVER's getrf on GPUs; pivots by |re| + |im|). Real
    # and imaginary parts in and out (data files spell complex as pairs).
    def f(ar, ai, br, bi, cr, ci):
        a = lax.complex(ar, ai)
        b = lax.complex(br, bi)
        c = lax.complex(cr, ci)
        x = jnp.linalg.solve(a, b)
        d = jnp.linalg.det(a)
        inv = jnp.linalg.inv(c)
        return x.real, x.imag, d.real, d.imag, inv.real, inv.imag

    return f, (rn(70, (8, 8)), rn(71, (8, 8)), rn(72, (8, 3)), rn(73, (8, 3)), rn(74, (2, 4, 4)),
               rn(75, (2, 4, 4))), {}


@program
def complex_qr():
    # jnp.linalg.qr of complex matrices: LAPACK's cgeqrf (complex Householder
    # reflectors, real beta) and cungqr on the CPU, cuSOLVER's geqrf/orgqr on
    # GPUs; a tall matrix and a batch of wide ones, Q and R as JAX gives them.
    def f(ar, ai, cr, ci):
        a = lax.complex(ar, ai)
        c = lax.complex(cr, ci)
        q, r = jnp.linalg.qr(a)
        qc, rc = jnp.linalg.qr(c)
        return q.real, q.imag, r.real, r.imag, qc.real, qc.imag, rc.real, rc.imag

    return f, (rn(76, (7, 4)), rn(77, (7, 4)), rn(78, (2, 3, 5)), rn(79, (2, 3, 5))), {}


@program
def complex_eigh():
    # jnp.linalg.eigh of complex Hermitian matrices: LAPACK's cheevd on the
    # CPU, cuSOLVER's syevd on complex types for GPUs. Eigenvectors are unique
    # only up to a phase, so the outputs are phase-free: the eigenvalues, the
    # reconstruction V·diag(w)·Vᴴ, |V| and eigvalsh of a batch.
    def f(ar, ai, br, bi):
        a = lax.complex(ar, ai)
        h = (a + jnp.conj(a.T)) / 2
        w, v = jnp.linalg.eigh(h)
        recon = (v * w) @ jnp.conj(v.T)
        b = lax.complex(br, bi)
        hb = b + jnp.conj(jnp.swapaxes(b, -1, -2))
        bw = jnp.linalg.eigvalsh(hb)
        return w, recon.real, recon.imag, jnp.abs(v), bw

    return f, (rn(80, (6, 6)), rn(81, (6, 6)), rn(82, (2, 4, 4)), rn(83, (2, 4, 4))), {}


@program
def complex_svd():
    # jnp.linalg.svd of complex matrices: LAPACK's cgesdd on the CPU (Vᴴ),
    # cuSOLVER's gesvdj on complex types for GPUs (V). Singular vectors are
    # unique only up to a phase, so the outputs are phase-free: the singular
    # values, a rank-2 approximation, the projector onto U's completed
    # columns, the singular values of a wide batch and pinv.
    def f(ar, ai, br, bi, cr, ci):
        a = lax.complex(ar, ai)
        u, s, vh = jnp.linalg.svd(a)
        approx = (u[:, :2] * s[:2]) @ vh[:2]
        proj = u[:, 4:] @ jnp.conj(u[:, 4:].T)
        b = lax.complex(br, bi)
        sb = jnp.linalg.svd(b, compute_uv=False)
        c = lax.complex(cr, ci)
        p = jnp.linalg.pinv(c)
        return s, approx.real, approx.imag, proj.real, proj.imag, sb, p.real, p.imag

    return f, (rn(84, (7, 4)), rn(85, (7, 4)), rn(86, (2, 3, 5)), rn(87, (2, 3, 5)), rn(88, (3, 5)),
               rn(89, (3, 5))), {}


@program
def tridiagonal_solve():
    # lax.linalg.tridiagonal_solve: LAPACK's gtsv on the CPU (Gaussian
    # elimination with partial pivoting), cuSPARSE's gtsv2 on GPUs. A batch of
    # f32 systems with two right-hand sides, one of them not diagonally
    # dominant (rows get swapped), and a complex system (c64).
    def f(dl, d, du, b, zr, zi, br, bi):
        dl = dl.at[..., 0].set(0.0)
        du = du.at[..., -1].set(0.0)
        d = d.at[1].multiply(0.05)  # the second system pivots
        x = lax.linalg.tridiagonal_solve(dl, d, du, b)
        zl = lax.complex(zr[0], zi[0]).at[0].set(0)
        zd = lax.complex(zr[1] + 3.0, zi[1])
        zu = lax.complex(zr[2], zi[2]).at[-1].set(0)
        z = lax.linalg.tridiagonal_solve(zl, zd, zu, lax.complex(br, bi))
        return x, z.real, z.imag

    return f, (rn(90, (3, 9)), rn(91, (3, 9), scale=4.0), rn(92, (3, 9)), rn(93, (3, 9, 2)),
               rn(94, (3, 7)), rn(95, (3, 7)), rn(96, (7, 3)), rn(97, (7, 3))), {}


@program
def hessenberg():
    # jax.scipy.linalg.hessenberg: LAPACK's gehrd, then orgqr for Q (CPU
    # only: JAX has no GPU lowering for it), of a real and a complex matrix.
    # Householder reflectors are unique, so H and Q are compared as JAX
    # gives them.
    def f(a, cr, ci):
        h, q = jax.scipy.linalg.hessenberg(a, calc_q=True)
        c = lax.complex(cr, ci)
        hc, qc = jax.scipy.linalg.hessenberg(c, calc_q=True)
        return h, q, hc.real, hc.imag, qc.real, qc.imag

    return f, (rn(98, (6, 6)), rn(99, (5, 5)), rn(100, (5, 5))), {}


@program
def tridiagonal_reduction():
    # lax.linalg.tridiagonal: LAPACK's sytrd / hetrd on the CPU, cuSOLVER's
    # sytrd on GPUs, of a symmetric batch from its lower and its upper
    # triangle and of a Hermitian matrix: the reflectors (with the triangle
    # not read), d, e and tau, compared as JAX gives them.
    def f(s, hr, hi):
        sym = s + jnp.swapaxes(s, -1, -2)
        tl, dl, el, taul = lax.linalg.tridiagonal(sym, lower=True)
        tu, du, eu, tauu = lax.linalg.tridiagonal(sym, lower=False)
        hh = lax.complex(hr, hi)
        hh = hh + jnp.conj(hh.T)
        th, dh, eh, tauh = lax.linalg.tridiagonal(hh)
        return tl, dl, el, taul, tu, du, eu, tauu, th.real, th.imag, dh, eh, tauh.real, tauh.imag

    return f, (rn(101, (2, 5, 5)), rn(102, (6, 6)), rn(103, (6, 6))), {}


@program
def eig_general():
    # jnp.linalg.eig of real nonsymmetric matrices: LAPACK's sgeev on the CPU
    # (balancing, Hessenberg, the double-shift QR algorithm; complex pairs
    # among the eigenvalues), cuSOLVER's geev on GPUs; the eigenvalues and
    # right eigenvectors as JAX gives them (LAPACK's order and
    # normalization: unit norm, the largest component real), eigvals of a
    # batch, and the left eigenvectors of a matrix whose rows and columns
    # differ in scale (balancing scales them).
    def f(a, b, c):
        w, v = jnp.linalg.eig(a)
        wb = jnp.linalg.eigvals(b)
        sc = c * jnp.array([1.0, 8.0, 0.25, 64.0, 1.0], jnp.float32)[:, None]
        wl, vl, vr = lax.linalg.eig(sc, compute_left_eigenvectors=True)
        return w.real, w.imag, v.real, v.imag, wb.real, wb.imag, wl.real, wl.imag, vl.real, vl.imag, vr.real, vr.imag

    return f, (rn(104, (6, 6)), rn(105, (3, 4, 4)), rn(106, (5, 5))), {}


@program
def complex_eig():
    # jnp.linalg.eig of complex matrices: LAPACK's cgeev (single-shift
    # complex QR) on the CPU; the eigenvalues and right eigenvectors as JAX
    # gives them (LAPACK's order, unit norm, the largest component real),
    # eigvals of a batch, and left eigenvectors alone.
    def f(ar, ai, br, bi, cr, ci):
        a = lax.complex(ar, ai)
        w, v = jnp.linalg.eig(a)
        wb = jnp.linalg.eigvals(lax.complex(br, bi))
        wl, vl = lax.linalg.eig(lax.complex(cr, ci), compute_left_eigenvectors=True,
                                compute_right_eigenvectors=False)
        return w.real, w.imag, v.real, v.imag, wb.real, wb.imag, wl.real, wl.imag, vl.real, vl.imag

    return f, (rn(109, (5, 5)), rn(110, (5, 5)), rn(111, (2, 3, 3)), rn(112, (2, 3, 3)), rn(113, (4, 4)),
               rn(114, (4, 4))), {}


@program
def schur_decomposition():
    # jax.scipy.linalg.schur (LAPACK's sgees; JAX lowers it for the CPU
    # only): the real Schur form T (2×2 blocks for complex pairs) and the
    # Schur vectors Z of a matrix and of a batch, as JAX gives them.
    def f(a, b):
        t, z = jax.scipy.linalg.schur(a)
        tb, zb = jax.vmap(jax.scipy.linalg.schur)(b)
        return t, z, tb, zb

    return f, (rn(107, (6, 6)), rn(108, (2, 4, 4))), {}


@program
def eigh_pca():
    # jnp.linalg.eigh: LAPACK's syevd on the CPU, cuSOLVER's on GPUs; PCA of a
    # covariance matrix and eigvalsh of a batch. Every output is independent
    # of the eigenvectors' signs (which LAPACK leaves to its algorithm).
    def f(x, b):
        xc = x - x.mean(0)
        cov = xc.T @ xc / (x.shape[0] - 1)
        w, v = jnp.linalg.eigh(cov)
        recon = (v * w) @ v.T
        proj_var = jnp.sum((xc @ v) ** 2, 0)
        bw = jnp.linalg.eigvalsh(b + jnp.swapaxes(b, -1, -2))
        return w, recon, proj_var, bw

    return f, (rn(60, (32, 6)), rn(61, (3, 4, 4))), {}


@program
def svd_low_rank():
    # jnp.linalg.svd: LAPACK's gesdd on the CPU, cuSOLVER's gesvdj on GPUs:
    # a rank-2 approximation of a tall matrix (full U), the singular values
    # of a wide batch, pinv and the spectral norm of a rank-deficient one.
    # Every output is independent of the singular vectors' signs.
    def f(a, b, c):
        u, s, vt = jnp.linalg.svd(a)
        approx = (u[:, :2] * s[:2]) @ vt[:2]
        proj = u[:, 4:] @ u[:, 4:].T  # the complement's projector: needs U's completion
        sb = jnp.linalg.svd(b, compute_uv=False)
        cr = c @ c.T  # rank 3 of 5
        return s, approx, proj, sb, jnp.linalg.pinv(c), jnp.linalg.norm(cr, 2)

    return f, (rn(62, (7, 4)), rn(63, (2, 3, 5)), rn(64, (5, 3))), {}


@program
def gaussian_process_nll():
    def nll(log_ls, x, y):
        d2 = jnp.sum((x[:, None, :] - x[None, :, :]) ** 2, -1)
        K = jnp.exp(-0.5 * d2 / jnp.exp(2 * log_ls)) + 0.1 * jnp.eye(x.shape[0])
        L = jnp.linalg.cholesky(K)
        alpha = jax.scipy.linalg.cho_solve((L, True), y)
        return 0.5 * y @ alpha + jnp.sum(jnp.log(jnp.diag(L)))

    return jax.value_and_grad(nll), (jnp.float32(0.3), rn(44, (24, 2)), rn(45, (24,))), {}


# ---------------------------------------------------------------- quantization / mixed precision
@program
def int8_quant_matmul():
    def f(x, w):
        sx = jnp.max(jnp.abs(x), axis=1, keepdims=True) / 127.0
        sw = jnp.max(jnp.abs(w), axis=0, keepdims=True) / 127.0
        qx = jnp.clip(jnp.round(x / sx), -127, 127).astype(jnp.int8)
        qw = jnp.clip(jnp.round(w / sw), -127, 127).astype(jnp.int8)
        acc = lax.dot(qx, qw, preferred_element_type=jnp.int32)
        y = acc.astype(jnp.float32) * sx * sw
        err = jnp.max(jnp.abs(y - x @ w))
        return y, qx, err

    return f, (rn(46, (32, 64)), rn(47, (64, 48))), {}


@program
def bf16_mixed_mlp():
    def f(x, w1, w2, g):
        xb = x.astype(jnp.bfloat16)
        h = lax.dot(xb, w1.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        var = jnp.mean(h * h, -1, keepdims=True)
        h = (h * lax.rsqrt(var + 1e-6) * g).astype(jnp.bfloat16)
        h = jax.nn.gelu(h)
        o = lax.dot(h, w2.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        return o, o.astype(jnp.bfloat16)

    return f, (rn(48, (16, 64)), rn(49, (64, 128), scale=0.1), rn(50, (128, 64), scale=0.1),
               jnp.ones(128)), {}


@program
def f16_loss_scaling_step():
    def loss(p, x, y):
        h = jnp.tanh(x.astype(jnp.float16) @ p["w"].astype(jnp.float16))
        o = (h @ p["v"].astype(jnp.float16)).astype(jnp.float32)
        return jnp.mean((o - y) ** 2)

    def step(p, x, y, scale):
        g = jax.grad(lambda p: loss(p, x, y) * scale)(p)
        g = jax.tree.map(lambda t: t / scale, g)
        finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(t)) for t in jax.tree.leaves(g)]))
        newp = jax.tree.map(lambda a, b: jnp.where(finite, a - 0.01 * b, a), p, g)
        return newp, jnp.where(finite, scale * 2.0, scale / 2.0)

    p = {"w": rn(51, (32, 64), scale=0.2), "v": rn(52, (64, 8), scale=0.2)}
    return step, (p, rn(53, (16, 32)), rn(54, (16, 8)), jnp.float32(1024.0)), {}


# ---------------------------------------------------------------- recurrent / optimizers
def _adam(p, g, m, v, t, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, m, g)
    v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, v, g)
    t = t + 1
    mh = jax.tree.map(lambda m: m / (1 - b1 ** t), m)
    vh = jax.tree.map(lambda v: v / (1 - b2 ** t), v)
    p = jax.tree.map(lambda p, m, v: p - lr * m / (jnp.sqrt(v) + eps), p, mh, vh)
    return p, m, v, t


@program
def gru_adam_train():
    def cell(p, h, x):
        z = jax.nn.sigmoid(x @ p["wz"] + h @ p["uz"])
        r = jax.nn.sigmoid(x @ p["wr"] + h @ p["ur"])
        n = jnp.tanh(x @ p["wn"] + (r * h) @ p["un"])
        h = (1 - z) * n + z * h
        return h, h

    def loss(p, xs, ys):
        h0 = jnp.zeros((xs.shape[1], p["uz"].shape[0]))
        _, hs = lax.scan(lambda h, x: cell(p, h, x), h0, xs)
        return jnp.mean((hs @ p["wo"] - ys) ** 2)

    def step(p, m, v, t, xs, ys):
        l, g = jax.value_and_grad(loss)(p, xs, ys)
        p, m, v, t = _adam(p, g, m, v, t)
        return p, m, v, t, l

    D, H = 8, 16
    names = {"wz": (D, H), "wr": (D, H), "wn": (D, H), "uz": (H, H), "ur": (H, H),
             "un": (H, H), "wo": (H, 3)}
    p = {k: rn(60 + i, s, scale=0.3) for i, (k, s) in enumerate(names.items())}
    z = jax.tree.map(jnp.zeros_like, p)
    return step, (p, z, z, jnp.int32(0), rn(70, (40, 4, D)), rn(71, (40, 4, 3))), {}


@program
def lstm_donated_train():
    def loss(p, xs, ys):
        H = p["u"].shape[0]

        def cell(carry, x):
            h, c = carry
            g = x @ p["w"] + h @ p["u"] + p["b"]
            i, f, o, u = jnp.split(g, 4, -1)
            c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(u)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), h

        z = jnp.zeros((xs.shape[1], H))
        (h, _), _ = lax.scan(cell, (z, z), xs)
        return jnp.mean(jax.nn.log_softmax(h @ p["wo"]) * ys) * -1

    def step(p, opt, xs, ys):
        l, g = jax.value_and_grad(loss)(p, xs, ys)
        m, v, t = opt
        p, m, v, t = _adam(p, g, m, v, t, lr=3e-3)
        return p, (m, v, t), l

    D, H = 6, 12
    p = {"w": rn(72, (D, 4 * H), scale=0.3), "u": rn(73, (H, 4 * H), scale=0.3),
         "b": jnp.zeros(4 * H), "wo": rn(74, (H, 5))}
    z = jax.tree.map(jnp.zeros_like, p)
    ys = jax.nn.one_hot(jnp.arange(3) % 5, 5)
    return step, (p, (z, z, jnp.int32(0)), rn(75, (30, 3, D)), ys), {"donate_argnums": (0, 1)}


@program
def while_dynamic_trip():
    def f(x, tol):
        # Newton iterations for sqrt until convergence: dynamic trip count
        def cond(s):
            y, i = s
            return (jnp.max(jnp.abs(y * y - x)) > tol) & (i < 100)

        def body(s):
            y, i = s
            return 0.5 * (y + x / y), i + 1

        y, n = lax.while_loop(cond, body, (jnp.ones_like(x), 0))
        return y, n

    return f, (jnp.abs(rn(76, (64,))) * 10 + 0.5, jnp.float32(1e-4)), {}


@program
def collatz_while_int():
    def f(n0):
        # fold arbitrary (random) inputs into 1..200 and bound the trip count, so the
        # loop terminates whatever inputs the checker feeds it
        n0 = jnp.abs(n0) % 200 + 1

        def body(s):
            n, steps = s
            active = n != 1
            n = jnp.where(active, jnp.where(n % 2 == 0, n // 2, 3 * n + 1), n)
            return n, steps + active.astype(jnp.int32)

        def cond(s):
            return jnp.any(s[0] != 1) & (jnp.max(s[1]) < 300)

        return lax.while_loop(cond, body, (n0, jnp.zeros_like(n0)))[1]

    return f, (jnp.arange(1, 65, dtype=jnp.int32),), {}


@program
def cond_switch():
    def f(x, i, flag):
        branches = [lambda v: jnp.sin(v), lambda v: v @ v.T, lambda v: jnp.cumsum(v, 0)]
        y = lax.switch(i, branches, x)
        z = lax.cond(flag, lambda v: v * 2.0, lambda v: -jnp.abs(v), y)
        return z, lax.cond(jnp.sum(z) > 0, lambda: jnp.float32(1), lambda: jnp.float32(-1))

    return f, (rn(77, (12, 12)), jnp.int32(2), jnp.bool_(False)), {}


@program
def kv_cache_decode():
    def f(cache_k, cache_v, q, k, v, pos):
        ck = lax.dynamic_update_slice(cache_k, k[:, None], (0, pos, 0))
        cv = lax.dynamic_update_slice(cache_v, v[:, None], (0, pos, 0))
        s = jnp.einsum("hd,htd->ht", q, ck) / jnp.sqrt(q.shape[-1])
        valid = jnp.arange(ck.shape[1]) <= pos
        s = jnp.where(valid[None], s, -1e9)
        o = jnp.einsum("ht,htd->hd", jax.nn.softmax(s, -1), cv)
        window = lax.dynamic_slice(ck, (0, jnp.maximum(pos - 3, 0), 0), (ck.shape[0], 4, ck.shape[2]))
        return ck, cv, o, window

    H, T, D = 4, 64, 16
    return f, (rn(78, (H, T, D)), rn(79, (H, T, D)), rn(80, (H, D)), rn(81, (H, D)),
               rn(82, (H, D)), jnp.int32(17)), {"donate_argnums": (0, 1)}


@program
def kv_cache_decode_loop():
    def f(q0, wq, wk, wv):
        H, T, D = 2, 32, 8
        def body(t, s):
            ck, cv, x = s
            q, k, v = (x @ wq).reshape(H, D), (x @ wk).reshape(H, D), (x @ wv).reshape(H, D)
            ck = lax.dynamic_update_slice_in_dim(ck, k[:, None], t, 1)
            cv = lax.dynamic_update_slice_in_dim(cv, v[:, None], t, 1)
            sc = jnp.einsum("hd,htd->ht", q, ck)
            sc = jnp.where(jnp.arange(T)[None] <= t, sc, -jnp.inf)
            o = jnp.einsum("ht,htd->hd", jax.nn.softmax(sc, -1), cv).reshape(-1)
            return ck, cv, jnp.tanh(o + x)

        z = jnp.zeros((H, T, D))
        return lax.fori_loop(0, 20, body, (z, z, q0))[2]

    return f, (rn(83, (16,)), rn(84, (16, 16), scale=0.3), rn(85, (16, 16), scale=0.3),
               rn(86, (16, 16), scale=0.3)), {}


@program
def segment_ops():
    def f(data, seg, idx):
        s = jax.ops.segment_sum(data, seg, num_segments=10)
        mx = jax.ops.segment_max(data, seg, num_segments=10)
        cnt = jax.ops.segment_sum(jnp.ones_like(seg), seg, num_segments=10)
        g = jnp.take(data, idx, axis=0)
        g2 = jnp.take_along_axis(data, jnp.argsort(data, 0)[:3], axis=0)
        return s / jnp.maximum(cnt, 1)[:, None], mx, g, g2

    return f, (rn(87, (200, 8)), jax.random.randint(key(88), (200,), 0, 10),
               jax.random.randint(key(89), (30,), 0, 200)), {}


@program
def graph_message_passing():
    def loss(w, x, src, dst):
        msg = x[src] @ w                               # gather
        agg = jax.ops.segment_sum(msg, dst, x.shape[0])  # scatter-add
        deg = jax.ops.segment_sum(jnp.ones(src.shape), dst, x.shape[0])
        h = jax.nn.relu(agg / jnp.maximum(deg, 1)[:, None])
        return jnp.sum(h ** 2)

    return jax.value_and_grad(loss), (rn(90, (16, 16), scale=0.3), rn(91, (50, 16)),
                                      jax.random.randint(key(92), (300,), 0, 50),
                                      jax.random.randint(key(93), (300,), 0, 50)), {}


# ---------------------------------------------------------------- norms / attention
@program
def rmsnorm_rope():
    def f(x, g, pos):
        x = x * lax.rsqrt(jnp.mean(x * x, -1, keepdims=True) + 1e-6) * g
        d = x.shape[-1] // 2
        inv = 1.0 / (10000 ** (jnp.arange(d) / d))
        ang = pos[:, None].astype(jnp.float32) * inv[None]
        c, s = jnp.cos(ang), jnp.sin(ang)
        x1, x2 = x[..., :d], x[..., d:]
        return jnp.concatenate([x1 * c - x2 * s, x1 * s + x2 * c], -1)

    return f, (rn(94, (2, 48, 32)), jnp.ones(32) * 1.1, jnp.arange(48)), {}


@program
def groupnorm_stats():
    def f(x, gamma, beta):
        B, H, W, C = x.shape
        xg = x.reshape(B, H, W, 4, C // 4)
        mu = jnp.mean(xg, (1, 2, 4), keepdims=True)
        var = jnp.var(xg, (1, 2, 4), keepdims=True)
        y = ((xg - mu) * lax.rsqrt(var + 1e-5)).reshape(x.shape) * gamma + beta
        return y, jnp.std(x, axis=(0, 1, 2)), jnp.argmax(x.reshape(B, -1), 1), jnp.argmin(x, -1)

    return f, (rn(95, (2, 8, 8, 16)), rn(96, (16,)), rn(97, (16,))), {}


@program
def causal_gqa_attention():
    def f(x, wq, wk, wv, wo):
        T, Dm = x.shape
        Hq, Hk, Dh = 8, 2, 8
        q = (x @ wq).reshape(T, Hq, Dh)
        k = (x @ wk).reshape(T, Hk, Dh)
        v = (x @ wv).reshape(T, Hk, Dh)
        q = q.reshape(T, Hk, Hq // Hk, Dh)
        s = jnp.einsum("tgrd,sgd->grts", q, k) / jnp.sqrt(Dh)
        mask = jnp.tril(jnp.ones((T, T), bool))
        s = jnp.where(mask, s, jnp.finfo(jnp.float32).min)
        p = jax.nn.softmax(s, -1)
        o = jnp.einsum("grts,sgd->tgrd", p, v).reshape(T, Hq * Dh)
        return o @ wo

    return f, (rn(98, (32, 64)), rn(99, (64, 64), scale=0.1), rn(100, (64, 16), scale=0.1),
               rn(101, (64, 16), scale=0.1), rn(102, (64, 64), scale=0.1)), {}


@program
def sliding_window_attention_grad():
    def loss(q, k, v):
        T = q.shape[1]
        s = jnp.einsum("htd,hsd->hts", q, k) * 0.25
        i, j = jnp.arange(T)[:, None], jnp.arange(T)[None]
        ok = (j <= i) & (i - j < 8)
        s = jnp.where(ok, s, -1e30)
        m = jnp.max(s, -1, keepdims=True)
        e = jnp.exp(s - lax.stop_gradient(m))
        o = jnp.einsum("hts,hsd->htd", e / e.sum(-1, keepdims=True), v)
        return jnp.sum(jnp.sin(o))

    return jax.grad(loss, argnums=(0, 1, 2)), (rn(103, (2, 24, 16)), rn(104, (2, 24, 16)),
                                               rn(105, (2, 24, 16))), {}


@program
def cross_attention_einsum():
    def f(x, ctx, w):
        q = jnp.einsum("bld,dhk->blhk", x, w[0])
        k = jnp.einsum("bmd,dhk->bmhk", ctx, w[1])
        v = jnp.einsum("bmd,dhk->bmhk", ctx, w[2])
        s = jnp.einsum("blhk,bmhk->bhlm", q, k)
        lse = jax.nn.logsumexp(s, -1, keepdims=True)
        o = jnp.einsum("bhlm,bmhk->blhk", jnp.exp(s - lse), v)
        return jnp.einsum("blhk->bl", o), jnp.trace(s[0, 0])

    return f, (rn(106, (2, 10, 16)), rn(107, (2, 20, 16)), rn(108, (3, 16, 4, 8), scale=0.2)), {}


@program
def vit_patch_layernorm():
    def f(img, wp, pos, g, b):
        B, H, W, C = img.shape
        P = 4
        patches = img.reshape(B, H // P, P, W // P, P, C).transpose(0, 1, 3, 2, 4, 5)
        patches = patches.reshape(B, (H // P) * (W // P), P * P * C)
        t = patches @ wp + pos
        mu = t.mean(-1, keepdims=True)
        var = ((t - mu) ** 2).mean(-1, keepdims=True)
        t = (t - mu) / jnp.sqrt(var + 1e-6) * g + b
        cls = jnp.broadcast_to(jnp.zeros((1, 1, t.shape[-1])), (B, 1, t.shape[-1]))
        return jnp.concatenate([cls, t], 1)

    return f, (rn(109, (2, 16, 16, 3)), rn(110, (48, 32), scale=0.1), rn(111, (16, 32)),
               jnp.ones(32), jnp.zeros(32)), {}


# ---------------------------------------------------------------- misc elementwise / integer
@program
def where_clip_reductions():
    def f(x, y):
        z = jnp.clip(x, -1.5, 1.5)
        w = jnp.where(x > y, x - y, jnp.nan_to_num(jnp.log(jnp.abs(y) + 1e-3)))
        return (z.sum(0), jnp.var(w, 1), jax.nn.logsumexp(x, 0), jnp.prod(jnp.tanh(x), 1),
                jnp.all(x > -3, 1), jnp.any(jnp.isnan(w)), jnp.max(jnp.abs(x - y)),
                jnp.round(x * 3) / 3, jnp.sign(y) * jnp.floor(jnp.abs(y)), jnp.remainder(x, 0.7))

    return f, (rn(112, (64, 48)), rn(113, (64, 48))), {}


@program
def integer_bitops():
    def f(a, b):
        a = a.astype(jnp.uint32)
        b = b.astype(jnp.uint32)
        h = a ^ (a >> 16)
        h = h * jnp.uint32(0x45D9F3B)
        h = h ^ (h >> 16)
        rot = (a << 7) | (a >> 25)
        pc = lax.population_count(a & b)
        clz = lax.clz(a | jnp.uint32(1))
        s = jnp.right_shift(b.astype(jnp.int32) - 1000, 3)   # arithmetic
        return h, rot, pc, clz, s, jnp.bitwise_not(b), (a // (b + 1)), a % (b + 1)

    return f, (jax.random.randint(key(114), (1024,), 0, 2**31 - 1),
               jax.random.randint(key(115), (1024,), 0, 4096)), {}


@program
def unique_sorted():
    def f(x):
        u, inv, cnt = jnp.unique(x, size=32, fill_value=-1, return_inverse=True,
                                 return_counts=True)
        hist = jnp.bincount(x, length=40)
        return u, inv, cnt, hist, jnp.searchsorted(jnp.sort(x), jnp.arange(40))

    return f, (jax.random.randint(key(116), (200,), 0, 40),), {}


@program
def vmap_per_example_grads():
    def loss(w, x, y):
        return jnp.sum((jnp.tanh(x @ w) - y) ** 2)

    def f(w, xs, ys):
        g = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(w, xs, ys)
        norms = jnp.sqrt(jnp.sum(g ** 2, axis=(1, 2)))
        clipped = g / jnp.maximum(1.0, norms / 0.5)[:, None, None]
        return jnp.mean(clipped, 0), norms

    return f, (rn(117, (10, 6), scale=0.3), rn(118, (16, 10)), rn(119, (16, 6))), {}


@program
def hessian_vector_product():
    def fn(x):
        return jnp.sum(jnp.sin(x) * jnp.cos(x[::-1]) + x ** 4 / 12)

    def hvp(x, v):
        return jax.jvp(jax.grad(fn), (x,), (v,))[1], jax.hessian(fn)(x[:8])

    return hvp, (rn(120, (64,)), rn(121, (64,))), {}


@program
def interp_resize_pad():
    def f(img, xs):
        up = jax.image.resize(img, (2, 24, 24, 3), "bilinear")
        dn = jax.image.resize(img, (2, 6, 6, 3), "nearest")
        padded = jnp.pad(img, ((0, 0), (2, 2), (1, 3), (0, 0)), mode="reflect")
        interp = jnp.interp(xs, jnp.linspace(-3, 3, 20), jnp.sin(jnp.linspace(-3, 3, 20)))
        rolled = jnp.roll(img, 3, axis=2)
        return up, dn, padded, interp, jnp.flip(rolled, 1)

    return f, (rn(122, (2, 12, 12, 3)), rn(123, (100,))), {}


@program
def diffusion_sampler():
    def f(x, k, w):
        betas = jnp.linspace(1e-4, 0.02, 50)
        alphas = 1 - betas
        abar = jnp.cumprod(alphas)

        def step(carry, t):
            x, k = carry
            k, sub = jax.random.split(k)
            eps = jnp.tanh(x @ w) * (t.astype(jnp.float32) / 50)
            mean = (x - betas[t] / jnp.sqrt(1 - abar[t]) * eps) / jnp.sqrt(alphas[t])
            noise = jax.random.normal(sub, x.shape)
            x = mean + jnp.where(t > 0, jnp.sqrt(betas[t]), 0.0) * noise
            return (x, k), jnp.mean(x)

        (x, _), means = lax.scan(step, (x, k), jnp.arange(49, -1, -1))
        return x, means

    return f, (rn(124, (8, 16)), key(125), rn(126, (16, 16), scale=0.2)), {}


@program
def ssm_associative_scan():
    def f(a, b):
        # linear recurrence h_t = a_t * h_{t-1} + b_t via associative scan
        def comb(l, r):
            return l[0] * r[0], r[0] * l[1] + r[1]
        _, h = lax.associative_scan(comb, (a, b), axis=0)
        return h, jnp.cumsum(jnp.log(a), 0)

    return f, (jax.nn.sigmoid(rn(127, (128, 16))), rn(128, (128, 16))), {}


@program
def contrastive_loss_grad():
    def loss(za, zb, temp):
        za = za / jnp.linalg.norm(za, axis=-1, keepdims=True)
        zb = zb / jnp.linalg.norm(zb, axis=-1, keepdims=True)
        logits = za @ zb.T / temp
        labels = jnp.arange(za.shape[0])
        l1 = -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits, 1), labels[:, None], 1))
        l2 = -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits, 0), labels[None], 0))
        return (l1 + l2) / 2

    return jax.value_and_grad(loss, argnums=(0, 1, 2)), (rn(129, (32, 24)), rn(130, (32, 24)),
                                                         jnp.float32(0.1)), {}


@program
def beam_search_step():
    def f(logp_beams, logits, tokens, step):
        V = logits.shape[-1]
        lp = jax.nn.log_softmax(logits, -1) + logp_beams[:, None]     # [beam, V]
        flat = lp.reshape(-1)
        best, idx = lax.top_k(flat, logp_beams.shape[0])
        beam, tok = idx // V, idx % V
        tokens = tokens[beam]
        tokens = lax.dynamic_update_slice(tokens, tok[:, None].astype(tokens.dtype), (0, step))
        return best, tokens

    return f, (rn(131, (4,)), rn(132, (4, 300)), jnp.zeros((4, 16), jnp.int32), jnp.int32(5)), {}


# On the CPU, JAX lowers cholesky / triangular_solve straight to LAPACK custom-calls
# (lapack_spotrf_ffi, lapack_strsm_ffi). These variants are lowered for a platform whose
# lowering keeps the portable HLO ops (cholesky, triangular-solve); only NAME.hlo is
# written for them, since they cannot be compiled here.
PORTABLE = {"cholesky_solve_portable": "cholesky_solve",
            "gaussian_process_nll_portable": "gaussian_process_nll"}


def _fmt(v, kind):
    if kind == "b":
        return "true" if v else "false"
    if kind in "iu":
        return str(int(v))
    f = float(v)
    if f != f:
        return '"nan"'
    if f in (float("inf"), float("-inf")):
        return '"inf"' if f > 0 else '"-inf"'
    return repr(f)


_HLO_TYPES = {"bool": "pred", "int8": "s8", "int16": "s16", "int32": "s32", "int64": "s64",
              "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
              "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64"}


def _tensor_json(a):
    a = np.asarray(a)
    t = _HLO_TYPES.get(a.dtype.name)
    if t is None:
        raise TypeError("no hloscope-data-v1 spelling for " + a.dtype.name)
    kind = "f" if t in ("bf16", "f16") else a.dtype.kind
    flat = a.reshape(-1)
    if t in ("bf16", "f16"):
        flat = flat.astype(np.float32)
    vals = ",".join(_fmt(v, kind) for v in flat.tolist())
    return '{"shape":"%s[%s]","values":[%s]}' % (t, ",".join(map(str, a.shape)), vals)


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
        json.dumps(jax.__version__), ",\n  ".join(map(_tensor_json, in_leaves)),
        ",\n  ".join(map(_tensor_json, out_leaves)))
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
