// rng-bit-generator, bit-exact with XLA's expansion of the op
// (RngBitGeneratorExpander + xla/hlo/builder/lib/prng.cc):
//  * state u64[N]: state[0] is the key.
//  * rng_three_fry: Threefry2x32-20 on the 64-bit counter state[1] + i.
//    32-bit outputs: the shape is split in halves along its first even
//    dimension (else its largest); half element h yields the pair
//    (x0, x1) that fills positions 2h' and 2h'+1 of the split dimension.
//    64-bit outputs: one call per element, x0 | x1 << 32. Narrower types
//    take the low bits of the 32-bit stream. New state[1] += calls made.
//  * rng_philox (and rng_default, which XLA's CPU and GPU backends expand
//    to Philox): Philox4x32-10 on the 128-bit counter (state[1], state[2])
//    for N >= 3, or (state[1], state[0]) for N = 2; each counter gives four
//    consecutive 32-bit outputs (two 64-bit ones); the counter advances by
//    the number of blocks used.
#include <cstring>

#include "core/eval/eval_internal.h"
#include "core/eval/rng_kernels.h"

namespace hloscope::eval {

namespace {

inline uint32_t Rotl(uint32_t v, int d) { return (v << d) | (v >> (32 - d)); }

}  // namespace

// Exposed for tests (declared in rng_kernels.h).
void ThreeFry2x32(uint32_t key0, uint32_t key1, uint32_t in0, uint32_t in1, uint32_t* out0, uint32_t* out1) {
  static const int kRot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  uint32_t ks[3] = {key0, key1, 0x1BD11BDAu ^ key0 ^ key1};
  uint32_t x0 = in0 + ks[0], x1 = in1 + ks[1];
  for (int block = 0; block < 5; ++block) {
    for (int r = 0; r < 4; ++r) {
      x0 += x1;
      x1 = Rotl(x1, kRot[(block % 2) * 4 + r]);
      x1 ^= x0;
    }
    x0 += ks[(block + 1) % 3];
    x1 += ks[(block + 2) % 3] + static_cast<uint32_t>(block + 1);
  }
  *out0 = x0;
  *out1 = x1;
}

void Philox4x32(const uint32_t ctr[4], uint32_t key0, uint32_t key1, uint32_t out[4]) {
  uint32_t x[4] = {ctr[0], ctr[1], ctr[2], ctr[3]};
  for (int r = 0; r < 10; ++r) {
    uint64_t p0 = static_cast<uint64_t>(x[0]) * 0xD2511F53u;
    uint64_t p1 = static_cast<uint64_t>(x[2]) * 0xCD9E8D57u;
    uint32_t y[4] = {static_cast<uint32_t>(p1 >> 32) ^ x[1] ^ key0, static_cast<uint32_t>(p1),
                     static_cast<uint32_t>(p0 >> 32) ^ x[3] ^ key1, static_cast<uint32_t>(p0)};
    std::memcpy(x, y, sizeof x);
    key0 += 0x9E3779B9u;
    key1 += 0xBB67AE85u;
  }
  std::memcpy(out, x, sizeof x);
}

namespace {

// Writes the low `bytes` bytes of v as element i.
void Put(Literal& l, int64_t i, uint64_t v) {
  int eb = l.element_bytes();
  std::memcpy(l.raw() + i * eb, &v, eb);
}

// Threefry, 32 bits per element; returns the number of counter steps used.
uint64_t ThreeFry32(uint64_t key, uint64_t ctr, const std::vector<int64_t>& dims, Literal& out) {
  int rank = static_cast<int>(dims.size());
  uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
  auto gen = [&](uint64_t h, uint32_t* o0, uint32_t* o1) {
    uint64_t x = ctr + h;
    ThreeFry2x32(k0, k1, static_cast<uint32_t>(x), static_cast<uint32_t>(x >> 32), o0, o1);
  };
  if (rank == 0) {
    uint32_t a, b;
    gen(0, &a, &b);
    Put(out, 0, a);
    return 1;
  }
  int split = -1;
  for (int i = 0; i < rank; ++i)
    if (dims[i] % 2 == 0) {
      split = i;
      break;
    }
  if (split < 0)
    for (int i = 0; i < rank; ++i)
      if (split < 0 || dims[i] > dims[split]) split = i;
  std::vector<int64_t> half = dims;
  half[split] = (dims[split] + 1) / 2;
  int64_t half_n = 1;
  for (int64_t d : half) half_n *= d;
  auto os = RowMajorStrides(dims);
  std::vector<int64_t> idx(rank, 0);
  for (int64_t h = 0; h < half_n; ++h) {
    uint32_t o[2];
    gen(static_cast<uint64_t>(h), &o[0], &o[1]);
    for (int j = 0; j < 2; ++j) {
      int64_t pos = idx[split] * 2 + j;
      if (pos >= dims[split]) continue;
      int64_t lin = 0;
      for (int d = 0; d < rank; ++d) lin += (d == split ? pos : idx[d]) * os[d];
      Put(out, lin, o[j]);
    }
    for (int d = rank - 1; d >= 0; --d) {
      if (++idx[d] < half[d]) break;
      idx[d] = 0;
    }
  }
  return static_cast<uint64_t>(half_n);
}

struct U128 {
  uint64_t lo, hi;
};
U128 Add(U128 a, uint64_t b) {
  U128 r{a.lo + b, a.hi};
  if (r.lo < a.lo) ++r.hi;
  return r;
}

// Philox: `words` 32-bit outputs from consecutive counters; returns blocks.
uint64_t PhiloxWords(uint64_t key, U128 ctr, int64_t words, std::vector<uint32_t>& out) {
  uint64_t blocks = static_cast<uint64_t>((words + 3) / 4);
  out.assign(blocks * 4, 0);
  uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
  for (uint64_t b = 0; b < blocks; ++b) {
    U128 c = Add(ctr, b);
    uint32_t in[4] = {static_cast<uint32_t>(c.lo), static_cast<uint32_t>(c.lo >> 32), static_cast<uint32_t>(c.hi),
                      static_cast<uint32_t>(c.hi >> 32)};
    Philox4x32(in, k0, k1, &out[b * 4]);
  }
  return blocks;
}

}  // namespace

StatusOr<Literal> EvalRngBitGenerator(const Instruction& instr, Operands ops) {
  const Shape& s = instr.shape();
  if (ops.size() != 1 || !s.IsTuple() || s.tuple_size() != 2)
    return InstrError(instr, "rng-bit-generator takes a state and returns (state, bits)");
  const Literal& state = *ops[0];
  if (state.shape().element_type() != PrimitiveType::kU64 || state.shape().rank() != 1 || state.num_elements() < 2)
    return InstrError(instr, "the state must be u64[N] with N >= 2");
  std::string alg = "rng_default";
  if (const RawAttr* a = instr.FindRaw("algorithm")) alg = a->value;
  Shape ds = NoLayout(s.tuple_shapes()[1]);
  if (!ds.IsArray()) return InstrError(instr, "the bits result must be an array");
  int bits = BitWidth(ds.element_type());
  if (IsComplex(ds.element_type()) || ds.element_type() == PrimitiveType::kPred || (bits != 8 && bits != 16 && bits != 32 && bits != 64))
    return Unsupported(instr, "rng-bit-generator output type " + std::string(PrimitiveTypeName(ds.element_type())));
  Literal bits_out(ds);
  Literal new_state = WithShape(state, NoLayout(s.tuple_shapes()[0]));
  if (new_state.num_elements() != state.num_elements()) return InstrError(instr, "state result must match the state");
  uint64_t key = state.Get<uint64_t>(0);
  int64_t n = ds.num_elements();
  if (alg == "rng_three_fry") {
    uint64_t ctr = state.Get<uint64_t>(1);
    uint64_t used;
    if (bits == 64) {
      uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
      for (int64_t i = 0; i < n; ++i) {
        uint64_t x = ctr + static_cast<uint64_t>(i);
        uint32_t a, b;
        ThreeFry2x32(k0, k1, static_cast<uint32_t>(x), static_cast<uint32_t>(x >> 32), &a, &b);
        Put(bits_out, i, static_cast<uint64_t>(a) | (static_cast<uint64_t>(b) << 32));
      }
      used = static_cast<uint64_t>(n);
    } else {
      used = ThreeFry32(key, ctr, ds.dims(), bits_out);
    }
    new_state.Set<uint64_t>(1, ctr + used);
  } else if (alg == "rng_philox" || alg == "rng_default") {
    bool wide = state.num_elements() >= 3;
    U128 ctr = wide ? U128{state.Get<uint64_t>(1), state.Get<uint64_t>(2)} : U128{state.Get<uint64_t>(1), key};
    std::vector<uint32_t> w;
    uint64_t blocks = PhiloxWords(key, ctr, bits == 64 ? 2 * n : n, w);
    for (int64_t i = 0; i < n; ++i) {
      if (bits == 64) {
        // Block b gives (w0 | w1 << 32, w2 | w3 << 32) for elements 2b, 2b+1.
        int64_t b = i / 2, j = i % 2;
        Put(bits_out, i, static_cast<uint64_t>(w[4 * b + 2 * j]) | (static_cast<uint64_t>(w[4 * b + 2 * j + 1]) << 32));
      } else {
        Put(bits_out, i, w[i]);
      }
    }
    U128 next = Add(ctr, blocks);
    new_state.Set<uint64_t>(1, next.lo);
    if (wide) new_state.Set<uint64_t>(2, next.hi);
  } else {
    return Unsupported(instr, "unknown rng algorithm '" + alg + "'");
  }
  std::vector<Literal> parts;
  parts.push_back(std::move(new_state));
  parts.push_back(std::move(bits_out));
  return MakeTuple(std::move(parts));
}

}  // namespace hloscope::eval
