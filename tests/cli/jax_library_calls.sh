#!/usr/bin/env bash
# JAX programs that call LAPACK / cuSOLVER, run as our kernels on the CPU and
# compared with JAX's own outputs (committed from tools/gen_unseen_modules.py,
# so no Python or JAX is needed here): eigh_pca calls syevd (jnp.linalg.eigh
# and eigvalsh), svd_low_rank gesdd / gesvdj (jnp.linalg.svd, pinv, norm),
# complex_lu_solve complex getrf (jnp.linalg.solve, det, inv of c64
# matrices), complex_qr complex geqrf / ungqr (jnp.linalg.qr of c64),
# complex_eigh heevd (jnp.linalg.eigh and eigvalsh of Hermitian c64
# matrices), complex_svd complex gesdd / gesvdj (jnp.linalg.svd, pinv of c64;
# phase-free outputs), tridiagonal_solve gtsv / cuSPARSE's gtsv2
# (lax.linalg.tridiagonal_solve, f32 with pivoting and c64),
# tridiagonal_reduction sytrd / hetrd (lax.linalg.tridiagonal, both
# triangles), hessenberg gehrd then orgqr (jax.scipy.linalg.hessenberg, real
# and complex; JAX lowers it for the CPU only), eig_general geev (jnp.linalg.eig
# and eigvals of real matrices, left eigenvectors of a balanced one: LAPACK's
# sgeev on the CPU, cuSOLVER's geev and the hybrid call for CUDA),
# schur_decomposition gees (jax.scipy.linalg.schur; CPU only), complex_eig
# complex geev (jnp.linalg.eig, eigvals, left eigenvectors of c64: LAPACK's
# cgeev, cuSOLVER's geev and the hybrid call) — the
# HLO JAX lowers for CUDA (cuSOLVER) and the StableHLO (.cpu.mlir) or HLO
# (.cpu.hlo) it writes for the CPU (LAPACK). A data file whose
# eigenvalues were altered must fail, so the comparison is not empty.
# Usage: jax_library_calls.sh HLOSCOPE_CLI SOURCE_DIR
set -u
cli=$1
src=$2
data=$src/tests/cli/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
source "$(dirname "$0")/cli_test_lib.sh"

for f in eigh_pca.cuda.hlo eigh_pca.cpu.mlir svd_low_rank.cuda.hlo svd_low_rank.cpu.mlir \
         complex_lu_solve.cuda.hlo complex_lu_solve.cpu.hlo complex_qr.cuda.hlo complex_qr.cpu.hlo \
         complex_eigh.cuda.hlo complex_eigh.cpu.hlo complex_svd.cuda.hlo complex_svd.cpu.hlo \
         tridiagonal_solve.cuda.hlo tridiagonal_solve.cpu.hlo tridiagonal_reduction.cuda.hlo \
         tridiagonal_reduction.cpu.hlo hessenberg.cpu.hlo eig_general.cpu.hlo eig_general.cuda.hlo \
         schur_decomposition.cpu.hlo complex_eig.cpu.hlo complex_eig.cuda.hlo; do
  expect_rc 0 "run $f against JAX's outputs" "$cli" run "$data/$f" --device cpu --inputs "$data/${f%%.*}.data.json"
  expect_text "$f: every output matches the interpreter" "outputs match the interpreter" "$tmp/out"
  expect_text "$f: and JAX's outputs" "against JAX's outputs: match" "$tmp/out"
done
python3 - "$data/eigh_pca.data.json" "$tmp/wrong.data.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["outputs"][0]["values"][0] += 0.01  # the smallest eigenvalue
json.dump(d, open(sys.argv[2], "w"))
PY
expect_rc 1 "run against an altered eigenvalue" "$cli" run "$data/eigh_pca.cuda.hlo" --device cpu --inputs "$tmp/wrong.data.json" --quiet
python3 - "$data/tridiagonal_reduction.data.json" "$tmp/wrong_tau.data.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["outputs"][3]["values"][1] += 0.001  # a tau of the lower-triangle reduction
json.dump(d, open(sys.argv[2], "w"))
PY
python3 - "$data/eig_general.data.json" "$tmp/wrong_eig.data.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["outputs"][2]["values"][3] += 0.001  # a component of an eigenvector
json.dump(d, open(sys.argv[2], "w"))
PY
expect_rc 1 "run against an altered eigenvector" "$cli" run "$data/eig_general.cuda.hlo" --device cpu --inputs "$tmp/wrong_eig.data.json" --quiet
expect_rc 1 "run against an altered tau" "$cli" run "$data/tridiagonal_reduction.cuda.hlo" --device cpu --inputs "$tmp/wrong_tau.data.json" --quiet
exit $fail
