// Reductions: reduce (variadic, any reducer), reduce-window (base and window
// dilation, padding; padded positions are skipped as XLA's evaluator does)
// and select-and-scatter. Elements are combined in row-major order of the
// reduced positions, starting from the init value.
#include <algorithm>

#include "core/eval/scalar_fn.h"
#include "core/ir/computation.h"

namespace hloscope::eval {
namespace {

// Transposes `a` so the kept dims come first (in order), then the reduced.
Literal KeptThenReduced(const Literal& a, const std::vector<int64_t>& kept, const std::vector<int64_t>& red) {
  std::vector<int64_t> perm = kept;
  perm.insert(perm.end(), red.begin(), red.end());
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == static_cast<int64_t>(i);
  if (identity) return a;
  std::vector<int64_t> dims;
  auto in = RowMajorStrides(a.shape().dims());
  std::vector<int64_t> src;
  for (int64_t p : perm) {
    dims.push_back(a.shape().dim(static_cast<int>(p)));
    src.push_back(in[p]);
  }
  Literal out(Shape(a.shape().element_type(), dims));
  StridedCopy(a.element_bytes(), dims, a.raw(), 0, src, out.raw(), 0, RowMajorStrides(dims));
  return out;
}

std::vector<PrimitiveType> Types(Operands ops) {
  std::vector<PrimitiveType> t;
  for (const Literal* o : ops) t.push_back(o->shape().element_type());
  return t;
}

}  // namespace

StatusOr<Literal> EvalReduce(Interp& in, const Instruction& instr, Operands ops) {
  const Computation* fn = instr.to_apply();
  if (!fn || ops.size() % 2 != 0 || ops.empty()) return InstrError(instr, "reduce needs inputs, init values and to_apply");
  size_t n = ops.size() / 2;
  Operands inputs = ops.subspan(0, n), inits = ops.subspan(n);
  const Shape& s0 = inputs[0]->shape();
  std::vector<int64_t> red = instr.dimensions(), kept;
  std::sort(red.begin(), red.end());
  for (int64_t d : red)
    if (d < 0 || d >= s0.rank()) return InstrError(instr, "reduce dimension " + std::to_string(d) + " out of range");
  std::vector<int64_t> out_dims;
  int64_t groups = 1, group = 1;
  for (int d = 0; d < s0.rank(); ++d) {
    if (std::binary_search(red.begin(), red.end(), d)) {
      group *= s0.dim(d);
    } else {
      kept.push_back(d);
      out_dims.push_back(s0.dim(d));
      groups *= s0.dim(d);
    }
  }
  std::vector<Literal> xs, outs;
  for (size_t i = 0; i < n; ++i) {
    if (!inputs[i]->shape().SameDims(s0) || inits[i]->num_elements() != 1 ||
        inits[i]->shape().element_type() != inputs[i]->shape().element_type())
      return InstrError(instr, "inputs must share dimensions and have scalar init values of their type");
    xs.push_back(KeptThenReduced(*inputs[i], kept, red));
    outs.emplace_back(Shape(inputs[i]->shape().element_type(), out_dims));
  }
  PrimitiveType t = s0.element_type();
  BinaryForm form = n == 1 ? ClassifyBinary(*fn, t) : BinaryForm{};
  if (form.kind != Combiner::kGeneral && FastCombineType(t)) {
    VisitReal(t, [&](auto tr) {
      using Tr = decltype(tr);
      using S = typename Tr::S;
      const S* x = reinterpret_cast<const S*>(xs[0].raw());
      S* o = reinterpret_cast<S*>(outs[0].raw());
      S init;
      std::memcpy(&init, inits[0]->raw(), sizeof(S));
      for (int64_t g = 0; g < groups; ++g) {
        S acc = init;
        const S* row = x + g * group;
        if (form.kind == Combiner::kAdd && !form.swapped) {
          for (int64_t j = 0; j < group; ++j) acc = Combine<Tr>(Combiner::kAdd, false, acc, row[j]);
        } else {
          for (int64_t j = 0; j < group; ++j) acc = Combine<Tr>(form.kind, form.swapped, acc, row[j]);
        }
        o[g] = acc;
      }
    });
  } else {
    std::vector<PrimitiveType> types = Types(inits);
    auto in_types = Types(inputs);
    types.insert(types.end(), in_types.begin(), in_types.end());
    ScalarCall call(in, *fn, types);
    for (int64_t g = 0; g < groups; ++g) {
      for (size_t i = 0; i < n; ++i) CopyElement(*inits[i], 0, call.arg(static_cast<int>(i)), 0);
      for (int64_t j = 0; j < group; ++j) {
        for (size_t i = 0; i < n; ++i) CopyElement(xs[i], g * group + j, call.arg(static_cast<int>(n + i)), 0);
        Status st = call.Call();
        if (!st.ok()) return InstrError(instr, "reducer: " + st.message());
        if (call.results().size() != n) return InstrError(instr, "reducer returns the wrong number of values");
        for (size_t i = 0; i < n; ++i) {
          if (call.results()[i].shape().element_type() != types[i])
            return InstrError(instr, "reducer returns a value of the wrong type");
          CopyElement(call.results()[i], 0, call.arg(static_cast<int>(i)), 0);
        }
      }
      for (size_t i = 0; i < n; ++i) CopyElement(call.arg(static_cast<int>(i)), 0, outs[i], g);
    }
  }
  for (size_t i = 0; i < n; ++i) WrapSubByte(outs[i]);
  if (n == 1) return std::move(outs[0]);
  return MakeTuple(std::move(outs));
}

namespace {

// For one output position, calls fn(linear input index) for every window
// element that lands on a real (not padding, not dilation hole) input.
struct WindowWalker {
  const std::vector<WindowDim>& w;
  const std::vector<int64_t>& in_dims;
  std::vector<int64_t> in_strides;
  WindowWalker(const std::vector<WindowDim>& win, const std::vector<int64_t>& dims)
      : w(win), in_dims(dims), in_strides(RowMajorStrides(dims)) {}

