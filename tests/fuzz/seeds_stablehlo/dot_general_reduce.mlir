func.func public @main(%a: tensor<2x4x8xbf16>, %b: tensor<2x8x5xbf16>) -> tensor<2x5xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x4x8xbf16>, tensor<2x8x5xbf16>) -> tensor<2x4x5xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %cst) across dimensions = [1] : (tensor<2x4x5xf32>, tensor<f32>) -> tensor<2x5xf32>
   reducer(%x: tensor<f32>, %y: tensor<f32>)  {
    %2 = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }
  return %1 : tensor<2x5xf32>
}
