"""The programs of tools/gen_unseen_modules.py, second half: quantization
and mixed precision, recurrent networks and optimizers, loops, norms and
attention, and the rest (registered in unseen_programs.PROGRAMS).
"""
import jax
import jax.numpy as jnp
from jax import lax

from unseen_programs import key, program, rn

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
