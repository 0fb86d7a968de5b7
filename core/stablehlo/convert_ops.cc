// The static-shape stablehlo ops (and the chlo ops HLO has directly) → one HLO instruction each.
#include <cctype>
#include <cstdlib>
#include <map>

#include "core/parser/lexer.h"
#include "core/stablehlo/convert_internal.h"

namespace hloscope::mlir {
namespace {

// The value of an enum attribute, `#stablehlo<transpose ADJOINT>` → ADJOINT
// (the pretty form gives the word alone). Text that is not one keyword and
// one word comes back whole, shown printable, so that the caller's check of
// the value refuses it.
std::string EnumWord(const Attr& a) {
  const std::string& v = a.kind == Attr::kHash ? a.raw : a.s;
  std::vector<std::string> words;
  std::string cur;
  bool odd = false;
  for (char ch : v) {
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
      if (!cur.empty()) words.push_back(std::move(cur));
      cur.clear();
    } else {
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') odd = true;
      cur += ch;
    }
  }
  if (!cur.empty()) words.push_back(std::move(cur));
  if (!odd && !words.empty() && words.size() <= 2) return words.back();
  std::string shown;
  for (char ch : v) shown += std::isprint(static_cast<unsigned char>(ch)) ? ch : '?';
  return shown.empty() ? "?" : shown;
}

const std::map<std::string, Opcode>& DirectOps() {
  static const std::map<std::string, Opcode> m = {
      {"abs", Opcode::kAbs}, {"add", Opcode::kAdd}, {"and", Opcode::kAnd}, {"atan2", Opcode::kAtan2},
      {"cbrt", Opcode::kCbrt}, {"ceil", Opcode::kCeil}, {"cosine", Opcode::kCos},
      {"count_leading_zeros", Opcode::kClz}, {"divide", Opcode::kDivide}, {"exponential", Opcode::kExp},
      {"exponential_minus_one", Opcode::kExpm1}, {"floor", Opcode::kFloor}, {"imag", Opcode::kImag},
      {"is_finite", Opcode::kIsFinite}, {"log", Opcode::kLog}, {"log_plus_one", Opcode::kLog1p},
      {"logistic", Opcode::kLogistic}, {"maximum", Opcode::kMaximum}, {"minimum", Opcode::kMinimum},
      {"multiply", Opcode::kMultiply}, {"negate", Opcode::kNegate}, {"not", Opcode::kNot}, {"or", Opcode::kOr},
      {"popcnt", Opcode::kPopulationCount}, {"power", Opcode::kPower}, {"real", Opcode::kReal},
      {"remainder", Opcode::kRemainder}, {"round_nearest_afz", Opcode::kRoundNearestAfz},
      {"round_nearest_even", Opcode::kRoundNearestEven}, {"rsqrt", Opcode::kRsqrt},
      {"shift_left", Opcode::kShiftLeft}, {"shift_right_arithmetic", Opcode::kShiftRightArithmetic},
      {"shift_right_logical", Opcode::kShiftRightLogical}, {"sign", Opcode::kSign}, {"sine", Opcode::kSin},
      {"sqrt", Opcode::kSqrt}, {"subtract", Opcode::kSubtract}, {"tan", Opcode::kTan}, {"tanh", Opcode::kTanh},
      {"xor", Opcode::kXor}, {"complex", Opcode::kComplex}, {"select", Opcode::kSelect},
      {"clamp", Opcode::kClamp}, {"convert", Opcode::kConvert}, {"bitcast_convert", Opcode::kBitcastConvert},
      {"reshape", Opcode::kReshape}, {"tuple", Opcode::kTuple}, {"dynamic_update_slice", Opcode::kDynamicUpdateSlice},
      {"optimization_barrier", Opcode::kOptimizationBarrier}, {"after_all", Opcode::kAfterAll},
      {"erf", Opcode::kErf}, {"acos", Opcode::kAcos}, {"acosh", Opcode::kAcosh}, {"asin", Opcode::kAsin},
      {"asinh", Opcode::kAsinh}, {"atanh", Opcode::kAtanh}, {"cosh", Opcode::kCosh}, {"sinh", Opcode::kSinh},
  };
  return m;
}

const Attr* AnyAttr(const Op& op, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (const Attr* a = op.FindAttr(n)) return a;
  return nullptr;
}

bool IntsOf(const Op& op, std::initializer_list<const char*> names, std::vector<int64_t>* out) {
  const Attr* a = AnyAttr(op, names);
  return a && a->Ints(out);
}

std::vector<int64_t> FieldInts(const Attr* a, const char* name) {
  std::vector<int64_t> v;
  if (a)
    if (const Attr* f = a->Field(name)) f->Ints(&v);
  return v;
}


// Convolution dimension labels: [b, 0, f]x[0, i, o]->[b, 0, f], from the pretty
// form (a list of three label lists) or from #stablehlo.conv<...> text.
bool ConvLabels(const Attr& a, std::vector<std::vector<std::string>>* out) {
  out->clear();
  if (a.kind == Attr::kList && a.items.size() == 3) {
    for (const Attr& l : a.items) {
      if (l.kind != Attr::kList) return false;
      std::vector<std::string> v;
      for (const Attr& e : l.items) {
        if (e.kind == Attr::kInt) v.push_back(std::to_string(e.i));
        else if (e.kind == Attr::kIdent) v.push_back(e.s);
        else return false;
      }
      out->push_back(std::move(v));
    }
    return true;
  }
  std::string t = a.raw;
  if (size_t r = t.find("raw"); r != std::string::npos) t = t.substr(r + 3);
  std::vector<std::string> cur;
  std::string tok;
  bool in = false;
  for (char ch : t) {
    if (ch == '[') {
      in = true;
      cur.clear();
      tok.clear();
    } else if (in && (ch == ',' || ch == ']')) {
      if (!tok.empty()) cur.push_back(tok);
      tok.clear();
      if (ch == ']') {
        in = false;
        out->push_back(cur);
      }
    } else if (in && ch != ' ') {
      tok += ch;
    }
  }
  return out->size() == 3;
}

// One side's labels → batch/feature dims (named by `b`/`f` or `i`/`o`) and the spatial dims.
bool ConvSide(const std::vector<std::string>& l, char b, char f, int64_t* bd, int64_t* fd,
              std::vector<int64_t>* sp) {
  sp->assign(l.size(), -1);
  size_t n = 0;
  for (size_t p = 0; p < l.size(); ++p) {
    if (l[p].size() == 1 && l[p][0] == b) *bd = static_cast<int64_t>(p);
    else if (l[p].size() == 1 && l[p][0] == f) *fd = static_cast<int64_t>(p);
    else {
      char* end = nullptr;
      long k = std::strtol(l[p].c_str(), &end, 10);
      if (*end || k < 0 || k >= static_cast<long>(l.size())) return false;
      (*sp)[k] = static_cast<int64_t>(p);
      ++n;
    }
  }
  sp->resize(n);
  for (int64_t v : *sp)
    if (v < 0) return false;
  return true;
}

// StableHLO's dot algorithm (`<lhs_precision_type = tf32, rhs_precision_type =
// tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count
// = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>`)
// as HLO writes it (`algorithm=dot_tf32_tf32_f32`; XLA's
// PrecisionConfig::Algorithm: an f8 operand type is `any_f8`, 3, 6 or 9
// primitive operations `_x3`, `_x6`, `_x9`, imprecise f8 accumulation
// `_fast_accum`). The interpreter computes every dot exactly; the algorithm
// is kept for the printed module and for XLA.
StatusOr<std::string> DotAlgorithmName(const Attr& a) {
  // The element types are bare identifiers (tf32, bf16, f8E4M3FN).
  auto type = [&](const char* k) {
    const Attr* f = a.Field(k);
    const std::string t = f && f->kind == Attr::kIdent ? f->s : std::string("?");
    return t.rfind("f8", 0) == 0 ? std::string("any_f8") : t;
  };
  auto count = [&](const char* k, int64_t dflt) {
    const Attr* f = a.Field(k);
    return f && f->kind == Attr::kInt ? f->i : dflt;
  };
  const std::string lhs = type("lhs_precision_type"), rhs = type("rhs_precision_type"), acc = type("accumulation_type");
  const int64_t ops = count("num_primitive_operations", 1);
  const Attr* imprecise = a.Field("allow_imprecise_accumulation");
  std::string name = "dot_" + lhs + "_" + rhs + "_" + acc + (ops > 1 ? "_x" + std::to_string(ops) : "");
  if (lhs == "any_f8" && imprecise && imprecise->kind == Attr::kBool && imprecise->i) name += "_fast_accum";
  static const char* const kKnown[] = {
      "dot_any_f8_any_f8_f32", "dot_any_f8_any_f8_f32_fast_accum", "dot_f16_f16_f16", "dot_f16_f16_f32",
      "dot_bf16_bf16_bf16", "dot_bf16_bf16_f32", "dot_bf16_bf16_f32_x3", "dot_bf16_bf16_f32_x6",
      "dot_bf16_bf16_f32_x9", "dot_tf32_tf32_f32", "dot_tf32_tf32_f32_x3", "dot_f32_f32_f32", "dot_f64_f64_f64"};
  for (const char* k : kKnown)
    if (name == k) return name;
  return Unsupported("dot_general algorithm " + name + " (not one of XLA's)");
}
}  // namespace