  template <class F>
  void Walk(const std::vector<int64_t>& out_idx, F&& fn) const {
    int rank = static_cast<int>(w.size());
    std::vector<int64_t> k(rank, 0);
    for (const WindowDim& d : w)
      if (d.size <= 0) return;
    while (true) {
      int64_t lin = 0;
      bool ok = true;
      for (int d = 0; d < rank && ok; ++d) {
        int64_t pos = out_idx[d] * w[d].stride - w[d].pad_lo + k[d] * w[d].window_dilation;
        if (w[d].base_dilation > 1) {
          if (pos % w[d].base_dilation != 0) ok = false;
          pos /= w[d].base_dilation;
        }
        if (pos < 0 || pos >= in_dims[d]) ok = false;
        lin += pos * in_strides[d];
      }
      if (ok) fn(lin);
      int d = rank - 1;
      for (; d >= 0; --d) {
        if (++k[d] < w[d].size) break;
        k[d] = 0;
      }
      if (d < 0) return;
    }
  }
};

bool NextIndex(std::vector<int64_t>& idx, const std::vector<int64_t>& dims) {
  for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
    if (++idx[d] < dims[d]) return true;
    idx[d] = 0;
  }
  return false;
}

// The dimension of a prefix window, or -1: along it a window at least as long
// as the dimension, padded by its size less one before it and nothing after
// (a cumulative sum, product, maximum... as the associative-scan rewriter and
// XLA's CPU lowering write one), every other dimension a window of 1, no
// stride or dilation. Output i then combines elements 0..i in ascending order,
// exactly output i-1's combinations and one more: a running value gives what
// the walk gives, bit for bit, in O(n) instead of O(n²) (a cumulative sum of
// 32,385 elements took 40 s to check; diffuzz --max-dim 256, seed 1040267359).
int PrefixWindowDim(const std::vector<WindowDim>& w, const std::vector<int64_t>& dims) {
  int found = -1;
  for (size_t i = 0; i < w.size(); ++i) {
    const WindowDim& d = w[i];
    if (d.stride != 1 || d.base_dilation != 1 || d.window_dilation != 1) return -1;
    if (d.size == 1 && d.pad_lo == 0 && d.pad_hi == 0) continue;
    if (found >= 0 || d.size < dims[i] || d.pad_lo != d.size - 1 || d.pad_hi != 0) return -1;
    found = static_cast<int>(i);
  }
  return found;
}

}  // namespace

