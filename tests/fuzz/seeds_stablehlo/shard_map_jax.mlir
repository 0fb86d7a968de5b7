module @jit_body attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}}
  sdy.mesh @mesh_0 = <["x"=2, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x4xf32>) -> (tensor<16x4xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"y"}, {}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%arg2: tensor<4x4xf32>, %arg3: tensor<4x4xf32>) {
      %1 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
      %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "y">]>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %16 = stablehlo.add %arg4, %arg5 : tensor<f32>
        stablehlo.return %16 : tensor<f32>
      }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
      %3 = "stablehlo.all_gather"(%2) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "x">]>, use_global_device_ids}> : (tensor<4x4xf32>) -> tensor<8x4xf32>
      %4 = "stablehlo.reduce_scatter"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "x">]>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %16 = stablehlo.add %arg4, %arg5 : tensor<f32>
        stablehlo.return %16 : tensor<f32>
      }) : (tensor<8x4xf32>) -> tensor<4x4xf32>
      %5 = "stablehlo.collective_permute"(%4) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0], [2, 3], [3, 2]]> : tensor<4x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
      %6 = "stablehlo.all_to_all"(%5) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "x">]>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<4x4xf32>) -> tensor<8x2xf32>
      %c = stablehlo.constant dense<2> : tensor<ui32>
      %c_0 = stablehlo.constant dense<2> : tensor<ui32>
      %7 = stablehlo.partition_id : tensor<ui32>
      %8 = stablehlo.divide %7, %c : tensor<ui32>
      %9 = stablehlo.remainder %8, %c_0 : tensor<ui32>
      %10 = stablehlo.convert %9 : (tensor<ui32>) -> tensor<i32>
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %11 = stablehlo.convert %c_1 : tensor<i32>
      %12 = stablehlo.add %10, %11 : tensor<i32>
      %13 = stablehlo.convert %12 : (tensor<i32>) -> tensor<f32>
      %14 = stablehlo.broadcast_in_dim %13, dims = [] : (tensor<f32>) -> tensor<8x2xf32>
      %15 = stablehlo.multiply %6, %14 : tensor<8x2xf32>
      sdy.return %15 : tensor<8x2xf32>
    } : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
    return %0 : tensor<16x4xf32>
  }
}
