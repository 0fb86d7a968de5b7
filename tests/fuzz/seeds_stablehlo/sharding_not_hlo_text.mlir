#lnc = loc("f.py":3:7)
module @m attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32> {mhlo.sharding = "{replicstablehlo.broadreducer(cast_in_dimated}"} loc("x")) -> (tensor<4xf32> {jax.result_info = ""}) {
      } loc(#loc)
} loc(#loc)
