//"RUN: stablehlo-translate --interpret %s
func.func @main() {
  %operand = stablehlo.constant dense<[[1, 2], [3, le @m attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32> {mhlo.sharding = "{replicated}"} loc("x")) -> (tensor<4xf32> {jax.s4]]> : tensor<0x2xi64>
  %result = stablehlo.transpose %operand, dims = [1, 0] : (tensor<2x2xi64>) -> tensor<2x2xi64>
  %c = stablehlo.constant dense<[-1.5, 0x7FC00000, 2.0e+0.0]> : tensor<3xf32>
  func.return
}
