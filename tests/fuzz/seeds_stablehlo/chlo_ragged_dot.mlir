module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<256x128xbf16>, %arg1: tensor<4x128x64xbf16>, %arg2: tensor<4xi32>) -> (tensor<256x64xbf16> {jax.result_info = "result"}) {
    %0 = "chlo.ragged_dot"(%arg0, %arg1, %arg2) <{precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<256x128xbf16>, tensor<4x128x64xbf16>, tensor<4xi32>) -> tensor<256x64xbf16>
    return %0 : tensor<256x64xbf16>
  }
}
