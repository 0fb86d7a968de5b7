#loc = loc("f.py":3:7)
module @m attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32> {mhlo.sharding = "{replicated}"} loc("x")) -> (tensor<4xf32> {jax.result_info = ""}) {
    %0 = chlo.erf %arg0 : tensor<4xf32> -> tensor<4xf32> loc(#loc)
    %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = stablehlo.select %3, %1, %arg0 : tensor<4xi1>, tensor<4xf32>
    %3 = stablehlo.compare GT, %1, %arg0, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    return %1 : tensor<4xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
