"""The programs of tools/gen_unseen_modules.py, first half: the registry,
CNNs and pooling, scans and cumulative ops, FFT, linear algebra and complex
numbers. The second half is in unseen_programs_more.py.

Each program is registered by name; calling it returns (callable, args tuple,
jit kwargs dict). Written for the unseen-modules check, deliberately unlike
samples/*.hlo, and small enough for the reference interpreter.
"""
import jax
import jax.numpy as jnp
from jax import lax

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
