// One paragraph per pass: what it does here (read from the pass's own
// source), why compilers do it, what to look for in the graph. The fusion
// paragraphs share one picture: HBM is the warehouse far from the cores; a
// kernel that writes its result there makes the next kernel walk back to
// fetch it, a fused kernel hands the value over in registers.
#include "core/passes/pass_explanations.h"

#include <array>

namespace hloscope {
namespace {

struct Entry {
  std::string_view pass;
  bool fusion;
  std::string_view text;
};

constexpr std::array kEntries = {
    Entry{"dce", false,
          "Deletes every instruction whose result nobody reads, unless it has a side effect (seen through the "
          "computations it calls), is a parameter or a computation's root, or orders something through a control "
          "dependency. It walks each computation from its users back to its inputs, so a whole dead chain goes in "
          "one run, and then deletes computations that nothing reachable from the entry calls. Compilers run it "
          "after almost every rewrite: algsimp, CSE, folding and fusion leave the instructions they replaced behind, "
          "and dead code that survived to code generation would cost compile time, kernels and memory. In the "
          "graph, look for nodes that disappear without a replacement (removed, not rewritten), usually right after "
          "a pass that changed something; in the fixed-point groups a dce step that changes nothing means the step "
          "before it left nothing behind."},
    Entry{"cse", false,
          "Common subexpression elimination: within one computation, an instruction that computes exactly what an "
          "earlier one computes (same opcode, shape and layout, the same operands, in either order for commutative "
          "binary ops, the same attributes and called computations; constants compared by value) is replaced by "
          "the earlier one, and its users read that instead. Parameters, instructions with side effects or control "
          "dependencies, and constants whose values are elided are never merged. Front ends and earlier rewrites "
          "build the same broadcast, reshape, slice or constant again and again; each copy is one more value to "
          "keep alive and, unfused, one more kernel. In the graph, look for two identical nodes collapsing into "
          "one whose users now fan out from a single producer; the gpu pipeline runs it again after fusion, to merge "
          "what fusion left identical."},
    Entry{"algsimp", false,
          "The algebraic simplifier visits every instruction and applies named rewrites that keep the exact result "
          "(bit for bit, NaN payloads aside): arithmetic and logic identities such as x*1 → x or select(true, a, b) "
          "→ a, shape rewrites such as reshape(reshape(x)) → reshape(x) or an identity transpose → x, slices of "
          "whole arrays or of a concatenation, pads with zero padding, concatenations of one operand, reductions "
          "over no dimensions, dots with degenerate contracting dimensions. "
          "It refuses identities that are only true for real numbers and not for floats: x*0 → 0 (NaN, inf, -0), "
          "x-x → 0, exp(log(x)) → x, x/c → x*(1/c) unless 1/c is exact. Simpler graphs give every later pass, and "
          "fusion above all, fewer and cheaper instructions to decide about. In the graph, look for chains of "
          "data movement (reshape, transpose, broadcast, convert) shortening or vanishing; each step's rewrites "
          "list names the rule and the instruction it applied at."},
    Entry{"constant_folding", false,
          "Evaluates, with the reference interpreter, an instruction whose operands are all known at compile time "
          "(at least one constant with values, the others constants, broadcasts of one or iotas) and replaces it by "
          "the resulting constant; a result whose elements are all equal is stored as a splat. Broadcasts and iotas "
          "themselves are never folded, so a broadcast of a constant is not spelled out into a large array, and "
          "results over a size cap, expensive dots and convolutions, control flow, custom calls, rng and anything "
          "with a side effect are left alone. Work that depends only on constants would otherwise run on every "
          "execution. In the graph, look for small subgraphs hanging off constants collapsing into one constant "
          "node; large constant-only computations staying put is the size cap at work."},
    Entry{"tuple_simplifier", false,
          "Removes tuples that exist only to be taken apart: get-tuple-element(tuple(a0, ..., an), i) becomes ai, "
          "and a tuple rebuilt from every element of another tuple t, in order, becomes t. Instructions with control "
          "dependencies are left alone. Tuples are bookkeeping, not work: inlining and loop rewrites leave many of "
          "them, and every tuple/get-tuple-element pair hides the real producer from later passes (a fusion pass "
          "looking for a producer sees only a get-tuple-element). In the graph, look for tuple and "
          "get-tuple-element nodes disappearing and edges now running straight from the real producer to its "
          "users."},
    Entry{"call_inliner", false,
          "Replaces every `call` by a copy of the body of the computation it calls, its parameters becoming the "
          "call's operands, innermost calls first so nested calls end up fully inlined; callees nothing calls any "
          "more are removed. Calls with control dependencies, composite calls and calls into another execution "
          "thread stay. The optimizations that follow work within one computation: an instruction inside a callee "
          "cannot be merged by CSE or fused with its real producer outside. In the graph, look for the call nodes "
          "disappearing and their bodies' instructions appearing in the caller, wired to what fed the call."},
    Entry{"zero_sized_hlo_elimination", false,
          "An array instruction with a dimension of size 0 computes nothing; it is replaced by an empty constant "
          "of the same shape. Parameters, constants and instructions with side effects or control successors stay. "
          "Zero-sized arrays come from slicing and padding arithmetic at the edges of a model; a kernel over zero "
          "elements still costs a launch, and the empty constant lets algsimp and dce remove what depended on it. "
          "In the graph, look for such instructions turning into constants; on most modules this pass changes "
          "nothing."},
    Entry{"degenerate-dimension-rewriter", false,
          "Today's XLA GPU computes an elementwise op whose shape has dimensions of size 1, and whose operands are "
          "all reshapes or broadcasts, on the shape without those dimensions, and puts one reshape after it: "
          "exp(reshape(a)) → reshape(exp(a)). Why: frameworks keep reduced dimensions (a layer norm's rsqrt of "
          "the variance is [batch, seq, 1]), and a value computed on [batch, seq] is one its readers can "
          "broadcast or recompute cheaply, where the [batch, seq, 1] copy would be a kernel of its own. It fires "
          "even when a reshape has other users (they keep it), and not when an operand is anything else (a "
          "parameter of that shape). In the graph, look for reshapes moving from the inputs of elementwise "
          "chains to their ends, where algsimp folds them into the broadcasts that read them."},
    Entry{"reshape_mover", false,
          "XLA's ReshapeMover. An elementwise op one of whose operands is a reshape (or transpose) of a computed "
          "value, whose other rearranged operands are the same reshape of equally shaped values, and whose "
          "remaining operands can take the shape before the reshape for free (constants, broadcasts of a scalar "
          "or a vector, broadcasts whose dims the reshape leaves whole), is computed before the reshape, and the "
          "single reshape moves after it: add(reshape(a), reshape(b)) → reshape(add(a, b)), and "
          "add(reshape(dot), broadcast(bias)) → reshape(add(dot, broadcast(bias))). Elementwise ops commute with "
          "data movement, so the result is exact. A reshape moves only together with all its users, and reshapes "
          "move towards the users, so the fixed point ends. Why it matters: the bias add now sits right after the "
          "dot, where the GEMM fusion takes it as an epilogue (the GEMM kernel adds the bias to its tile before "
          "storing it, instead of a second kernel reading the whole result back), and reshapes pushed together "
          "cancel in algsimp. In the graph, look for reshapes or transposes on the inputs of an op turning into "
          "one on its output, and for broadcasts changing shape with them."},
    Entry{"batched_gather_scatter_normalizer", false,
          "Rewrites a gather or scatter whose operand and indices share batch dimensions (operand_batching_dims, "
          "as JAX's take_along_axis makes: row i of the operand is read with row i of the indices) into the classic "
          "form: for each batch dimension an iota over the indices' shape is concatenated before the indices, so "
          "every index names its batch coordinates itself, and the batch dimensions join the indexed and collapsed "
          "(or inserted) dimensions. The same elements are read or written; the result is exact. XLA GPU runs it "
          "(BatchedGatherScatterNormalizer) early, so its emitters and fusion rules only meet classic gathers and "
          "scatters. In the graph, look for two iotas and a concatenate appearing before the gather's or "
          "scatter's indices."},
    Entry{"ragged_dot_rewriter", false,
          "A ragged dot is the grouped GEMM of mixture-of-experts layers: the lhs rows come in consecutive groups "
          "(group_sizes says how many each), and each group is multiplied by its own matrix. XLA GPU has no kernel "
          "for it on Hopper and rewrites it first of all (RaggedDotRewriter): the cumulative sums of the group sizes "
          "give each group's first and last row; a mask compares them with an iota, and a select builds a dense "
          "copy of the lhs with one slice per group, zero outside the group's rows. One ordinary dot then contracts "
          "over the groups as well, so each row meets only its group's matrix. When the ragged dimension is "
          "contracted (the weight gradient of the same layer), both operands are masked and the groups become a "
          "batch dimension. The result is exact (the extra terms are zeros) but the dense dot does g times the "
          "work: the price of having no grouped-GEMM kernel. In the graph, look for the ragged-dot turning into a "
          "reduce-window (the cumulative sum), compares, an and, a select and a dot."},
    Entry{"scaled-dot-rewriter", false,
          "A scaled dot multiplies block-scaled low-precision operands (f8 or f4 values, each block of, say, 32 "
          "consecutive elements sharing one f8e8m0 scale: the MX formats). Where the hardware has no block-scaled "
          "tensor-core instruction (before Blackwell), XLA GPU dequantizes first (ScaledDotRewriter): each operand "
          "is converted to bf16 (or a wider type), each scale broadcast over its block and reshaped to the "
          "operand's shape, the two multiplied, and an ordinary dot takes the products. Fusion then pulls the "
          "converts and multiplies into the GEMM's prologue, so the dequantized operands never reach HBM. In the "
          "graph, look for the scaled-dot turning into converts, a broadcast and reshape of each scale, two "
          "multiplies and a dot."},
    Entry{"batchnorm_expander", false,
          "Batch normalization normalizes each feature (a channel of a convolution's output) with the mean and "
          "variance of that feature over the batch and the spatial positions, then scales and shifts it by "
          "learned values. TensorFlow and Keras keep it as three ops (batch-norm-training, -inference, -grad); no "
          "GPU kernel computes them whole, so XLA expands each into its arithmetic first (BatchNormExpander): two "
          "reductions per feature (the sum of x and of x², giving the mean and the variance as E[x²] − E[x]²), "
          "broadcasts of the per-feature values back to the operand's shape, and the elementwise normalize, scale "
          "and shift; the gradient needs the sums of dy and of dy·(x − mean). Fusion then puts the reductions into "
          "reduction kernels and the elementwise ops after them. In the graph, look for each batch-norm op turning "
          "into reduces, broadcasts along the feature dimension and a chain of elementwise ops ending in a tuple."},
    Entry{"dot_decomposer", false,
          "Puts every dot into the one form the GEMM emitters take: [batch, M, K]·[batch, K, N] → [batch, M, N], the "
          "batch dimensions first and the contracting and free dimensions of each operand each merged into one. An "
          "operand in another order is transposed, one with several free or contracting dimensions reshaped, and "
          "the new dot's result is reshaped back to the original shape; a dot already in that form is left alone. "
          "XLA GPU runs it (DotDecomposer) before simplification, so every later pass sees matrix products: a "
          "[2,8,8]·[8,32] projection becomes [16,8]·[8,32]. With row-major layouts the reshapes move no data (XLA "
          "makes them bitcasts), but they matter to fusion: XLA computes a GEMM fusion's prologue and epilogue in "
          "the dot's shape and reads a tensor of the old shape through a bitcast, so the tensor's producer can "
          "still be fused into its other consumers. In the graph, look for each dot gaining reshapes (and "
          "sometimes a transpose) on its operands and after its result, the dot keeping its name."},
    Entry{"while_loop_simplifier", false,
          "Does the parts of XLA's while-loop simplification that are exact without knowing the trip count: a loop "
          "whose condition is the constant false never runs its body and becomes its initial value; loop-carried "
          "tuple elements that nothing observes (not used after the loop, not read by the condition, not needed for "
          "any live element or side effect in the body) are removed from the loop state, the body, the condition "
          "and the initial value. Loops whose body or condition is shared with another call site are left alone. "
          "Every element of loop state is a buffer copied and kept alive on every iteration; dead state costs "
          "memory and traffic for the whole loop. In the graph, look for the while node's tuple shrinking, its "
          "tuple and get-tuple-element neighbours losing elements, or the loop disappearing."},
    Entry{"flatten_call_graph", false,
          "After it, every computation called from a sequential call site (a while loop's condition or body, a "
          "call, a conditional branch) has exactly one caller: a computation used from several places is cloned "
          "once per extra call site. It changes no value; it makes each loop body its own, so that passes which "
          "rewrite a body for the sake of one loop (while_loop_simplifier removing dead state) cannot change "
          "another loop that shared it. In the graph, look for new computations with a numbered copy of an existing "
          "name; the entry's nodes do not change."},
    Entry{"copy_insertion", false,
          "An input_output_alias lets an output live in a donated parameter's bytes: it is written there directly, "
          "and no output buffer is allocated. That is only safe when nothing reads the parameter after the write. "
          "Where some schedule the dependencies allow could still read it later, this pass computes the output "
          "elsewhere and adds a copy, ordered after every such read by control edges, that writes it into the "
          "parameter's bytes at the end; outputs that are parameters or constants get a copy too, since their "
          "bytes are not the output's to hand over. Each copy is logged with its reason. Donation is how training "
          "steps update weights in place without holding two copies; correctness comes first, a copy costs one "
          "read and one write of the buffer. In the graph, look for new copy nodes next to the root, with control "
          "edges from the last readers of the aliased parameter."},
    Entry{"fusion", true,
          "Instruction fusion (XLA's older GPU fusion) visits consumers from the root backwards and pulls each "
          "operand that may fuse, elementwise and data-movement producers above all, into the consumer's kernel: "
          "a loop fusion, or an input fusion when the consumer is a reduction or a scatter. This round never "
          "duplicates: a producer with other users stays, and a constant joins only a consumer that is already a "
          "fusion. Why: HBM is the warehouse, far from the cores. Unfused, the producer's kernel writes "
          "its whole result to HBM and the consumer's kernel walks back to fetch it; fused, the value is handed "
          "over in registers, the write and the read disappear, and so does one kernel launch. In the graph, look "
          "for fusion clusters forming around reductions and at the ends of elementwise chains; every refusal in "
          "the decisions panel names the rule that kept a pair apart."},
    Entry{"fusion_dup", true,
          "The second round of instruction fusion: a cheap producer that several consumers read (a broadcast, a "
          "convert, a small elementwise op) is copied into each consumer's kernel, and the original stays while "
          "other users need it. Expensive producers are never copied, and a copy that would move more bytes than "
          "keeping the producer separate is refused. Why: HBM is the warehouse. Kept separate, the producer writes "
          "its result to HBM once and every consumer walks back to fetch it; recomputed inside each consumer, it "
          "is computed from its own inputs and handed over in registers, so the write and all those reads "
          "disappear, paid for with a little repeated arithmetic. In the graph, look for the same producer name "
          "appearing inside several fusions (verdict \"fused with duplication\")."},
    Entry{"fusion_merger", true,
          "Folds a loop fusion into every fusion that consumes it, when all of them can take it, when merging moves "
          "no more bytes, when it does not slow the consumers down by the cost model's estimate, and when no "
          "instruction would be computed more than 15 times per output element (XLA's limit on code duplication). "
          "Why: HBM is the warehouse. Between two fusions the producer writes its result to HBM and each consumer "
          "fusion walks back to fetch it; merged, each consumer computes the values itself and hands them over in "
          "registers, so the intermediate buffer and one launch disappear. In the graph, look for a fusion node "
          "vanishing into its consumers (verdict \"merged\"); refusals say whether bytes, time or duplication "
          "stopped it."},
    Entry{"multi_output_fusion", true,
          "Lets one kernel write several results. It walks the program once, from the last instruction back to "
          "the first, as XLA does. At each instruction, first its readers: fusions that read it and iterate over "
          "the same shape become one kernel with several outputs (siblings). Then the instruction itself: if its "
          "result is also needed elsewhere, it is fused into a consumer and becomes an extra output of it, so it is "
          "computed once and its inputs are read once (producer-consumer), unless the cost model says the merged "
          "kernel would run slower than the launch it saves (a large update squeezed into a reduction's single "
          "thread block). Merges that would form a cycle, iterate over different shapes or exceed the operand "
          "limit are refused with the reason. Why: HBM is the warehouse. Two kernels "
          "reading the same input each walk to the warehouse for it; one kernel fetches it once and hands it to "
          "both computations in registers, and a producer kept for another user no longer has its inputs fetched "
          "twice. In the graph, look for fusions with tuple results and get-tuple-element users, and for sibling "
          "fusions of one input collapsing into one node."},
    Entry{"priority_fusion", true,
          "XLA's current GPU fusion. Every producer gets a priority: the time the cost model says fusing it into "
          "all its consumers at once would save (unfused kernels against fused ones, on the chosen device). The "
          "best producer is fused into every consumer, copied when there are several, and its neighbours' "
          "priorities are recomputed; producers whose fusion would not save time, or that a rule forbids, stay "
          "with the reason. Bitcasts go first (they are free), and at the end one-element constants are fused into "
          "every fusion that reads them. Why: HBM is the warehouse. An unfused kernel writes its result to HBM and "
          "the next kernel walks back to fetch it; a fused kernel hands the value over in registers and saves a "
          "launch. The priority weighs exactly those trips against the arithmetic a duplicated producer repeats. In "
          "the graph, look for large fusion clusters growing step by step; the decisions panel shows, for each "
          "producer, the estimated µs unfused and fused and the arithmetic behind them."},
    Entry{"horizontal_loop_fusion", true,
          "Joins independent small loop kernels (loop fusions and unfused elementwise ops with at most 32K output "
          "elements each) into one kernel, up to 16 at a time, as long as no path connects them and the operand "
          "limit holds. It is not in the gpu pipeline (XLA GPU 0.12 changed nothing with it on our samples); run it "
          "by name to see what it would merge. Why: for kernels this small the launch costs more than the work. "
          "Each one still fetches its inputs from HBM, the warehouse, and writes its result back, since they share "
          "no values, but one launch replaces many. In the graph, look for unrelated small fusions side by side "
          "becoming one node with several outputs (verdict \"merged\"), and the kernel count dropping with the "
          "bytes unchanged."},
    Entry{"associative-scan-rewriter", false,
          "Today's JAX lowers cumsum, cumprod, cummax and cummin for GPUs to one scan op: a combiner applied along "
          "one dimension, each step's combined value both the output at that position and the carry into the "
          "next. No kernel runs a scan; this pass rewrites the ones that are a running sum, product, maximum or "
          "minimum (one input, one carry started at the combiner's identity, marked associative) into the "
          "reduce-window that XLA's CPU lowering writes for the same ops: a window as long as the dimension, "
          "padded so that output i reduces elements 0 … i (i … n-1 for a reverse scan). XLA GPU's own rewriter "
          "then splits that window into a tree of 16-element blocks; ours keeps the one window. In the graph, "
          "look for the scan node becoming a reduce-window, a slice of its last element (the final carry) and a "
          "tuple."},
    Entry{"rng_expander", false,
          "Rewrites each stateful rng(a, b) into explicit HLO: the module's random state "
          "(rng-get-and-update-state), Philox bits from rng-bit-generator on that state, and elementwise ops that "
          "turn the bits into values: uniform floats from the top mantissa bits scaled into [a, b), uniform "
          "integers by a remainder that cannot overflow, normal floats through the Box–Muller transform. f16 and "
          "bf16 are computed in f32 and converted back; other element types stay unexpanded. An opaque rng cannot "
          "be fused or simplified; spelled out, its arithmetic joins the elementwise kernels around it like any "
          "other. In the graph, look for each rng node becoming a small subgraph of state, bit generator, shifts, "
          "converts and multiplies."},
    Entry{"triton-gemm-rewriter", true,
          "XLA's GemmFusion: each dot that Triton's GEMM emitter can take becomes one custom fusion "
          "(__triton_gemm) holding the dot with its prologue, the cheap elementwise work on each operand (converts, "
          "broadcasts, a normalized input's scale and bias, at most 8 inputs for the whole fusion), and its epilogue, "
          "the single-user elementwise ops after it whose other operands are inputs (a bias, a scale; a residual "
          "add of a computed tensor ends it). Dots too small for a GEMM kernel and "
          "dots Triton does not take stay, with the reason. Why: HBM is the warehouse. Without the epilogue the "
          "matrix product is written to HBM and the bias-add kernel walks back to fetch it; fused, the bias is "
          "added to each tile while it is still in registers. The prologue likewise converts and scales operand "
          "tiles as they are loaded instead of writing a converted copy first. In the graph, look for every dot "
          "ending inside a gemm fusion together with its converts and its bias add."},
    Entry{"triton-softmax-rewriter", true,
          "XLA's SoftmaxRewriterTriton: it finds normalization diamonds, a value read twice, once through a row "
          "reduction (over the last dimension) whose result is broadcast back along the row and once directly, "
          "the two meeting in one elementwise op (x − max, exp / sum, x − mean, d × rsqrt(var)), and makes each "
          "one a custom Triton fusion (triton_softmax) that computes one row per tile. A softmax is two diamonds, "
          "a layer norm two; priority fusion later joins neighbouring diamonds and their elementwise neighbours "
          "into one Triton kernel. Why: HBM is the warehouse. Unfused, the row's maximum and sum are written to "
          "HBM and the next kernels walk back for them and for the row itself; a row-per-tile kernel keeps the "
          "row and its statistics in registers from the first read to the last write. In the graph, look for "
          "triton_softmax fusions replacing reduce → broadcast → elementwise diamonds."},
    Entry{"tree-reduction-rewriter", true,
          "A reduction too long to run without atomics (rows longer than 1024 × 16 elements, columns longer "
          "than 32 × 128) becomes two: the reduced extent n is split into blocks of about √n elements (padded with "
          "the initial value when n has no divisor near √n), the first reduce combines each block, the second "
          "the partial results. Only single-input reductions over contiguous dimensions in the default layout are "
          "split. Why: one kernel over such a reduction would need atomic updates, whose result order, and so "
          "rounding, varies from run to run. Two race-free kernels give the same answer every time, at the price of "
          "one more launch and a small round trip of the partial results through HBM, the warehouse. In the "
          "graph, look for a reduce becoming reduce → reduce (sometimes with a pad and a reshape before), one more "
          "kernel in the step's Δkernels."},
    Entry{"conv-rewriter", true,
          "Every forward convolution that cuDNN can take becomes a library call, a custom-call to "
          "__cudnn$convForward returning the result and a scratch buffer, as XLA GPU's ConvRewriter makes it. cuDNN "
          "is given its operands in one layout: on Hopper NHWC (batch, spatial, feature) with the filter as output "
          "feature, spatial, input feature; NCHW where XLA picks it (f64, 3-D). An operand in another order gets a "
          "transpose, usually the filter, which JAX writes as HWIO. Why: vendors' convolution libraries choose among "
          "many algorithms (implicit GEMM, Winograd, FFT) per shape, and a compiler's own generated convolution "
          "rarely beats them; the price is that a library call is a wall for fusion: nothing fuses into it or out of "
          "it, so the batch-norm and ReLU around it read its result from HBM, the warehouse. (This tool calls no "
          "cuDNN: our convolution kernel stands in for it, and the interpreter computes it as the convolution.) In "
          "the graph, look for each convolution turning into a custom-call with a get-tuple-element after it and a "
          "transpose of its filter before it; the transposes are kernels of their own, one more launch each."},
    Entry{"reduce-scatter-creator", false,
          "Finds an all-reduce whose only use (perhaps through a reshape) is a dynamic-slice in which each device "
          "takes its own shard: the offset, evaluated for every device of every replica group through constants, "
          "partition-id or replica-id, table lookups and integer arithmetic, is the device's position in its group "
          "times the shard size. That pair becomes one reduce-scatter on the split dimension, with a fresh channel "
          "id, as XLA GPU's ReduceScatterCreator writes it. Why: SPMD partitioning writes gradients this way, and an "
          "all-reduce sends every device the whole sum only for it to keep an eighth; a reduce-scatter sends each "
          "device its eighth, about half the traffic over the links, and the slice kernel disappears. In the graph, "
          "look for an all-reduce and a dynamic-slice fed by partition-id collapsing into one reduce-scatter node."},
    Entry{"gpu-all-gather-combiner", false,
          "Combines independent all-gathers with the same devices (and channel and id mode) into one all-gather over "
          "a tuple, whatever their element types: XLA's post order is walked, the first candidate opens a group, "
          "later ones join until their results would pass 30 MiB + 7 bytes or 2,048 members, or one depends on a "
          "member. A member gathering on another dimension is bitcast so that its dimension lines up with the "
          "group's. Why: every collective pays a fixed latency to start (a handshake between the devices), so one "
          "gather of many small parameters costs about what one small gather does. In the graph, look for a "
          "combined all-gather with many operands and a get-tuple-element per original, its op_name listing them."},
    Entry{"gpu-all-reduce-combiner", false,
          "Combines independent all-reduces with the same reduction (the root op and type of their to_apply), "
          "devices, channel and id mode into one all-reduce over a tuple, by XLA's rule: walk the computation in "
          "post order, let the first candidate open a group, add later ones of its key until the results would pass "
          "30 MiB + 7 bytes or 2,048 members or one of them depends on a member, then start over. Why: a training "
          "step reduces hundreds of small values (norms, scalars, small gradients), and each all-reduce pays the "
          "links' start-up latency; combined, they pay it once. In the graph, look for many all-reduce nodes turning "
          "into one, its op_name \"(all-reduce.517:all-reduce.515:...)\" naming the originals."},
    Entry{"gpu-reduce-scatter-combiner", false,
          "Combines independent reduce-scatters with the same reduction, devices, channel and id mode into one over "
          "a tuple, up to 30 MiB + 7 bytes of results and 2,048 members, stopping at the first candidate that "
          "depends on a member (XLA GPU's GpuReduceScatterCombiner). Members scattering on another dimension are "
          "bitcast to the group's. Why: as for all-reduces, each collective pays a fixed start-up latency, so "
          "gradients scattered one by one waste it; large ones (a 4096 x 14336 weight) fill a group by themselves. "
          "In the graph, look for reduce-scatter nodes merging in groups of a few, their sizes summing under 30 MiB."},
    Entry{"all-reduce-contiguous", false,
          "Rewrites every all-reduce over a tuple, which the combiner leaves, as an all-reduce of one flat buffer: "
          "each operand is bitcast to one dimension, the pieces are concatenated, reduced together, then sliced "
          "back apart and bitcast to their shapes (XLA GPU's AllReduceContiguous). Why: the collective library "
          "reduces one contiguous buffer in one call, at full link speed, where many small buffers would each be a "
          "call. The price is a concatenate kernel before and one slice kernel per operand after (XLA wraps each in "
          "a fusion of its own, wrapped_slice). In the graph, look for a concatenate feeding one all-reduce that fans "
          "out into many slices."},
};

}  // namespace

std::string_view PassExplanation(std::string_view pass) {
  for (const Entry& e : kEntries)
    if (e.pass == pass) return e.text;
  return {};
}

std::vector<std::string_view> ExplainedPasses() {
  std::vector<std::string_view> out;
  for (const Entry& e : kEntries) out.push_back(e.pass);
  return out;
}

bool IsFusionPass(std::string_view pass) {
  for (const Entry& e : kEntries)
    if (e.pass == pass) return e.fusion;
  return false;
}

}  // namespace hloscope
