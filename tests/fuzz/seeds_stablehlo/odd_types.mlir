module { func.func @f(%x: tensor<3x4x!quant.uniform<i8:f32, 0.1>>) -> tuple<tensor<f32>, !stablehlo.token> { "stablehlo.foo"() ({ ^bb0(%y: tensor<f32>): }) : () -> () } }