Status ConvertSimpleOp(Converter& c, const Op& op, Converter::Scope& s, const std::vector<Instruction*>& in,
                       Instruction** result) {
  std::string name = op.name;
  bool chlo = name.starts_with("chlo.");
  if (name == "sdy.sharding_constraint" || name == "sdy.reshard") {
    // A Shardy sharding on a value: JAX writes the same as an HLO
    // custom-call "Sharding" (an identity on one device), the sharding kept
    // in its frontend attributes as XLA's Shardy import expects.
    if (in.size() != 1) return Error(name + " takes one operand");
    Instruction* i = c.Add(s, Opcode::kCustomCall, in[0]->shape(), in, &op);
    i->attrs().custom_call_target = "Sharding";
    i->attrs().mark(::hloscope::Attr::kCustomCallTarget);
    const Attr* sh = op.FindAttr("sharding");
    const std::string sharding = sh ? sh->s : "<@empty_mesh, []>";
    // Replicated when no dimension names a mesh axis: <@m, [{}, {}]>.
    if (sharding.find('"') == std::string::npos) i->SetRaw("sharding", "{replicated}");
    i->SetRaw("frontend_attributes",
              "{xla.sdy.sharding=" + QuoteString("#sdy.sharding_per_value<[" + sharding + "]>") + "}");
    *result = i;
    return Status::Ok();
  }
  if (name.starts_with("sdy."))
    return Unsupported("Shardy op " + name +
                       " (only sdy.mesh, sdy.sharding_constraint, sdy.reshard and sdy.manual_computation are read)");
  if (name.starts_with("stablehlo.")) name = name.substr(10);
  else if (name.starts_with("mhlo.")) name = name.substr(5);
  else if (chlo) name = name.substr(5);
  else return Unsupported("op " + op.name);
  // Result shape.
  Shape out;
  if (!op.result_types.empty()) {
    if (op.results.size() > 1 || op.result_types.size() > 1) {
      if (op.results.size() <= 1 && name != "tuple") {
        ASSIGN_OR_RETURN(out, ShapeFromType(op.result_types.back()));
      } else {
        std::vector<Shape> el;
        for (const Type& t : op.result_types) {
          ASSIGN_OR_RETURN(Shape sh, ShapeFromType(t));
          el.push_back(sh);
        }
        out = el.size() == 1 && name != "tuple" ? el[0] : Shape::Tuple(el);
      }
    } else {
      ASSIGN_OR_RETURN(out, ShapeFromType(op.result_types.back()));
    }
  }
  if (chlo) return c.ConvertChlo(op, s, in, out, result);
  bool collective = false;
  RETURN_IF_ERROR(ConvertCollective(c, op, s, name, in, out, result, &collective));
  if (collective) return Status::Ok();
  if (name == "constant") {
    const Attr* v = AnyAttr(op, {"value"});
    if (!v) return Error("constant without a value");
    if (v->type && op.result_types.empty()) {
      ASSIGN_OR_RETURN(out, ShapeFromType(*v->type));
    }
    if (v->kind != Attr::kDense) return Unsupported("constant " + v->raw);
    ASSIGN_OR_RETURN(Literal l, LiteralFromDense(v->s, out));
    Instruction* i = c.Add(s, Opcode::kConstant, out, {}, &op);
    i->set_literal(std::make_unique<Literal>(std::move(l)));
    *result = i;
    return Status::Ok();
  }
  if (out.element_type() == PrimitiveType::kInvalid && name != "tuple")
    return Error("missing result type");
  if (auto it = DirectOps().find(name); it != DirectOps().end()) {
    Opcode opc = it->second;
    if (name == "tuple") {
      std::vector<Shape> el;
      for (Instruction* i : in) el.push_back(i->shape());
      out = Shape::Tuple(el);
    }
    if (name == "optimization_barrier") {
      std::vector<Shape> el;
      for (Instruction* i : in) el.push_back(i->shape());
      Instruction* t = c.Add(s, Opcode::kTuple, Shape::Tuple(el), in, &op);
      *result = c.Add(s, opc, t->shape(), {t}, &op);
      if (in.size() == 1) {
        Instruction* g = c.Add(s, Opcode::kGetTupleElement, in[0]->shape(), {*result}, &op);
        g->attrs().index = 0;
        g->attrs().mark(::hloscope::Attr::kIndex);
        *result = g;
      }
      return Status::Ok();
    }
    if (name == "after_all") out = Shape::Scalar(PrimitiveType::kToken);
    *result = c.Add(s, opc, out, in, &op);
    return Status::Ok();
  }
  if (name == "get_tuple_element") {
    const Attr* a = AnyAttr(op, {"index"});
    if (!a) return Error("get_tuple_element without index");
    std::vector<int64_t> idx;
    a->Ints(&idx);
    if (idx.size() != 1 || in.size() != 1 || !in[0]->shape().IsTuple() || idx[0] < 0 ||
        idx[0] >= in[0]->shape().tuple_size())
      return Error("bad get_tuple_element");
    Instruction* g = c.Add(s, Opcode::kGetTupleElement, in[0]->shape().tuple_shapes()[idx[0]], in, &op);
    g->attrs().index = idx[0];
    g->attrs().mark(::hloscope::Attr::kIndex);
    *result = g;
    return Status::Ok();
  }
  std::vector<int64_t> v;
  if (name == "broadcast_in_dim" || name == "dynamic_broadcast_in_dim") {
    if (!IntsOf(op, {"dims", "broadcast_dimensions"}, &v)) return Error("missing broadcast dimensions");
    if (in.empty()) return Error(name + " needs an operand");
    for (int64_t d : v)
      if (d < 0 || d >= out.rank())
        return Error("broadcast dimension " + std::to_string(d) + " is outside the result's rank " +
                     std::to_string(out.rank()));
    Instruction* x = in[0];
    if (x->shape().IsArray() && static_cast<int>(v.size()) == x->shape().rank()) {
      // stablehlo broadcasts size-1 operand dims; HLO's broadcast does not: drop them first.
      std::vector<int64_t> keep_dims, keep_map;
      for (size_t k = 0; k < v.size(); ++k) {
        if (x->shape().dim(static_cast<int>(k)) == 1 && v[k] < out.rank() && out.dim(static_cast<int>(v[k])) != 1) continue;
        keep_dims.push_back(x->shape().dim(static_cast<int>(k)));
        keep_map.push_back(v[k]);
      }
      if (keep_map.size() != v.size()) {
        x = c.Add(s, Opcode::kReshape, Shape(x->shape().element_type(), keep_dims), {x}, &op);
        v = keep_map;
      }
    }
    Instruction* i = c.Add(s, Opcode::kBroadcast, out, {x}, &op);
    i->set_dimensions(v);
    *result = i;
    return Status::Ok();
  }
  if (name == "dynamic_reshape") {
    if (in.empty()) return Error("dynamic_reshape needs an operand");
    *result = c.Add(s, Opcode::kReshape, out, {in[0]}, &op);
    return Status::Ok();
  }
  if (name == "transpose" || name == "reverse") {
    if (!IntsOf(op, {"dims", "permutation", "dimensions"}, &v)) return Error("missing dimensions");
    Instruction* i = c.Add(s, name == "transpose" ? Opcode::kTranspose : Opcode::kReverse, out, in, &op);
    i->set_dimensions(v);
    *result = i;
    return Status::Ok();
  }
  if (name == "iota" || name == "dynamic_iota") {
    if (!IntsOf(op, {"dim", "iota_dimension"}, &v) || v.size() != 1) return Error("missing iota dimension");
    Instruction* i = c.Add(s, Opcode::kIota, out, {}, &op);
    i->attrs().iota_dimension = v[0];
    i->attrs().mark(::hloscope::Attr::kIotaDimension);
    *result = i;
    return Status::Ok();
  }
  if (name == "get_dimension_size") {
    if (!IntsOf(op, {"dimension", "dim"}, &v) || v.size() != 1 || in.size() != 1 || v[0] < 0 ||
        v[0] >= in[0]->shape().rank())
      return Error("bad get_dimension_size");
    Literal l(out);
    l.SetInt(0, in[0]->shape().dim(static_cast<int>(v[0])));
    Instruction* i = c.Add(s, Opcode::kConstant, out, {}, &op);
    i->set_literal(std::make_unique<Literal>(std::move(l)));
    *result = i;
    return Status::Ok();
  }
  if (name == "compare") {
    std::string dir, type;
    if (!op.keywords.empty()) {
      dir = op.keywords[0];
      if (op.keywords.size() > 1) type = op.keywords[1];
    }
    if (const Attr* a = AnyAttr(op, {"comparison_direction"})) dir = EnumWord(*a);
    if (const Attr* a = AnyAttr(op, {"compare_type"})) type = EnumWord(*a);
    auto d = DirectionFromName(dir);
    if (!d) return Error("unknown comparison direction '" + dir + "'");
    if (!type.empty() && type != "NOTYPE" && type != "FLOAT" && type != "TOTALORDER" && type != "SIGNED" &&
        type != "UNSIGNED")
      return Error("compare_type '" + type + "' is not one of FLOAT, TOTALORDER, SIGNED, UNSIGNED");
    Instruction* i = c.Add(s, Opcode::kCompare, out, in, &op);
    i->attrs().direction = *d;
    i->attrs().mark(::hloscope::Attr::kDirection);
    if (!type.empty() && type != "NOTYPE") {
      i->attrs().compare_type = type;
      i->attrs().mark(::hloscope::Attr::kCompareType);
    }
    *result = i;
    return Status::Ok();
  }
  if (name == "dot_general" || name == "dot") {
    auto d = std::make_unique<DotDnums>();
    if (const Attr* p = AnyAttr(op, {"batching_dims"}); p && p->kind == Attr::kPair) {
      p->items[0].Ints(&d->lhs_batch);
      p->items[1].Ints(&d->rhs_batch);
    }
    if (const Attr* p = AnyAttr(op, {"contracting_dims"}); p && p->kind == Attr::kPair) {
      p->items[0].Ints(&d->lhs_contracting);
      p->items[1].Ints(&d->rhs_contracting);
    }
    if (const Attr* g = AnyAttr(op, {"dot_dimension_numbers"})) {
      d->lhs_batch = FieldInts(g, "lhs_batching_dimensions");
      d->rhs_batch = FieldInts(g, "rhs_batching_dimensions");
      d->lhs_contracting = FieldInts(g, "lhs_contracting_dimensions");
      d->rhs_contracting = FieldInts(g, "rhs_contracting_dimensions");
    }
    if (name == "dot" && in.size() == 2 && in[0]->shape().rank() >= 1) {
      d->lhs_contracting = {in[0]->shape().rank() - 1};
      d->rhs_contracting = {0};
    }
    std::string algorithm;
    if (const Attr* alg = AnyAttr(op, {"algorithm"})) {
      ASSIGN_OR_RETURN(algorithm, DotAlgorithmName(*alg));
    }
    Instruction* i = c.Add(s, Opcode::kDot, out, in, &op);
    if (!algorithm.empty()) i->SetRaw("algorithm", algorithm);
    i->attrs().dot = std::move(d);
    i->attrs().mark(::hloscope::Attr::kDotDims);
    *result = i;
    return Status::Ok();
  }
  if (name == "reduce" || name == "reduce_window" || name == "scatter" || name == "sort" ||
      name == "select_and_scatter" || name == "map") {
    if (op.regions.empty()) return Error("missing region");
    ASSIGN_OR_RETURN(Computation * body, c.ConvertRegion(*op.regions[0], &s, name + "_body", false, &op));
    Opcode opc = name == "reduce" ? Opcode::kReduce : name == "reduce_window" ? Opcode::kReduceWindow
               : name == "scatter" ? Opcode::kScatter : name == "sort" ? Opcode::kSort
               : name == "map" ? Opcode::kMap : Opcode::kSelectAndScatter;
    Instruction* i = c.Add(s, opc, out, in, &op);
    if (opc == Opcode::kSelectAndScatter) {
      if (op.regions.size() != 2) return Error("select_and_scatter needs two regions");
      ASSIGN_OR_RETURN(Computation * sc, c.ConvertRegion(*op.regions[1], &s, "scatter_body", false, &op));
      i->SetCalled("select", body);
      i->SetCalled("scatter", sc);
    } else {
      i->SetCalled(opc == Opcode::kSort ? "to_apply" : "to_apply", body);
    }
    if (opc == Opcode::kReduce || opc == Opcode::kMap) {
      IntsOf(op, {"dimensions"}, &v);
      i->set_dimensions(v);
    }
    if (opc == Opcode::kSort) {
      IntsOf(op, {"dimension"}, &v);
      i->set_dimensions(v);
      const Attr* st = AnyAttr(op, {"is_stable"});
      i->attrs().is_stable = st && st->i;
      if (i->attrs().is_stable) i->attrs().mark(::hloscope::Attr::kIsStable);
    }
    if (opc == Opcode::kReduceWindow || opc == Opcode::kSelectAndScatter) {
      std::vector<int64_t> size, stride, bd, wd, pad;
      IntsOf(op, {"window_dimensions"}, &size);
      IntsOf(op, {"window_strides"}, &stride);
      IntsOf(op, {"base_dilations"}, &bd);
      IntsOf(op, {"window_dilations"}, &wd);
      IntsOf(op, {"padding"}, &pad);
      auto w = std::make_unique<Window>();
      for (size_t k = 0; k < size.size(); ++k) {
        WindowDim wdim;
        wdim.size = size[k];
        if (k < stride.size()) wdim.stride = stride[k];
        if (k < bd.size()) wdim.base_dilation = bd[k];
        if (k < wd.size()) wdim.window_dilation = wd[k];
        if (2 * k + 1 < pad.size()) {
          wdim.pad_lo = pad[2 * k];
          wdim.pad_hi = pad[2 * k + 1];
        }
        w->dims.push_back(wdim);
      }
      i->attrs().window = std::move(w);
      i->attrs().mark(::hloscope::Attr::kWindow);
    }
    if (opc == Opcode::kScatter) {
      const Attr* g = AnyAttr(op, {"scatter_dimension_numbers"});
      auto d = std::make_unique<ScatterDnums>();
      d->update_window_dims = FieldInts(g, "update_window_dims");
      d->inserted_window_dims = FieldInts(g, "inserted_window_dims");
      d->input_batching_dims = FieldInts(g, "input_batching_dims");
      d->scatter_indices_batching_dims = FieldInts(g, "scatter_indices_batching_dims");
      d->scatter_dims_to_operand_dims = FieldInts(g, "scatter_dims_to_operand_dims");
      auto ivd = FieldInts(g, "index_vector_dim");
      d->index_vector_dim = ivd.empty() ? 0 : ivd[0];
      i->attrs().scatter = std::move(d);
      i->attrs().mark(::hloscope::Attr::kScatterDims);
      if (const Attr* a = AnyAttr(op, {"indices_are_sorted"}); a && a->i) {
        i->attrs().indices_are_sorted = true;
        i->attrs().mark(::hloscope::Attr::kIndicesAreSorted);
      }
      if (const Attr* a = AnyAttr(op, {"unique_indices"}); a && a->i) {
        i->attrs().unique_indices = true;
        i->attrs().mark(::hloscope::Attr::kUniqueIndices);
      }
    }
    *result = i;
    return Status::Ok();
  }
  if (name == "gather") {
    const Attr* g = AnyAttr(op, {"dimension_numbers"});
    auto d = std::make_unique<GatherDnums>();
    d->offset_dims = FieldInts(g, "offset_dims");
    d->collapsed_slice_dims = FieldInts(g, "collapsed_slice_dims");
    d->operand_batching_dims = FieldInts(g, "operand_batching_dims");
    d->start_indices_batching_dims = FieldInts(g, "start_indices_batching_dims");
    d->start_index_map = FieldInts(g, "start_index_map");
    auto ivd = FieldInts(g, "index_vector_dim");
    d->index_vector_dim = ivd.empty() ? 0 : ivd[0];
    Instruction* i = c.Add(s, Opcode::kGather, out, in, &op);
    i->attrs().gather = std::move(d);
    i->attrs().mark(::hloscope::Attr::kGatherDims);
    IntsOf(op, {"slice_sizes"}, &v);
    i->attrs().dynamic_slice_sizes = v;
    i->attrs().mark(::hloscope::Attr::kSliceSizes);
    if (const Attr* a = AnyAttr(op, {"indices_are_sorted"}); a && a->i) {
      i->attrs().indices_are_sorted = true;
      i->attrs().mark(::hloscope::Attr::kIndicesAreSorted);
    }
    *result = i;
    return Status::Ok();
  }
  if (name == "slice") {
    std::vector<SliceDim> sl;
    if (const Attr* a = AnyAttr(op, {"slice"})) {
      for (const Attr& e : a->items) {
        std::vector<int64_t> p;
        e.Ints(&p);
        SliceDim d;
        if (p.size() >= 2) {
          d.start = p[0];
          d.limit = p[1];
        }
        if (p.size() >= 3) d.stride = p[2];
        sl.push_back(d);
      }
    } else {
      std::vector<int64_t> st, li, str;
      IntsOf(op, {"start_indices"}, &st);
      IntsOf(op, {"limit_indices"}, &li);
      IntsOf(op, {"strides"}, &str);
      for (size_t k = 0; k < st.size() && k < li.size(); ++k)
        sl.push_back({st[k], li[k], k < str.size() ? str[k] : 1});
    }
    Instruction* i = c.Add(s, Opcode::kSlice, out, in, &op);
    i->attrs().slice = sl;
    i->attrs().mark(::hloscope::Attr::kSlice);
    *result = i;
    return Status::Ok();
  }
  if (name == "dynamic_slice") {
    if (!IntsOf(op, {"sizes", "slice_sizes"}, &v)) return Error("missing slice sizes");
    Instruction* i = c.Add(s, Opcode::kDynamicSlice, out, in, &op);
    i->attrs().dynamic_slice_sizes = v;
    i->attrs().mark(::hloscope::Attr::kDynamicSliceSizes);
    *result = i;
    return Status::Ok();
  }
  if (name == "concatenate") {
    if (!IntsOf(op, {"dim", "dimension"}, &v) || v.size() != 1) return Error("missing concatenate dimension");
    Instruction* i = c.Add(s, Opcode::kConcatenate, out, in, &op);
    i->set_dimensions(v);
    *result = i;
    return Status::Ok();
  }
  if (name == "pad") {
    std::vector<int64_t> lo, hi, inr;
    IntsOf(op, {"low", "edge_padding_low"}, &lo);
    IntsOf(op, {"high", "edge_padding_high"}, &hi);
    IntsOf(op, {"interior", "interior_padding"}, &inr);
    std::vector<PadDim> p;
    for (size_t k = 0; k < lo.size(); ++k)
      p.push_back({lo[k], k < hi.size() ? hi[k] : 0, k < inr.size() ? inr[k] : 0});
    Instruction* i = c.Add(s, Opcode::kPad, out, in, &op);
    i->attrs().padding = p;
    i->attrs().mark(::hloscope::Attr::kPadding);
    *result = i;
    return Status::Ok();
  }
  if (name == "reduce_precision") {
    int64_t e = 0, m = 0;
    if (const Attr* f = AnyAttr(op, {"format"}); f && f->kind == Attr::kIdent) {
      std::sscanf(f->s.c_str(), "e%ldm%ld", &e, &m);
    }
    if (const Attr* a = AnyAttr(op, {"exponent_bits"})) e = a->i;
    if (const Attr* a = AnyAttr(op, {"mantissa_bits"})) m = a->i;
    Instruction* i = c.Add(s, Opcode::kReducePrecision, out, in, &op);
    i->attrs().exponent_bits = e;
    i->attrs().mantissa_bits = m;
    i->attrs().mark(::hloscope::Attr::kExponentBits);
    i->attrs().mark(::hloscope::Attr::kMantissaBits);
    *result = i;
    return Status::Ok();
  }
  if (name == "convolution") {
    if (in.size() != 2) return Error("convolution takes two operands (input, kernel)");
    const Attr* dn = AnyAttr(op, {"dim_numbers", "dimension_numbers"});
    std::vector<std::vector<std::string>> labels;
    if (!dn || !ConvLabels(*dn, &labels)) return Error("convolution without dimension numbers");
    if (in.size() != 2) return Error("convolution needs two operands");
    auto d = std::make_unique<ConvDnums>();
    if (!ConvSide(labels[0], 'b', 'f', &d->input_batch, &d->input_feature, &d->input_spatial) ||
        !ConvSide(labels[1], 'i', 'o', &d->kernel_input_feature, &d->kernel_output_feature, &d->kernel_spatial) ||
        !ConvSide(labels[2], 'b', 'f', &d->output_batch, &d->output_feature, &d->output_spatial) ||
        d->input_spatial.size() != d->kernel_spatial.size() || d->input_spatial.size() != d->output_spatial.size())
      return Error("bad convolution dimension numbers");
    size_t n = d->kernel_spatial.size();
    const Attr* w = AnyAttr(op, {"window"});
    auto ints = [&](const char* pretty, const char* generic) {
      std::vector<int64_t> r;
      if (w) r = FieldInts(w, pretty);
      if (r.empty()) IntsOf(op, {generic}, &r);
      return r;
    };
    std::vector<int64_t> stride = ints("stride", "window_strides"), lhs = ints("lhs_dilate", "lhs_dilation"),
                         rhs = ints("rhs_dilate", "rhs_dilation"), rev = ints("reverse", "window_reversal");
    std::vector<int64_t> pad;
    if (const Attr* p = w ? w->Field("pad") : nullptr) {
      for (const Attr& e : p->items) {
        std::vector<int64_t> lohi;
        e.Ints(&lohi);
        pad.insert(pad.end(), lohi.begin(), lohi.end());
      }
    } else {
      IntsOf(op, {"padding"}, &pad);
    }
    auto win = std::make_unique<Window>();
    const Shape& ks = in[1]->shape();
    for (size_t k = 0; k < n; ++k) {
      WindowDim wd;
      if (d->kernel_spatial[k] >= ks.rank()) return Error("bad convolution kernel");
      wd.size = ks.dim(static_cast<int>(d->kernel_spatial[k]));
      if (k < stride.size()) wd.stride = stride[k];
      if (k < lhs.size()) wd.base_dilation = lhs[k];
      if (k < rhs.size()) wd.window_dilation = rhs[k];
      if (k < rev.size()) wd.reversal = rev[k] != 0;
      if (2 * k + 1 < pad.size()) {
        wd.pad_lo = pad[2 * k];
        wd.pad_hi = pad[2 * k + 1];
      }
      win->dims.push_back(wd);
    }
    Instruction* i = c.Add(s, Opcode::kConvolution, out, in, &op);
    i->attrs().conv = std::move(d);
    i->attrs().window = std::move(win);
    i->attrs().mark(::hloscope::Attr::kDimLabels);
    i->attrs().mark(::hloscope::Attr::kWindow);
    std::vector<int64_t> g;
    if (IntsOf(op, {"feature_group_count"}, &g) && g.size() == 1) i->attrs().feature_group_count = g[0];
    if (IntsOf(op, {"batch_group_count"}, &g) && g.size() == 1) i->attrs().batch_group_count = g[0];
    i->attrs().mark(::hloscope::Attr::kFeatureGroupCount);
    i->attrs().mark(::hloscope::Attr::kBatchGroupCount);
    *result = i;
    return Status::Ok();
  }
  if (name == "triangular_solve" || name == "cholesky" || name == "fft") {
    // Enum-valued attributes: `#stablehlo<transpose NO_TRANSPOSE>` or a bare identifier.
    auto enum_value = [&](std::initializer_list<const char*> keys) -> std::string {
      const Attr* a = AnyAttr(op, keys);
      return a ? EnumWord(*a) : std::string();
    };
    auto flag = [&](const char* key) -> std::optional<bool> {
      const Attr* a = AnyAttr(op, {key});
      if (!a) return std::nullopt;
      return a->i != 0;
    };
    if (name == "fft") {
      std::string type = enum_value({"fft_type", "type"});
      std::vector<int64_t> len;
      IntsOf(op, {"fft_length", "length"}, &len);
      if (type.empty() || len.empty()) return Error("fft needs a type and a length");
      if (type != "FFT" && type != "IFFT" && type != "RFFT" && type != "IRFFT")
        return Error("fft_type '" + type + "' is not one of FFT, IFFT, RFFT, IRFFT");
      Instruction* i = c.Add(s, Opcode::kFft, out, in, &op);
      i->SetRaw("fft_type", type);
      std::string l = "{";
      for (size_t k = 0; k < len.size(); ++k) l += (k ? "," : "") + std::to_string(len[k]);
      i->SetRaw("fft_length", l + "}");
      *result = i;
      return Status::Ok();
    }
    if (name == "cholesky") {
      Instruction* i = c.Add(s, Opcode::kCholesky, out, in, &op);
      i->SetRaw("lower", flag("lower").value_or(false) ? "true" : "false");
      *result = i;
      return Status::Ok();
    }
    std::string tr = enum_value({"transpose_a"});
    if (!tr.empty() && tr != "NO_TRANSPOSE" && tr != "TRANSPOSE" && tr != "ADJOINT")
      return Error("transpose_a '" + tr + "' is not one of NO_TRANSPOSE, TRANSPOSE, ADJOINT");
    Instruction* i = c.Add(s, Opcode::kTriangularSolve, out, in, &op);
    i->SetRaw("left_side", flag("left_side").value_or(false) ? "true" : "false");
    i->SetRaw("lower", flag("lower").value_or(false) ? "true" : "false");
    i->SetRaw("unit_diagonal", flag("unit_diagonal").value_or(false) ? "true" : "false");
    i->SetRaw("transpose_a", tr.empty() ? "NO_TRANSPOSE" : tr);
    *result = i;
    return Status::Ok();
  }
  if (name == "custom_call") {
    auto LayoutOf = [](std::vector<int64_t> m2m) {
      Layout l;
      l.minor_to_major = std::move(m2m);
      return l;
    };
    // A library call as XLA imports it (JAX's cuSOLVER / LAPACK calls, which
    // the interpreter and kernels implement; others stay custom-call thunks):
    // the target, a dictionary backend config (typed FFI), result layouts and
    // the result-operand aliasing.
    if (op.callee.empty()) return Error("custom_call without a target");
    std::vector<Shape*> leaves;
    if (out.IsTuple()) {
      for (Shape& t : out.mutable_tuple_shapes()) leaves.push_back(&t);
    } else {
      leaves.push_back(&out);
    }
    if (const Attr* rl = AnyAttr(op, {"result_layouts"}); rl && rl->kind == Attr::kList && rl->items.size() == leaves.size())
      for (size_t k = 0; k < leaves.size(); ++k) {
        std::vector<int64_t> m2m;
        if (rl->items[k].Ints(&m2m) && static_cast<int>(m2m.size()) == leaves[k]->rank() && leaves[k]->IsArray())
          leaves[k]->set_layout(LayoutOf(m2m));
      }
    Instruction* i = c.Add(s, Opcode::kCustomCall, out, in, &op);
    i->attrs().custom_call_target = op.callee;
    i->attrs().mark(::hloscope::Attr::kCustomCallTarget);
    const Attr* dict = AnyAttr(op, {"mhlo.backend_config"});
    if (dict && dict->kind == Attr::kDict) {
      // The dictionary as XLA prints it: {diag = 78 : ui8, side = 76 : ui8} (LAPACK's
      // trsm options, cuSOLVER's potrf `lower = true`).
      std::string text = "{";
      for (const auto& [key, v] : dict->fields) {
        std::string value = v.raw;
        if (value.empty()) {
          if (v.kind == Attr::kInt) value = std::to_string(v.i);
          else if (v.kind == Attr::kBool) value = v.i ? "true" : "false";
          else if (v.kind == Attr::kString) value = QuoteString(v.s);
          else value = v.s;
        }
        text += (text.size() > 1 ? ", " : "") + key + " = " + value;
      }
      i->SetRaw("api_version", "API_VERSION_TYPED_FFI");
      i->SetRaw("backend_config", text + "}");
    } else if (const Attr* bc = AnyAttr(op, {"backend_config"}); bc && bc->kind == Attr::kString && !bc->s.empty()) {
      i->SetRaw("backend_config", QuoteString(bc->s));
    }
    if (const Attr* al = AnyAttr(op, {"output_operand_aliases"}); al && al->kind == Attr::kList && !al->items.empty()) {
      std::string text = "{";
      for (const Attr& a : al->items) {
        std::vector<int64_t> out_idx, operand_idx;
        const Attr* o = a.Field("output_tuple_indices");
        const Attr* k = a.Field("operand_index");
        const Attr* t = a.Field("operand_tuple_indices");
        if (!k || k->kind != Attr::kInt) continue;
        if (o) o->Ints(&out_idx);
        if (t) t->Ints(&operand_idx);
        auto braced = [](const std::vector<int64_t>& v) {
          std::string b = "{";
          for (size_t n = 0; n < v.size(); ++n) b += (n ? "," : "") + std::to_string(v[n]);
          return b + "}";
        };
        text += (text.size() > 1 ? ", " : "") + braced(out_idx) + ": (" + std::to_string(k->i) + ", " +
                braced(operand_idx) + ")";
      }
      if (text.size() > 1) i->SetRaw("output_to_operand_aliasing", text + "}");
    }
    if (const Attr* se = AnyAttr(op, {"has_side_effect"}); se && se->kind == Attr::kBool && se->i != 0)
      i->SetRaw("custom_call_has_side_effect", "true");
    *result = i;
    return Status::Ok();
  }
  if (name == "uniform_quantize" || name == "uniform_dequantize") return Unsupported("quantized op " + op.name);
  return Unsupported("op " + op.name);
}

}  // namespace hloscope::mlir
