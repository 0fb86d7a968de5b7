#include "core/printer/printer.h"

#include <cctype>

#include <thread>

#include "core/parser/lexer.h"
#include "core/support/str_util.h"

namespace hloscope {
namespace {


void AppendAttrs(std::string& out, const Instruction& instr, const PrintOptions& opts) {
  const Attrs& a = instr.attrs();
  auto kv = [&](std::string_view k, const std::string& v) {
    out += ", ";
    out += k;
    out += '=';
    out += v;
  };
  if (a.has(Attr::kDimensions)) kv("dimensions", IntListBraced(a.dimensions));
  if (a.has(Attr::kSlice)) kv("slice", SliceToString(a.slice));
  if (a.has(Attr::kDynamicSliceSizes)) kv("dynamic_slice_sizes", IntListBraced(a.dynamic_slice_sizes));
  if (a.has(Attr::kPadding)) kv("padding", PaddingToString(a.padding));
  if (a.has(Attr::kWindow) && a.window) kv("window", WindowToString(*a.window));
  if (a.has(Attr::kDimLabels) && a.conv) kv("dim_labels", ConvDnumsToString(*a.conv));
  if (a.has(Attr::kFeatureGroupCount)) kv("feature_group_count", std::to_string(a.feature_group_count));
  if (a.has(Attr::kBatchGroupCount)) kv("batch_group_count", std::to_string(a.batch_group_count));
  if (a.has(Attr::kDotDims) && a.dot) {
    if (!a.dot->lhs_batch.empty()) kv("lhs_batch_dims", IntListBraced(a.dot->lhs_batch));
    kv("lhs_contracting_dims", IntListBraced(a.dot->lhs_contracting));
    if (!a.dot->rhs_batch.empty()) kv("rhs_batch_dims", IntListBraced(a.dot->rhs_batch));
    kv("rhs_contracting_dims", IntListBraced(a.dot->rhs_contracting));
  }
  if (a.has(Attr::kGatherDims) && a.gather) {
    const GatherDnums& g = *a.gather;
    kv("offset_dims", IntListBraced(g.offset_dims));
    kv("collapsed_slice_dims", IntListBraced(g.collapsed_slice_dims));
    kv("start_index_map", IntListBraced(g.start_index_map));
    if (!g.operand_batching_dims.empty()) kv("operand_batching_dims", IntListBraced(g.operand_batching_dims));
    if (!g.start_indices_batching_dims.empty())
      kv("start_indices_batching_dims", IntListBraced(g.start_indices_batching_dims));
    kv("index_vector_dim", std::to_string(g.index_vector_dim));
  }
  if (a.has(Attr::kSliceSizes)) kv("slice_sizes", IntListBraced(a.dynamic_slice_sizes));
  if (a.has(Attr::kScatterDims) && a.scatter) {
    const ScatterDnums& s = *a.scatter;
    kv("update_window_dims", IntListBraced(s.update_window_dims));
    kv("inserted_window_dims", IntListBraced(s.inserted_window_dims));
    kv("scatter_dims_to_operand_dims", IntListBraced(s.scatter_dims_to_operand_dims));
    if (!s.input_batching_dims.empty()) kv("input_batching_dims", IntListBraced(s.input_batching_dims));
    if (!s.scatter_indices_batching_dims.empty())
      kv("scatter_indices_batching_dims", IntListBraced(s.scatter_indices_batching_dims));
    kv("index_vector_dim", std::to_string(s.index_vector_dim));
  }
  if (a.has(Attr::kIndicesAreSorted)) kv("indices_are_sorted", a.indices_are_sorted ? "true" : "false");
  if (a.has(Attr::kUniqueIndices)) kv("unique_indices", a.unique_indices ? "true" : "false");
  if (a.has(Attr::kDirection)) kv("direction", std::string(DirectionName(a.direction)));
  if (a.has(Attr::kCompareType)) kv("type", a.compare_type);
  if (a.has(Attr::kIotaDimension)) kv("iota_dimension", std::to_string(a.iota_dimension));
  if (a.has(Attr::kFusionKind)) kv("kind", std::string(FusionKindName(a.fusion_kind)));
  if (a.has(Attr::kIndex)) kv("index", std::to_string(a.index));
  if (a.has(Attr::kExponentBits)) kv("exponent_bits", std::to_string(a.exponent_bits));
  if (a.has(Attr::kMantissaBits)) kv("mantissa_bits", std::to_string(a.mantissa_bits));
  if (a.has(Attr::kIsStable)) kv("is_stable", a.is_stable ? "true" : "false");
  if (a.has(Attr::kCustomCallTarget)) kv("custom_call_target", QuoteString(a.custom_call_target));
  for (const auto& r : instr.called_refs()) {
    std::string v;
    if (r.braced || r.comps.size() != 1) {
      v = "{" + JoinMapped(r.comps, ", ", [](const Computation* c) { return "%" + c->name(); }) + "}";
    } else {
      v = "%" + r.comps[0]->name();
    }
    kv(r.attr, v);
  }
  if (!instr.control_predecessors().empty()) {
    kv("control-predecessors",
       "{" + JoinMapped(instr.control_predecessors(), ", ", [](const Instruction* p) { return "%" + p->name(); }) + "}");
  }
  const RawAttr* backend = nullptr;
  for (const auto& r : instr.raw_attrs()) {
    if (r.name == "backend_config") {
      backend = &r;
      continue;
    }
    kv(r.name, r.value);
  }
  if (opts.print_metadata && !instr.metadata().empty()) {
    std::string m = "{";
    bool first = true;
    for (const auto& e : instr.metadata()) {
      if (!first) m += ' ';
      first = false;
      m += e.name;
      m += '=';
      m += e.value;
    }
    m += "}";
    kv("metadata", m);
  }
  if (backend && opts.print_backend_config) kv("backend_config", backend->value);
}

// An implicit tuple element (`%x#N` in the text) is written where it is
// used, as XLA writes it, except as a computation's root, which needs a line.
bool PrintedAsOperand(const Instruction& i, const Computation& c) {
  return i.implicit_tuple_element() && i.operand_count() == 1 && &i != c.root();
}

// The name on an instruction's own line. Only an implicit tuple element
// (named `x#N`, which the text cannot spell) printed as a root gets one.
void AppendLineName(std::string& out, const Instruction& instr) {
  const std::string& n = instr.name();
  if (n.find('#') == std::string::npos) {
    out += n;
    return;
  }
  for (char ch : n) {
    if (ch == '#')
      out += ".element";
    else
      out += ch;
  }
}

bool WrittenAsElement(const Instruction& op) {
  return op.implicit_tuple_element() && op.operand_count() == 1 && op.parent() && &op != op.parent()->root();
}

// `%x`, or `%x#N` for an implicit tuple element (nested: `%x#1#0`).
void AppendOperandRef(std::string& out, const Instruction& op) {
  if (WrittenAsElement(op)) {
    AppendOperandRef(out, *op.operand(0));
    out += '#';
    out += std::to_string(op.tuple_index());
    return;
  }
  out += '%';
  AppendLineName(out, op);
}

void AppendInstruction(std::string& out, const Instruction& instr, const PrintOptions& opts) {
  out += '%';
  AppendLineName(out, instr);
  out += " = ";
  instr.shape().AppendTo(out);
  out += ' ';
  out += OpcodeName(instr.opcode());
  out += '(';
  if (instr.opcode() == Opcode::kParameter) {
    out += std::to_string(instr.parameter_number());
  } else if (instr.opcode() == Opcode::kConstant && instr.literal()) {
    instr.literal()->AppendTo(out);
  } else {
    for (int i = 0; i < instr.operand_count(); ++i) {
      if (i) out += ", ";
      if (opts.print_operand_shapes) {
        instr.operand(i)->shape().AppendTo(out);
        out += ' ';
      }
      AppendOperandRef(out, *instr.operand(i));
    }
  }
  out += ')';
  AppendAttrs(out, instr, opts);
}

void AppendComputationHead(std::string& out, const Computation& c) {
  if (c.is_entry()) out += "ENTRY ";
  out += '%';
  out += c.name();
  out += " (";
  bool first = true;
  for (const Instruction* p : c.parameters()) {
    if (!p) continue;
    if (!first) out += ", ";
    first = false;
    // A name that does not read as a plain identifier (`%0c` is one HLO
    // accepts) keeps its `%` so that the signature parses back.
    const std::string& n = p->name();
    const unsigned char c0 = n.empty() ? '0' : static_cast<unsigned char>(n[0]);
    if (!(std::isalpha(c0) || c0 == '_')) out += '%';
    out += n;
    out += ": ";
    p->shape().AppendTo(out);
  }
  out += ") -> ";
  if (c.root()) c.root()->shape().AppendTo(out);
  out += " {\n";
}

void AppendComputationTail(std::string& out, const Computation& c) {
  out += '}';
  out += c.trailing_attrs;
  out += '\n';
}

// "  [ROOT ]%name = ..." and a newline; `line` gets the line's span. An
// implicit tuple element has no line of its own (its uses print `%x#N`).
void AppendLine(std::string& out, const Computation& c, const Instruction& i, const PrintOptions& opts,
                InstructionLine* line) {
  size_t start = out.size();
  if (PrintedAsOperand(i, c)) {
    if (line) *line = {start, 0};
    return;
  }
  out += "  ";
  if (&i == c.root()) out += "ROOT ";
  AppendInstruction(out, i, opts);
  if (line) *line = {start, out.size() - start};
  out += '\n';
}

void AppendComputation(std::string& out, const Computation& c, const PrintOptions& opts) {
  AppendComputationHead(out, c);
  for (const auto& i : c.instructions()) AppendLine(out, c, *i, opts, nullptr);
  AppendComputationTail(out, c);
}

void AppendModuleHead(std::string& out, const Module& m) {
  out += "HloModule ";
  out += m.name();
  for (const auto& h : m.header_attrs()) {
    out += ", ";
    out += h.name;
    out += '=';
    out += h.value;
  }
  out += "\n\n";
  for (const auto& t : m.debug_tables()) {
    out += t.name;
    out += '\n';
    for (const auto& [id, v] : t.rows) {
      out += std::to_string(id);
      out += ' ';
      out += v;
      out += '\n';
    }
    out += '\n';
  }
}

}  // namespace

std::string PrintInstruction(const Instruction& i, const PrintOptions& opts) {
  std::string s;
  AppendInstruction(s, i, opts);
  return s;
}

std::string PrintAttributes(const Instruction& i, const PrintOptions& opts) {
  std::string s;
  AppendAttrs(s, i, opts);
  return s;
}

std::string PrintComputation(const Computation& c, const PrintOptions& opts) {
  std::string s;
  AppendComputation(s, c, opts);
  return s;
}

std::string PrintModule(const Module& m, const PrintOptions& opts) {
  std::string out;
  out.reserve(static_cast<size_t>(m.instruction_count()) * 96);
  AppendModuleHead(out, m);
  bool first = true;
  for (const auto& c : m.computations()) {
    if (!first) out += '\n';
    first = false;
    AppendComputation(out, *c, opts);
  }
  return out;
}

std::string PrintModuleWithLines(const Module& m, std::vector<InstructionLine>* lines, const PrintOptions& opts) {
  // The module as a flat sequence of pieces — each computation's head, its
  // instruction lines, its tail — printed in two halves of about equal
  // instruction counts (on two threads for large modules) and joined.
  struct Piece {
    enum Kind { kHead, kLine, kTail } kind;
    const Computation* c;
    const Instruction* i;
    bool separated;  // a blank line before the head
  };
  std::vector<Piece> pieces;
  pieces.reserve(static_cast<size_t>(m.instruction_count()) + 2 * m.computations().size());
  bool first = true;
  for (const auto& c : m.computations()) {
    pieces.push_back({Piece::kHead, c.get(), nullptr, !first});
    first = false;
    for (const auto& i : c->instructions()) pieces.push_back({Piece::kLine, c.get(), i.get(), false});
    pieces.push_back({Piece::kTail, c.get(), nullptr, false});
  }
  lines->assign(static_cast<size_t>(m.instruction_count()), InstructionLine{});
  std::vector<size_t> line_of(pieces.size(), 0);  // piece → index in `lines`
  size_t n = 0;
  for (size_t k = 0; k < pieces.size(); ++k)
    if (pieces[k].kind == Piece::kLine) line_of[k] = n++;
  if (n != lines->size()) lines->resize(n);
  auto print = [&](size_t from, size_t to, std::string& out) {
    for (size_t k = from; k < to; ++k) {
      const Piece& p = pieces[k];
      switch (p.kind) {
        case Piece::kHead:
          if (p.separated) out += '\n';
          AppendComputationHead(out, *p.c);
          break;
        case Piece::kLine: AppendLine(out, *p.c, *p.i, opts, &(*lines)[line_of[k]]); break;
        case Piece::kTail: AppendComputationTail(out, *p.c); break;
      }
    }
  };
  std::string out;
  AppendModuleHead(out, m);
  const size_t head = out.size();  // line offsets of the first half count it already
  constexpr size_t kParallelFrom = 20000;  // instructions; below, one thread is faster
  if (n < kParallelFrom) {
    out.reserve(head + n * 96);
    print(0, pieces.size(), out);
  } else {
    size_t split = pieces.size() / 2;
    std::string second;
    second.reserve((pieces.size() - split) * 96);
    std::thread worker([&] { print(split, pieces.size(), second); });
    out.reserve(head + n * 96);
    print(0, split, out);
    worker.join();
    const size_t base = out.size();
    for (size_t k = split; k < pieces.size(); ++k)
      if (pieces[k].kind == Piece::kLine) (*lines)[line_of[k]].offset += base;
    out += second;
  }
  return out;
}

}  // namespace hloscope
