// RUN: stablehlo-translate --interpret %s
func.func @main() {
  %operand = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %result = stablehlo.transpose %operand, dims = [1, 0] : (tensor<2x2xi64>) -> tensor<2x2xi64>
  %c = stablehlo.constant dense<[-1.5, 0x7FC00000, 2.0e+00]> : tensor<3xf32>
  %n = stablehlo.negate %c : tensor<3xf32>
  check.expect_eq_const %result, dense<[[1, 3], [2, 4]]> : tensor<2x2xi64>
  check.expect_almost_eq_const %n, dense<[1.5, 0x7FC00000, -2.0]> : tensor<3xf32>
  func.return
}
