module @loop {
  func.func @main(%arg0: tensor<i32>, %arg1: tensor<2x3xf32>) -> (tensor<i32>, tensor<2x3xf32>) {
    %c = stablehlo.constant dense<10> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<i32>, tensor<2x3xf32>
     cond {
      %1 = stablehlo.compare  LT, %iterArg, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      %2 = "stablehlo.multiply"(%iterArg_0, %iterArg_0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
      stablehlo.return %1, %2 : tensor<i32>, tensor<2x3xf32>
    }
    return %0#0, %0#1 : tensor<i32>, tensor<2x3xf32>
  }
}