StatusOr<Literal> EvalReduceWindow(Interp& in, const Instruction& instr, Operands ops) {
  const Computation* fn = instr.to_apply();
  const Window* win = instr.attrs().window.get();
  if (!fn || ops.size() % 2 != 0 || ops.empty()) return InstrError(instr, "reduce-window needs inputs, init values and to_apply");
  size_t n = ops.size() / 2;
  Operands inputs = ops.subspan(0, n), inits = ops.subspan(n);
  const Shape& s0 = inputs[0]->shape();
  Window dflt;
  if (!win) {
    dflt.dims.assign(s0.rank(), WindowDim{});
    win = &dflt;
  }
  if (static_cast<int>(win->dims.size()) != s0.rank()) return InstrError(instr, "window rank differs from the operand rank");
  const Shape& rs = instr.shape().IsTuple() ? instr.shape().tuple_shapes()[0] : instr.shape();
  std::vector<int64_t> out_dims = rs.dims();
  if (static_cast<int>(out_dims.size()) != s0.rank()) return InstrError(instr, "result rank differs from the operand rank");
  for (const WindowDim& d : win->dims)
    if (d.stride <= 0 || d.base_dilation <= 0 || d.window_dilation <= 0) return InstrError(instr, "invalid window");
  std::vector<Literal> outs;
  for (size_t i = 0; i < n; ++i) {
    if (!inputs[i]->shape().SameDims(s0) || inits[i]->num_elements() != 1)
      return InstrError(instr, "inputs must share dimensions and have scalar init values");
    outs.emplace_back(Shape(inputs[i]->shape().element_type(), out_dims));
  }
  WindowWalker walker(win->dims, s0.dims());
  PrimitiveType t = s0.element_type();
  BinaryForm form = n == 1 ? ClassifyBinary(*fn, t) : BinaryForm{};
  std::vector<int64_t> idx(out_dims.size(), 0);
  int64_t count = outs[0].num_elements();
  if (form.kind != Combiner::kGeneral && FastCombineType(t)) {
    VisitReal(t, [&](auto tr) {
      using Tr = decltype(tr);
      using S = typename Tr::S;
      const S* x = reinterpret_cast<const S*>(inputs[0]->raw());
      S* o = reinterpret_cast<S*>(outs[0].raw());
      S init;
      std::memcpy(&init, inits[0]->raw(), sizeof(S));
      if (const int pd = PrefixWindowDim(win->dims, s0.dims()); pd >= 0 && out_dims == s0.dims()) {
        // Rows along the prefix dimension, each a running value (row-major).
        const int64_t len = s0.dim(pd);
        int64_t inner = 1;
        for (int d = pd + 1; d < s0.rank(); ++d) inner *= s0.dim(d);
        for (int64_t row = 0; len > 0 && row < count / len; ++row) {
          const int64_t base = (row / inner) * len * inner + row % inner;
          S acc = init;
          for (int64_t i = 0; i < len; ++i) {
            acc = Combine<Tr>(form.kind, form.swapped, acc, x[base + i * inner]);
            o[base + i * inner] = acc;
          }
        }
        return;
      }
      for (int64_t g = 0; g < count; ++g) {
        S acc = init;
        walker.Walk(idx, [&](int64_t lin) { acc = Combine<Tr>(form.kind, form.swapped, acc, x[lin]); });
        o[g] = acc;
        NextIndex(idx, out_dims);
      }
    });
  } else {
    std::vector<PrimitiveType> types = Types(inits);
    auto in_types = Types(inputs);
    types.insert(types.end(), in_types.begin(), in_types.end());
    ScalarCall call(in, *fn, types);
    Status err;
    for (int64_t g = 0; g < count && err.ok(); ++g) {
      for (size_t i = 0; i < n; ++i) CopyElement(*inits[i], 0, call.arg(static_cast<int>(i)), 0);
      walker.Walk(idx, [&](int64_t lin) {
        if (!err.ok()) return;
        for (size_t i = 0; i < n; ++i) CopyElement(*inputs[i], lin, call.arg(static_cast<int>(n + i)), 0);
        err = call.Call();
        if (err.ok() && call.results().size() != n) err = Status::Error("reducer returns the wrong number of values");
        for (size_t i = 0; err.ok() && i < n; ++i) CopyElement(call.results()[i], 0, call.arg(static_cast<int>(i)), 0);
      });
      for (size_t i = 0; i < n; ++i) CopyElement(call.arg(static_cast<int>(i)), 0, outs[i], g);
      NextIndex(idx, out_dims);
    }
    if (!err.ok()) return InstrError(instr, "reducer: " + err.message());
  }
  if (n == 1) return std::move(outs[0]);
  return MakeTuple(std::move(outs));
}

