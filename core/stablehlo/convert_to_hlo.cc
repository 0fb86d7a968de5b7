// Functions, regions, control flow, calls and check ops.
#include "core/stablehlo/convert_to_hlo.h"

#include <algorithm>
#include <cctype>

#include "core/parser/lexer.h"
#include "core/stablehlo/convert_internal.h"
#include "core/stablehlo/mlir_parser.h"

namespace hloscope::mlir {

std::string Converter::Where(const Op& op) const {
  return ast_.file + ":" + std::to_string(op.pos.line) + ":" + std::to_string(op.pos.col) + ": error: ";
}

void Converter::SetLocation(Instruction* i, const Op* src) {
  if (!src) return;
  i->set_loc(SourceLoc{src->pos.line, src->pos.col});
  std::string loc = src->loc;
  for (int depth = 0; depth < 8 && loc.starts_with("#"); ++depth) {
    auto it = ast_.loc_aliases.find(loc);
    if (it == ast_.loc_aliases.end()) break;
    loc = it->second;
  }
  // loc("name"(#child)) or loc("file":line:col)
  if (loc.starts_with("\"")) {
    size_t e = loc.find('"', 1);
    if (e == std::string::npos) return;
    std::string first = loc.substr(1, e - 1);
    std::string rest = loc.substr(e + 1);
    if (rest.starts_with(":")) {
      i->metadata().Add("source_file", "\"" + first + "\"");
      i->metadata().Add("source_line", std::to_string(std::atoi(rest.c_str() + 1)));
    } else {
      i->metadata().Add("op_name", "\"" + first + "\"");
      // follow the child alias to a file:line
      size_t h = rest.find('#');
      for (int depth = 0; h != std::string::npos && depth < 16; ++depth) {
        size_t he = rest.find_first_of(")", h);
        std::string alias = rest.substr(h, he - h);
        auto it = ast_.loc_aliases.find(alias);
        if (it == ast_.loc_aliases.end()) break;
        std::string v = it->second;
        if (v.starts_with("callsite(")) v = v.substr(9);
        if (v.starts_with("\"")) {
          size_t q = v.find('"', 1);
          if (q != std::string::npos && q + 1 < v.size() && v[q + 1] == ':') {
            i->metadata().Add("source_file", "\"" + v.substr(1, q - 1) + "\"");
            i->metadata().Add("source_line", std::to_string(std::atoi(v.c_str() + q + 2)));
            break;
          }
        }
        rest = v;
        h = rest.find('#');
      }
    }
  }
}

Instruction* Converter::Add(Scope& s, Opcode op, Shape shape, const std::vector<Instruction*>& operands,
                            const Op* src) {
  std::string prefix(OpcodeName(op));
  auto instr = std::make_unique<Instruction>(op, std::move(shape), m_->UniqueName(prefix));
  for (Instruction* o : operands) instr->AppendOperand(o);
  SetLocation(instr.get(), src);
  return s.comp->AddInstruction(std::move(instr));
}

StatusOr<Instruction*> Converter::Lookup(Scope& s, const Value& v) {
  auto it = s.vals.find(v.name);
  if (it != s.vals.end()) return it->second;
  for (Scope* p = s.parent; p; p = p->parent) {
    auto pit = p->vals.find(v.name);
    if (pit == p->vals.end()) continue;
    Instruction* src = pit->second;
    if (src->opcode() == Opcode::kConstant && src->literal()) {
      Instruction* c = Add(s, Opcode::kConstant, src->shape(), {}, nullptr);
      c->set_literal(std::make_unique<Literal>(*src->literal()));
      s.vals[v.name] = c;
      return c;
    }
    if (!s.capture_param) return Unsupported("implicit capture of %" + v.name + " in a region");
    // Read from the enclosing scope (capturing it there too when that is a
    // branch), passed in through the branch's tuple parameter.
    ASSIGN_OR_RETURN(Instruction * outer, Lookup(*s.parent, v));
    const int64_t index = s.capture_base + static_cast<int64_t>(s.captured.size());
    s.captured.push_back(outer);
    Shape& param_shape = *s.capture_param->mutable_shape();
    param_shape.mutable_tuple_shapes().push_back(outer->shape());
    Instruction* g = Add(s, Opcode::kGetTupleElement, outer->shape(), {s.capture_param}, nullptr);
    g->attrs().index = index;
    g->attrs().mark(::hloscope::Attr::kIndex);
    s.vals[v.name] = g;
    return g;
  }
  return Error(ast_.file + ":" + std::to_string(v.pos.line) + ":" + std::to_string(v.pos.col) +
               ": error: use of undefined value %" + v.name);
}

Status Converter::BindResults(const Op& op, Scope& s, Instruction* result) {
  if (op.results.empty()) return Status::Ok();
  if (op.results.size() == 1) {
    s.vals[op.results[0]] = result;
    return Status::Ok();
  }
  if (!result->shape().IsTuple() || result->shape().tuple_size() != static_cast<int>(op.results.size()))
    return Error(Where(op) + op.name + ": result count mismatch");
  for (size_t i = 0; i < op.results.size(); ++i) {
    Instruction* g = Add(s, Opcode::kGetTupleElement, result->shape().tuple_shapes()[i], {result}, &op);
    g->attrs().index = static_cast<int64_t>(i);
    g->attrs().mark(::hloscope::Attr::kIndex);
    s.vals[op.results[i]] = g;
  }
  return Status::Ok();
}

StatusOr<Computation*> Converter::ConvertRegion(const Region& r, Scope* parent, const std::string& name,
                                                bool tuple_param, const Op* src, std::vector<Instruction*>* captured) {
  if (r.blocks.size() != 1) return Unsupported("region with " + std::to_string(r.blocks.size()) + " blocks");
  const Block& b = r.blocks[0];
  auto comp = std::make_unique<Computation>(m_->UniqueComputationName(name));
  comp->set_parent(m_);
  Scope s;
  s.comp = comp.get();
  s.parent = parent;
  std::vector<Shape> arg_shapes;
  for (const auto& [n, t] : b.args) {
    ASSIGN_OR_RETURN(Shape sh, ShapeFromType(t));
    arg_shapes.push_back(sh);
  }
  if (tuple_param) {
    auto p = std::make_unique<Instruction>(Opcode::kParameter, Shape::Tuple(arg_shapes), m_->UniqueName("param"));
    p->set_parameter_number(0);
    Instruction* pi = comp->AddInstruction(std::move(p));
    if (captured) {
      s.capture_param = pi;
      s.capture_base = static_cast<int>(b.args.size());
    }
    for (size_t i = 0; i < b.args.size(); ++i) {
      Instruction* g = Add(s, Opcode::kGetTupleElement, arg_shapes[i], {pi}, src);
      g->attrs().index = static_cast<int64_t>(i);
      g->attrs().mark(::hloscope::Attr::kIndex);
      s.vals[b.args[i].first] = g;
    }
  } else {
    for (size_t i = 0; i < b.args.size(); ++i) {
      auto p = std::make_unique<Instruction>(Opcode::kParameter, arg_shapes[i], m_->UniqueName("param"));
      p->set_parameter_number(static_cast<int64_t>(i));
      s.vals[b.args[i].first] = comp->AddInstruction(std::move(p));
    }
  }
  std::vector<Instruction*> ret;
  RETURN_IF_ERROR(ConvertOps(b, s, &ret));
  if (captured) *captured = s.captured;
  if (ret.size() == 1) {
    comp->set_root(ret[0]);
  } else {
    std::vector<Shape> shapes;
    for (Instruction* i : ret) shapes.push_back(i->shape());
    comp->set_root(Add(s, Opcode::kTuple, Shape::Tuple(shapes), ret, src));
  }
  return m_->AddComputation(std::move(comp));
}

StatusOr<Computation*> Converter::ConvertFunc(const Func& f, bool is_entry) {
  if (auto it = funcs_.find(f.name); it != funcs_.end()) return it->second;
  if (std::find(converting_.begin(), converting_.end(), f.name) != converting_.end())
    return Unsupported("recursive call of @" + f.name);
  converting_.push_back(f.name);
  auto comp = std::make_unique<Computation>(m_->UniqueComputationName(f.name));
  comp->set_parent(m_);
  comp->set_loc(SourceLoc{f.pos.line, f.pos.col});
  Scope s;
  s.comp = comp.get();
  s.is_entry = is_entry;
  for (size_t i = 0; i < f.args.size(); ++i) {
    ASSIGN_OR_RETURN(Shape sh, ShapeFromType(f.args[i].second));
    auto p = std::make_unique<Instruction>(Opcode::kParameter, sh, m_->UniqueName(f.args[i].first));
    p->set_parameter_number(static_cast<int64_t>(i));
    if (i < f.arg_attrs.size()) {
      const std::string& a = f.arg_attrs[i];
      size_t sp = a.find("mhlo.sharding = \"");
      if (sp != std::string::npos) {
        size_t e = a.find('"', sp + 17);
        std::string sharding = a.substr(sp + 17, e == std::string::npos ? std::string::npos : e - sp - 17);
        // Kept as HLO text: the HLO parser must read it back as one
        // attribute value, all of it, or the printed module would not parse.
        Lexer lex(sharding);
        bool scanned = false;
        const bool readable = sharding.size() >= 2 && sharding.front() == '{' &&
                              lex.ScanRaw(0, &scanned, false).size() == sharding.size() && scanned;
        if (!readable)
          return Error(ast_.file + ":" + std::to_string(f.pos.line) + ":" + std::to_string(f.pos.col) +
                       ": error: mhlo.sharding of argument " + std::to_string(i) + " of @" + f.name +
                       " is not an HLO sharding: " + sharding);
        p->SetRaw("sharding", sharding);
      }
    }
    s.vals[f.args[i].first] = comp->AddInstruction(std::move(p));
  }
  if (f.body.blocks.size() != 1) return Unsupported("function @" + f.name + " with several blocks");
  std::vector<Instruction*> ret;
  RETURN_IF_ERROR(ConvertOps(f.body.blocks[0], s, &ret));
  if (is_entry && opts_.checks_as_outputs) {
    ret = s.check_values;
    ret.insert(ret.end(), s.parallel_operands.begin(), s.parallel_operands.end());
    for (ParallelRun& run : parallel_) run.first_operand_output += static_cast<int>(s.check_values.size());
  }
  if (ret.size() == 1 && !(is_entry && opts_.checks_as_outputs)) {
    comp->set_root(ret[0]);
  } else {
    std::vector<Shape> shapes;
    for (Instruction* i : ret) shapes.push_back(i->shape());
    comp->set_root(Add(s, Opcode::kTuple, Shape::Tuple(shapes), ret, nullptr));
  }
  converting_.pop_back();
  Computation* c = m_->AddComputation(std::move(comp));
  funcs_[f.name] = c;
  return c;
}

Status Converter::ConvertOps(const Block& b, Scope& s, std::vector<Instruction*>* returned) {
  for (const Op& op : b.ops) RETURN_IF_ERROR(ConvertOp(op, s, returned));
  return Status::Ok();
}

Status Converter::ConvertCheck(const Op& op, Scope& s, bool* handled) {
  std::string kind;
  if (op.name.starts_with("check.")) kind = op.name.substr(6);
  else if (op.name == "stablehlo.custom_call" && op.callee.starts_with("check.")) kind = op.callee.substr(6);
  if (kind.empty()) return Status::Ok();
  *handled = true;
  if (!opts_.checks_as_outputs) return Status::Ok();  // checks are dropped on import
  if (!s.is_entry) return Unsupported("check op outside the test function");
  std::vector<Instruction*> in;
  for (const Value& v : op.operands) {
    ASSIGN_OR_RETURN(Instruction* i, Lookup(s, v));
    in.push_back(i);
  }
  if (in.empty()) return Error(Where(op) + op.name + ": expected an operand");
  if (in.empty()) return Error(Where(op) + op.name + ": no operands");
  CheckOp c;
  c.kind = kind;
  c.pos = op.pos;
  if (const Attr* t = op.FindAttr("tolerance"))
    c.tolerance = t->kind == Attr::kFloat ? t->f : static_cast<double>(t->i);
  Instruction* expected = nullptr;
  if (kind.ends_with("_const")) {
    const Attr* v = op.FindAttr("value");
    if (!v) v = op.FindAttr("expected");
    if (!v || v->kind != Attr::kDense) return Error(Where(op) + op.name + ": expected a dense<> value");
    Shape sh = in[0]->shape();
    if (v->type) {
      ASSIGN_OR_RETURN(sh, ShapeFromType(*v->type));
    } else if (!op.result_types.empty()) {
      ASSIGN_OR_RETURN(sh, ShapeFromType(op.result_types.back()));
    }
    auto lit = LiteralFromDense(v->s, sh);
    if (!lit.ok()) return Error(Where(op) + lit.status().message());
    expected = Add(s, Opcode::kConstant, sh, {}, &op);
    expected->set_literal(std::make_unique<Literal>(std::move(*lit)));
  } else if (in.size() >= 2) {
    expected = in[1];
  } else {
    return Unsupported("check." + kind + " with one operand");
  }
  c.actual = static_cast<int>(s.check_values.size());
  s.check_values.push_back(in[0]);
  c.expected = static_cast<int>(s.check_values.size());
  s.check_values.push_back(expected);
  checks_.push_back(c);
  return Status::Ok();
}

Status Converter::ConvertRunParallel(const Op& op, Scope& s) {
  ParallelRun run;
  run.pos = op.pos;
  const Attr* programs = op.FindAttr("programs");
  if (!programs || programs->kind != Attr::kList || programs->items.empty())
    return Error(Where(op) + "interpreter.run_parallel: expected programs=[[@f, ...], ...]");
  for (const Attr& row : programs->items) {
    if (row.kind != Attr::kList || row.items.empty()) return Error(Where(op) + "interpreter.run_parallel: a row of programs is empty");
    auto& names = run.programs.emplace_back();
    for (const Attr& f : row.items) names.push_back(f.s);
    if (names.size() != run.programs.front().size())
      return Error(Where(op) + "interpreter.run_parallel: rows of programs differ in length");
  }
  // Among the run_parallel operands; ConvertFunc adds the checks' values
  // that precede them all in the result tuple.
  run.first_operand_output = static_cast<int>(s.parallel_operands.size());
  for (const Value& v : op.operands) {
    ASSIGN_OR_RETURN(Instruction* i, Lookup(s, v));
    s.parallel_operands.push_back(i);
  }
  run.operands = static_cast<int>(op.operands.size());
  int next = 0;
  for (const auto& i : s.comp->instructions()) next += i->opcode() == Opcode::kParameter;
  run.first_parameter = next;
  if (op.result_types.size() != op.results.size())
    return Error(Where(op) + "interpreter.run_parallel: " + std::to_string(op.results.size()) + " results, " +
                 std::to_string(op.result_types.size()) + " result types");
  for (size_t k = 0; k < op.results.size(); ++k) {
    ASSIGN_OR_RETURN(Shape sh, ShapeFromType(op.result_types[k]));
    auto p = std::make_unique<Instruction>(Opcode::kParameter, sh, m_->UniqueName("parallel_result"));
    p->set_parameter_number(next++);
    SetLocation(p.get(), &op);
    s.vals[op.results[k]] = s.comp->AddInstruction(std::move(p));
  }
  run.results = static_cast<int>(op.results.size());
  parallel_.push_back(std::move(run));
  return Status::Ok();
}

Status Converter::ConvertOp(const Op& op, Scope& s, std::vector<Instruction*>* returned) {
  if (op.name == "func.return" || op.name == "stablehlo.return" || op.name == "sdy.return") {
    for (const Value& v : op.operands) {
      ASSIGN_OR_RETURN(Instruction* i, Lookup(s, v));
      returned->push_back(i);
    }
    return Status::Ok();
  }
  if (op.name == "sdy.manual_computation") return ConvertManualComputation(op, s);
  if (op.name == "interpreter.run_parallel") {
    if (!opts_.run_parallel_as_parameters || !s.is_entry)
      return Unsupported("op interpreter.run_parallel outside a conformance test's main function");
    return ConvertRunParallel(op, s);
  }
  bool handled = false;
  RETURN_IF_ERROR(ConvertCheck(op, s, &handled));
  if (handled) return Status::Ok();
  std::vector<Instruction*> results;
  RETURN_IF_ERROR(ConvertControlFlow(op, s, &results, &handled));
  if (handled) {
    if (results.size() == 1 && op.results.size() == 1) {
      s.vals[op.results[0]] = results[0];
    } else {
      for (size_t i = 0; i < op.results.size() && i < results.size(); ++i) s.vals[op.results[i]] = results[i];
    }
    return Status::Ok();
  }
  std::vector<Instruction*> in;
  for (const Value& v : op.operands) {
    ASSIGN_OR_RETURN(Instruction* i, Lookup(s, v));
    in.push_back(i);
  }
  Instruction* result = nullptr;
  Status st = ConvertSimpleOp(*this, op, s, in, &result);
  if (!st.ok()) {
    if (st.message().starts_with("UNSUPPORTED") || st.message().find(": error: ") != std::string::npos) return st;
    return Error(Where(op) + op.name + ": " + st.message());
  }
  if (!result) return Status::Ok();
  return BindResults(op, s, result);
}

namespace {
Shape TupleOf(const std::vector<Instruction*>& v) {
  std::vector<Shape> sh;
  for (Instruction* i : v) sh.push_back(i->shape());
  return Shape::Tuple(sh);
}
}  // namespace

Status Converter::ConvertControlFlow(const Op& op, Scope& s, std::vector<Instruction*>* results, bool* handled) {
  const std::string& n = op.name;
  if (n != "func.call" && n != "stablehlo.while" && n != "stablehlo.if" && n != "stablehlo.case" &&
      n != "stablehlo.composite")
    return Status::Ok();
  *handled = true;
  std::vector<Instruction*> in;
  for (const Value& v : op.operands) {
    ASSIGN_OR_RETURN(Instruction* i, Lookup(s, v));
    in.push_back(i);
  }
  auto split = [&](Instruction* r) {
    if (op.results.size() == 1 && !(r->shape().IsTuple() && op.result_types.size() == 1 &&
                                     op.result_types[0].kind != Type::kTuple)) {
      results->push_back(r);
      return;
    }
    for (int i = 0; i < r->shape().tuple_size(); ++i) {
      Instruction* g = Add(s, Opcode::kGetTupleElement, r->shape().tuple_shapes()[i], {r}, &op);
      g->attrs().index = i;
      g->attrs().mark(::hloscope::Attr::kIndex);
      results->push_back(g);
    }
  };
  if (n == "func.call" || n == "stablehlo.composite") {
    std::string callee = op.callee;
    if (n == "stablehlo.composite") {
      const Attr* d = op.FindAttr("decomposition");
      if (!d) return Error(Where(op) + "composite without decomposition");
      callee = d->s;
    }
    const Func* f = ast_.FindFunc(callee);
    if (!f) return Error(Where(op) + "call of unknown function @" + callee);
    ASSIGN_OR_RETURN(Computation * c, ConvertFunc(*f, false));
    Instruction* call = Add(s, Opcode::kCall, c->root()->shape(), in, &op);
    call->SetCalled("to_apply", c);
    if (f->results.size() == 1) results->push_back(call);
    else split(call);
    return Status::Ok();
  }
  if (n == "stablehlo.while") {
    if (op.regions.size() != 2) return Error(Where(op) + "while needs cond and body regions");
    // Block args of the regions (generic form: ^bb0 args).
    // Values of the enclosing scopes the regions read (MLIR regions are not
    // isolated from above) join the loop state after its own elements, as
    // XLA's importer passes them: the body hands them on unchanged, and the
    // while's results are its own elements only.
    std::vector<Instruction*> cond_captured, body_captured;
    ASSIGN_OR_RETURN(Computation * cond,
                     ConvertRegion(*op.regions[0], &s, "while_cond", true, &op, &cond_captured));
    ASSIGN_OR_RETURN(Computation * body,
                     ConvertRegion(*op.regions[1], &s, "while_body", true, &op, &body_captured));
    if (!body->root()->shape().IsTuple()) {
      Scope bs;
      bs.comp = body;
      Instruction* r = body->root();
      body->set_root(Add(bs, Opcode::kTuple, Shape::Tuple({r->shape()}), {r}, &op));
    }
    const int64_t own = static_cast<int64_t>(in.size());
    std::vector<Instruction*> state = in;
    auto state_index = [&](Instruction* outer) -> int64_t {
      for (size_t k = in.size(); k < state.size(); ++k)
        if (state[k] == outer) return static_cast<int64_t>(k);
      state.push_back(outer);
      return static_cast<int64_t>(state.size() - 1);
    };
    // Each region's capture reads (index own + k of its own list) point at
    // the value's place in the joint state.
    auto renumber = [&](Computation* region, const std::vector<Instruction*>& captured) {
      std::vector<int64_t> to;
      for (Instruction* c : captured) to.push_back(state_index(c));
      Instruction* param = region->parameter(0);
      for (Instruction* u : param->users())
        if (u->opcode() == Opcode::kGetTupleElement && u->attrs().index >= own)
          u->attrs().index = to[static_cast<size_t>(u->attrs().index - own)];
    };
    renumber(cond, cond_captured);
    renumber(body, body_captured);
    Instruction* init = Add(s, Opcode::kTuple, TupleOf(state), state, &op);
    if (state.size() > in.size()) {
      for (Computation* region : {cond, body}) *region->parameter(0)->mutable_shape() = init->shape();
      Scope bs;
      bs.comp = body;
      Instruction* root = body->root();
      std::vector<Instruction*> outs;
      if (root->opcode() == Opcode::kTuple) {
        outs.assign(root->operands().begin(), root->operands().end());
      } else {
        for (int i = 0; i < root->shape().tuple_size(); ++i) {
          Instruction* g = Add(bs, Opcode::kGetTupleElement, root->shape().tuple_shapes()[i], {root}, &op);
          g->attrs().index = i;
          g->attrs().mark(::hloscope::Attr::kIndex);
          outs.push_back(g);
        }
      }
      for (size_t k = in.size(); k < state.size(); ++k) {
        Instruction* g = Add(bs, Opcode::kGetTupleElement, state[k]->shape(), {body->parameter(0)}, &op);
        g->attrs().index = static_cast<int64_t>(k);
        g->attrs().mark(::hloscope::Attr::kIndex);
        outs.push_back(g);
      }
      body->set_root(Add(bs, Opcode::kTuple, TupleOf(outs), outs, &op));
      if (root->opcode() == Opcode::kTuple && root->users().empty()) body->RemoveInstruction(root);
    }
    Instruction* w = Add(s, Opcode::kWhile, init->shape(), {init}, &op);
    w->SetCalled("condition", cond);
    w->SetCalled("body", body);
    for (int i = 0; i < own; ++i) {
      Instruction* g = Add(s, Opcode::kGetTupleElement, w->shape().tuple_shapes()[i], {w}, &op);
      g->attrs().index = i;
      g->attrs().mark(::hloscope::Attr::kIndex);
      results->push_back(g);
    }
    return Status::Ok();
  }
  // if / case: each branch takes a tuple of the enclosing values it reads (empty when none).
  if (in.size() != 1) return Error(Where(op) + n + ": expected one operand");
  // (Values of the enclosing scopes a branch reads come in through it.)
  std::vector<Computation*> branches;
  std::vector<std::vector<Instruction*>> captures;
  for (size_t i = 0; i < op.regions.size(); ++i) {
    std::vector<Instruction*> captured;
    ASSIGN_OR_RETURN(Computation * b, ConvertRegion(*op.regions[i], &s, n == "stablehlo.if" ? "if_branch" : "case_branch",
                                                    true, &op, &captured));
    branches.push_back(b);
    captures.push_back(std::move(captured));
  }
  if (branches.empty()) return Error(Where(op) + n + ": no branches");
  std::vector<Instruction*> ops{in[0]};
  for (size_t i = 0; i < branches.size(); ++i) {
    std::vector<Shape> shapes;
    for (Instruction* c : captures[i]) shapes.push_back(c->shape());
    ops.push_back(Add(s, Opcode::kTuple, Shape::Tuple(shapes), captures[i], &op));
  }
  Instruction* c = Add(s, Opcode::kConditional, branches[0]->root()->shape(), ops, &op);
  if (n == "stablehlo.if") {
    if (branches.size() != 2) return Error(Where(op) + "if needs two regions");
    c->SetCalled("true_computation", branches[0]);
    c->SetCalled("false_computation", branches[1]);
  } else {
    c->mutable_called_refs().push_back(CalledRef{"branch_computations", branches, true});
  }
  if (op.results.size() == 1 && !(branches[0]->root()->opcode() == Opcode::kTuple && op.result_types.size() == 1 &&
                                  op.result_types[0].kind != Type::kTuple && c->shape().IsTuple()))
    results->push_back(c);
  else
    split(c);
  return Status::Ok();
}

StatusOr<ConvertResult> ConvertToHlo(const ModuleAst& ast, const ConvertOptions& opts) {
  ConvertResult r;
  // The module name must lex as a name after `HloModule` (no %): it starts
  // with a letter or '_'.
  std::string module_name = ast.name.empty() ? "stablehlo_module" : HloName(ast.name);
  if (!std::isalpha(static_cast<unsigned char>(module_name[0])) && module_name[0] != '_') module_name = "m_" + module_name;
  r.module = std::make_unique<Module>(module_name);
  r.module->set_source_path(ast.file);
  if (!ast.meshes.empty()) {
    // Shardy meshes go where JAX's HLO has them, in the module header.
    std::string v = "{xla.sdy.meshes={";
    for (size_t k = 0; k < ast.meshes.size(); ++k)
      v += (k ? ", " : "") + ast.meshes[k].first + " = #sdy.mesh<" + ast.meshes[k].second + ">";
    r.module->header_attrs().push_back({"frontend_attributes", v + "}}"});
  }
  if (ast.num_replicas > 1) r.module->SetHeader("replica_count", std::to_string(ast.num_replicas));
  if (ast.num_partitions > 1) r.module->SetHeader("num_partitions", std::to_string(ast.num_partitions));
  const Func* entry = ast.FindFunc(opts.entry);
  if (!entry && opts.entry == "main" && !ast.funcs.empty()) entry = &ast.funcs[0];
  if (!entry) return Error(ast.file + ": error: no function @" + opts.entry);
  Converter c(ast, opts, r.module.get());
  ASSIGN_OR_RETURN(Computation * e, c.ConvertFunc(*entry, true));
  r.module->set_entry(e);
  e->set_is_entry(true);
  r.checks = std::move(c.checks());
  r.parallel = std::move(c.parallel());
  return r;
}

StatusOr<std::unique_ptr<Module>> ImportStablehloFile(const std::string& path) {
  ASSIGN_OR_RETURN(ModuleAst ast, ParseMlirFile(path));
  ASSIGN_OR_RETURN(ConvertResult r, ConvertToHlo(ast));
  return std::move(r.module);
}

}  // namespace hloscope::mlir
