// Custom-call targets with a meaning independent of any backend.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/ir/instruction.h"

namespace hloscope {

// A custom-call that passes its one operand through unchanged on one device:
// JAX's `Sharding` annotation, `SPMDFullToShardShape`/`SPMDShardToFullShape`
// when the shapes agree (one partition), and the buffer transitions `Pin`
// (array → b(array)) and `Unpin` (b(array) → array), and XLA's host
// offloading annotations `MoveToHost`/`MoveToDevice` and JAX's
// `annotate_device_placement` (`device_put` to a memory kind: where the value
// lives, not what it is), and Shardy's `xla.sdy.FuncResultSharding` (a
// result's sharding). The interpreter copies
// the operand; codegen and buffer assignment treat it as a view of it (no
// kernel), like a bitcast.
bool IsIdentityCustomCall(const Instruction& i);

// XLA's client-library math functions written as custom-calls
// (`xla_builder.math.Asinh`, …: one operand, elementwise): the HLO opcode
// with the same meaning (kAsinh, …), or kParameter where there is none. The
// interpreter and the kernels compute them as that opcode, except
// `xla_builder.math.Atan` (atan(x), which has no opcode): it is kAtan2, as in
// atan(x) = atan2(x, 1) for real x, and the one-operand kAtan2 is computed as
// atan of real and complex x (eval::EvalAtan, codegen::EmitAtan).
Opcode MathCustomCallOpcode(const Instruction& i);

// `CreateBuffer`: a fresh, uninitialized buffer b(array) with no operand.
bool IsCreateBufferCustomCall(const Instruction& i);

// XLA's `TopK` custom-call (what its TopkRewriter makes of a sort whose
// comparator is greater-than followed by a slice of the first k): the k
// largest elements of every row of the last dimension, sorted, ties in index
// order, and their s32 indices — topk(x), k, largest=true. The called
// comparator is kept for reference; the interpreter and the kernels compute
// it as that topk.
bool IsTopKCustomCall(const Instruction& i);

// XLA GPU's cuDNN convolution, `__cudnn$convForward` (what its conv rewriter
// makes of a forward convolution): operands input and filter, result
// (convolution result, u8[scratch]), with the window, dim_labels and group
// counts of a convolution. Recognized only when its backend_config asks for
// the plain convolution: conv_result_scale 1, side_input_scale 0, activation
// kNone (or no backend_config). The interpreter computes it and our kernels
// implement it as that convolution (we call no cuDNN); the scratch buffer is
// left alone.
bool IsCudnnConvCustomCall(const Instruction& i);
inline constexpr std::string_view kCudnnConvForwardTarget = "__cudnn$convForward";

// The shape a convolution-like op computes: the first element of a cuDNN
// convolution's (result, scratch) tuple, else the op's own shape.
const Shape& ConvolutionResultShape(const Instruction& i);

// JAX's calls into LAPACK (CPU) and cuSOLVER (GPU) for a Cholesky factor and
// a triangular solve: `lapack_{s,d,c,z}potrf_ffi`, `cusolver_potrf_ffi`,
// `hipsolver_potrf_ffi` (a → (factor, info): the `lower` (or upper) triangle
// of the factor over the input's other triangle, info 0 or the order of the
// first leading minor that is not positive definite, per matrix) and
// `lapack_{s,d,c,z}trsm_ffi` (a, b → x, as triangular-solve), with their
// options read from the backend_config dictionary JAX writes (`{uplo = 76
// : ui8}`, `{lower = true}`, `{diag = 78 : ui8, side = 76 : ui8, trans_x = 78
// : ui8, uplo = 85 : ui8}`: LAPACK's character codes). Batch dimensions lead.
// And LU with partial pivoting, `lapack_{s,d,c,z}getrf_ffi`,
// `cusolver_getrf_ffi`, `hipsolver_getrf_ffi` (a → (lu, pivots, info): L's
// multipliers below the diagonal and U on and above it, pivots the 1-based
// row swapped with row i at step i, info 0 or the 1-based step of the first
// zero pivot), what jnp.linalg.solve, inv and det call; its values rounded
// to the element type after every step, as LAPACK keeps them.
// Householder QR (`lapack_{s,d,c,z}geqrf_ffi`, `cusolver_geqrf_ffi`,
// `cublas_geqrf_batched_ffi`; Q by `lapack_{s,d}orgqr_ffi`,
// `lapack_{c,z}ungqr_ffi`, `cusolver_orgqr_ffi`), real and complex; and the
// symmetric eigendecomposition
// `lapack_{s,d}syevd_ffi`, `cusolver_syevd_ffi`, `hipsolver_syevd_ffi`
// (jnp.linalg.eigh: a → (eigenvectors as columns, eigenvalues ascending,
// info 0), read from the `lower` (uplo 'L', the default) or upper triangle),
// and `lapack_{c,z}heevd_ffi` (complex Hermitian; cuSOLVER's syevd on complex
// types), real eigenvalues; and the singular value decomposition
// `lapack_{s,d,c,z}gesdd_ffi`, `cusolver_gesvdj_ffi`, `hipsolver_gesvdj_ffi`
// (jnp.linalg.svd: a → (a's copy, singular values descending (real), U, Vᵀ
// (Vᴴ for complex; gesvdj: V), info 0); U and V are full or reduced as their
// shapes say, whatever the mode asks).
// And the condensed forms and the tridiagonal solve (core/eval/
// eval_condensed_forms.cc, core/codegen/condensed_forms_emitter.cc):
// `lapack_{s,d}sytrd_ffi`, `lapack_{c,z}hetrd_ffi`, `cusolver_sytrd_ffi`,
// `hipsolver_sytrd_ffi` (lax.linalg.tridiagonal: a → (reflectors and the
// untouched triangle, d, e (real), tau, info)); `lapack_{s,d,c,z}gehrd_ffi`
// (jax.scipy.linalg.hessenberg: a → (H with the reflectors below its
// subdiagonal, tau, info), rows and columns `low`..`high` (1-based) reduced);
// `lapack_{s,d,c,z}gtsv_ffi` (lax.linalg.tridiagonal_solve: (dl, d, du, b) →
// (dl, d, du, b, info), dl's first and du's last element unused, the
// diagonals overwritten as LAPACK's gtsv leaves them) and
// `cusparse_gtsv2_ffi`, `hipsparse_gtsv2_ffi` ((dl, d, du, b) → x).
// The interpreter computes them as the cholesky and triangular-solve ops,
// and codegen as kernels of the cholesky, triangular-solve and LU emitters
// with these conventions (not custom-call thunks).
struct LinalgCall {
  enum class Kind { kPotrf, kTrsm, kGetrf, kGeqrf, kOrgqr, kSyevd, kGesvd, kSytrd, kGehrd, kGtsv, kGeev, kGees } kind = Kind::kPotrf;
  bool lower = true;
  bool left_side = true;
  bool unit_diagonal = false;
  std::string transpose_a = "NO_TRANSPOSE";  // TRANSPOSE, ADJOINT
  int64_t low = 1, high = -1;  // gehrd's rows and columns low..high (1-based); high -1: the last
  bool left = false, right = true;  // geev: the eigenvectors asked for; gees: right = the Schur vectors
};
std::optional<LinalgCall> LinalgCustomCall(const Instruction& i);

// How the interpreter (eval_linalg.cc) and the kernel (eigh_emitter.cc)
// compute syevd, the same way step by step: the symmetric matrix A shifted by
// s = 2·‖A‖∞ (1 for a zero matrix), so that B = A + s·I is positive definite
// with its eigenvalues in [‖A‖∞, 3‖A‖∞]; one-sided (Hestenes) Jacobi
// rotations of B's columns, kept in the first result, until in a whole sweep
// no pair p < q has |g_p·g_q| > tol·‖g_p‖·‖g_q‖ (at most kEighSweeps sweeps);
// then column i is λ_i + s times the unit eigenvector v_i (B's eigenvectors
// are its singular vectors), so λ_i = ‖g_i‖ - s and v_i = g_i / ‖g_i‖; last,
// a selection sort puts the eigenvalues in ascending order (the first
// smallest of those left), their columns with them. Every value is computed
// in f64 from the stored ones and stored in the element type. Eigenvectors
// are unique up to sign (and to a basis of each repeated eigenvalue's
// space): LAPACK's signs may differ.
// Complex Hermitian matrices (heevd) the same way, A(i, j) of the triangle
// not read being conj(A(j, i)) and the diagonal's imaginary part ignored, as
// LAPACK does; a pair's rotation first turns column q by the phase of
// γ = g_pᴴ·g_q (e = γ/|γ|, h = conj(e)·g_q), then rotates (g_p, h) as the
// real case with |γ|: g_p ← c·g_p − s·h, g_q ← s·g_p + c·h. The eigenvalues
// are real (the component type); the eigenvectors are unique up to a phase,
// and LAPACK's phases are not ours.
inline constexpr int kEighSweeps = 30;
double EighTolerance(PrimitiveType t, int64_t n);

// gesvd (the SVD calls above), the same way in the interpreter and the kernel
// (svd_emitter.cc): with k = min(m, n), the p×q matrix L = A (tall, m ≥ n) or
// Aᵀ (wide) kept in U's first n columns (tall) or Vᵀ's first m rows (wide),
// and R = I (q×q) in the other; the one-sided Jacobi sweeps of syevd on L's
// columns (tolerance EighTolerance(t, p)), each rotation applied to R's
// columns too; σ_j = ‖L(:, j)‖ and L(:, j) / σ_j where σ_j > 0; a selection
// sort into descending order (the first largest), L's and R's columns with
// the values. Then every column of L's full extent (U's or Vᵀ's shape) that
// is not a unit vector yet — those of σ = 0 and those past q — is completed
// in order: the next unit vector e_c (c counting up, never reused)
// orthogonalized twice against the columns before it, kept once its squared
// length is at least 1/(2p), and normalized. The first result is a copy of a.
// Complex matrices the same way with complex columns (the rotations of
// heevd), L = Aᴴ for wide ones, and the right singular vectors kept as
// LAPACK's Vᴴ (conjugated rows) or cuSOLVER's V; the singular values real.
struct SvdShapes {
  int64_t m = 0, n = 0, k = 0;  // a is m×n, k = min(m, n)
  int64_t u_cols = 0, vt_rows = 0;  // m or k; n or k (the right singular vectors kept)
  // LAPACK's gesdd returns Vᵀ (Vᴴ for complex; vt_rows×n), cuSOLVER's gesvdj V (n×vt_rows),
  // which JAX transposes after the call.
  bool v_transposed = true;
  int64_t batches = 1;
};
// The shapes of a gesvd call, checked (an error names what is wrong).
std::optional<SvdShapes> GesvdShapes(const Instruction& i, std::string* why);

// The condensed forms, the same way in the interpreter and the kernel, each
// value computed in f64 from the stored ones and stored in the element type:
// - sytrd / hetrd as LAPACK's unblocked sytd2 / hetd2. Lower: for column
//   i = 0 … n-2 the reflector of a(i+1:, i) by larfg (geqrf's, with clarfg's
//   real beta for complex types), e(i) = beta, v = (1, a(i+2:, i)); where
//   tau ≠ 0, w = tau·A₂₂·v (A₂₂ = a(i+1:, i+1:) read from the lower triangle,
//   Hermitian, real diagonal; row by row in column order), kept in tau(i:)
//   (rounded, as LAPACK keeps it there), w += (-tau/2·(wᴴv))·v, and
//   A₂₂ -= v·wᴴ + w·vᴴ on the lower triangle (the diagonal's imaginary part
//   dropped); d(i) = re a(i, i). Upper: the mirror image, columns n-1 … 1,
//   the reflector of a(:i-1, i) with alpha = a(i-1, i) last, w kept in tau(:i).
//   The other triangle is never written.
// - gehrd as gehd2: for i = low-1 … high-2 the reflector of a(i+1:high, i),
//   then H applied from the right to rows 0..high-1, columns i+1..high-1
//   (each row: s = Σ a(r, c)·v(c), a(r, c) -= tau·s·conj(v(c))) and Hᴴ from
//   the left to rows i+1..high-1, columns i+1.. (each column: s = Σ conj(a(r,
//   c))·v(r), a(r, c) -= conj(tau)·v(r)·conj(s)); tau 0 outside low..high-1.
// - gtsv as LAPACK's (c)gtsv: Gaussian elimination with partial pivoting by
//   |x| (|re| + |im| for complex), rows k and k+1 swapped where the
//   subdiagonal's is larger, the second superdiagonal of U kept in dl(k+1);
//   then back substitution. info is the 1-based position of the first zero
//   pivot (the solution is left as it is then). cuSPARSE's call computes the
//   same into its one result, with dl, d and du kept in the kernel's own
//   memory (at most kGtsvScratchBytes a system).
inline constexpr int64_t kGtsvScratchBytes = 48 * 1024;
struct CondensedShapes {
  int64_t n = 0;        // the matrices' order (gtsv: the systems')
  int64_t nrhs = 0;     // gtsv: right-hand sides
  int64_t batches = 1;
  bool lapack = true;   // gtsv: LAPACK's tuple of results (else cuSPARSE's x)
};
// The shapes of a sytrd / gehrd / gtsv call, checked (an error names what is wrong).
std::optional<CondensedShapes> CondensedFormShapes(const Instruction& i, const LinalgCall& call, std::string* why);

// The nonsymmetric eigendecomposition of real matrices (jnp.linalg.eig,
// eigvals): `lapack_{s,d}geev_ffi` and `cuhybrid_eig_real` (a → (wr, wi,
// vl, vr, info), the eigenvectors complex, as JAX's FFI unpacks LAPACK's) and
// `cusolver_geev_ffi` (a → (the Schur form T, w complex, vl, vr real in
// LAPACK's packed form: a pair's real part, then its imaginary part, info);
// no left eigenvectors). The interpreter and the kernel compute LAPACK's
// dgeev the same way, step by step, storing every matrix value in the
// element type: gebal (permutations isolating eigenvalues, then scaling by
// powers of 2, at most kGeevBalanceSweeps sweeps), gehd2 over ilo..ihi,
// orghr (org2r), the Schur form by lahqr (the double-shift QR algorithm with
// Ahues and Tisseur's deflation test, exceptional shifts every
// kGeevExceptionalShift iterations without a split, lanv2 for the 2×2
// blocks; LAPACK's dhseqr takes lahqr below 75 rows, aggressive early
// deflation above, whose eigenvalues may come in another order), trevc's
// eigenvectors of T (1×1 and 2×2 blocks solved with pivots under smin taken
// as smin, without its overflow guards), taken back through Q and gebak,
// and dgeev's normalization (unit 2-norm; a complex vector's largest
// component made real). Vectors not asked for, and all of them when the QR
// algorithm does not converge (info > 0, the 1-based row where it stopped),
// are zeros.
// The real Schur decomposition (jax.scipy.linalg.schur: `lapack_{s,d}gees_ffi`
// with sort 'N': a → (T, the Schur vectors Z, wr, wi, sdim 0, info)) the same
// way as dgees: gebal's permutations only (no scaling), gehd2, orghr, lahqr,
// gebak's permutations on Z (Z zeros when mode 'N' asks for none).
inline constexpr int kGeevBalanceSweeps = 100;
inline constexpr int kGeevScaleSteps = 2200;
inline constexpr int kGeevExceptionalShift = 10;
struct GeevConstants {
  double safmin, eps, ulp, sfmin1, sfmax1, sfmin2, sfmax2;  // LAPACK's dlamch values and gebal's bounds
};
GeevConstants GeevParams(bool f32);
struct GeevShape {
  int64_t n = 0, batches = 1;
  bool lapack = true;  // LAPACK's results (wr, wi, complex vl, vr), else cuSOLVER's
};
std::optional<GeevShape> GeevShapes(const Instruction& i, const LinalgCall& call, std::string* why);
std::optional<GeevShape> GeesShapes(const Instruction& i, std::string* why);
// Complex matrices (`lapack_{c,z}geev_ffi`, `cuhybrid_eig_comp`: a → (w, vl,
// vr, info); `cusolver_geev_ffi` on complex types: a → (the Schur form T, w,
// vl, vr, info), no left eigenvectors) as LAPACK's
// zgeev: zgebal, zgehd2, zunghr, zlahqr (single shifts, Wilkinson's or the
// exceptional ones, real subdiagonals), ztrevc (the shifted diagonal's pivots
// under smin taken as smin, no overflow scaling), zgebak, unit 2-norm with
// the largest component real. The complex square root is the principal one,
// √((|z| + |re z|)/2) on the side of re z.
std::optional<GeevShape> ComplexGeevShapes(const Instruction& i, std::string* why);

// JAX's `cu_lu_pivots_to_permutation` (`hip_…` on ROCm): what a GPU
// lowering of jnp.linalg.solve / lu computes from getrf's pivots (made
// 0-based): s32[..., k] → s32[..., m], the identity permutation of m with
// the rows swapped as the pivots say, in order (out-of-range pivots are
// skipped, as jaxlib's CUDA kernel does). Not in place.
bool IsLuPivotsToPermutationCall(const Instruction& i);

// A custom-call whose target no kernel of ours implements (it is not an
// identity, a client-library math function, CreateBuffer, TopK, a cuDNN
// convolution or one of the LinalgCustomCall calls): a call into
// whatever library or framework registered the target (Transformer Engine,
// cuBLAS, a JAX callback, a test). Codegen plans it as a custom-call thunk,
// as XLA's CustomCallThunk; the runners refuse it, naming the target.
bool IsExternalCustomCall(const Instruction& i);

}  // namespace hloscope
