func.func @main(%a: tensor<2x?xf32>) -> tensor<2xf32> {
  %0 = stablehlo.reduce(%a init: 