StatusOr<Literal> EvalSelectAndScatter(Interp& in, const Instruction& instr, Operands ops) {
  const Computation* sel = instr.called("select");
  const Computation* sct = instr.called("scatter");
  const Window* win = instr.attrs().window.get();
  if (!sel || !sct || !win || ops.size() != 3) return InstrError(instr, "needs operand, source, init, window, select and scatter");
  const Literal& operand = *ops[0];
  const Literal& source = *ops[1];
  const Literal& init = *ops[2];
  PrimitiveType t = operand.shape().element_type();
  if (static_cast<int>(win->dims.size()) != operand.shape().rank() || source.shape().rank() != operand.shape().rank() ||
      init.num_elements() != 1 || source.shape().element_type() != t)
    return InstrError(instr, "operand, source, init and window do not agree");
  Literal out(NoLayout(instr.shape()));
  if (out.num_elements() != operand.num_elements()) return InstrError(instr, "result must have the operand's shape");
  for (int64_t i = 0; i < out.num_elements(); ++i) CopyElement(init, 0, out, i);
  WindowWalker walker(win->dims, operand.shape().dims());
  ScalarCall select(in, *sel, {t, t});
  ScalarCall scatter(in, *sct, {t, t});
  std::vector<int64_t> idx(source.shape().rank(), 0);
  Status err;
  for (int64_t s = 0; s < source.num_elements() && err.ok(); ++s) {
    int64_t chosen = -1;
    walker.Walk(idx, [&](int64_t lin) {
      if (!err.ok()) return;
      if (chosen < 0) {
        chosen = lin;
        return;
      }
      CopyElement(operand, chosen, select.arg(0), 0);
      CopyElement(operand, lin, select.arg(1), 0);
      err = select.Call();
      if (err.ok() && select.results()[0].raw()[0] == 0) chosen = lin;
    });
    if (chosen >= 0 && err.ok()) {
      CopyElement(source, s, scatter.arg(0), 0);
      CopyElement(out, chosen, scatter.arg(1), 0);
      err = scatter.Call();
      if (err.ok()) CopyElement(scatter.results()[0], 0, out, chosen);
    }
    NextIndex(idx, source.shape().dims());
  }
  if (!err.ok()) return InstrError(instr, err.message());
  return out;
}

}  // namespace hloscope::eval
