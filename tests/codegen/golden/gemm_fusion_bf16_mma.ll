; ModuleID = 'gemm_fusion_d_1'
source_filename = "gemm_fusion_d_1"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@gemm_fusion_d_1_lhs_tile = internal addrspace(3) global [2560 x i16] poison, align 16
@gemm_fusion_d_1_rhs_tile = internal addrspace(3) global [2560 x i16] poison, align 16

; Function Attrs: nounwind
define void @gemm_fusion_d_1(ptr noalias readonly align 16 dereferenceable(160) %arg0, ptr noalias readonly align 16 dereferenceable(12288) %arg1, ptr noalias readonly align 16 dereferenceable(15360) %arg2, ptr noalias align 16 dereferenceable(10240) %arg3) #0 !dbg !6 {
entry:
  %accumulators = alloca [32 x float], align 4, !dbg !9
  %staged = alloca i16, align 2, !dbg !9
  %acc31 = alloca float, align 4, !dbg !9
  %acc30 = alloca float, align 4, !dbg !9
  %acc29 = alloca float, align 4, !dbg !9
  %acc28 = alloca float, align 4, !dbg !9
  %acc27 = alloca float, align 4, !dbg !9
  %acc26 = alloca float, align 4, !dbg !9
  %acc25 = alloca float, align 4, !dbg !9
  %acc24 = alloca float, align 4, !dbg !9
  %acc23 = alloca float, align 4, !dbg !9
  %acc22 = alloca float, align 4, !dbg !9
  %acc21 = alloca float, align 4, !dbg !9
  %acc20 = alloca float, align 4, !dbg !9
  %acc19 = alloca float, align 4, !dbg !9
  %acc18 = alloca float, align 4, !dbg !9
  %acc17 = alloca float, align 4, !dbg !9
  %acc16 = alloca float, align 4, !dbg !9
  %acc15 = alloca float, align 4, !dbg !9
  %acc14 = alloca float, align 4, !dbg !9
  %acc13 = alloca float, align 4, !dbg !9
  %acc12 = alloca float, align 4, !dbg !9
  %acc11 = alloca float, align 4, !dbg !9
  %acc10 = alloca float, align 4, !dbg !9
  %acc9 = alloca float, align 4, !dbg !9
  %acc8 = alloca float, align 4, !dbg !9
  %acc7 = alloca float, align 4, !dbg !9
  %acc6 = alloca float, align 4, !dbg !9
  %acc5 = alloca float, align 4, !dbg !9
  %acc4 = alloca float, align 4, !dbg !9
  %acc3 = alloca float, align 4, !dbg !9
  %acc2 = alloca float, align 4, !dbg !9
  %acc1 = alloca float, align 4, !dbg !9
  %acc = alloca float, align 4, !dbg !9
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !9
  %1 = zext i32 %0 to i64, !dbg !9
  %2 = udiv i64 %1, 32, !dbg !9
  %3 = urem i64 %1, 32, !dbg !9
  %4 = udiv i64 %3, 4, !dbg !9
  %5 = urem i64 %3, 4, !dbg !9
  %6 = urem i64 %2, 2, !dbg !9
  %7 = udiv i64 %2, 2, !dbg !9
  %8 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !9
  %9 = zext i32 %8 to i64, !dbg !9
  %10 = urem i64 %9, 2, !dbg !9
  %11 = udiv i64 %9, 2, !dbg !9
  %12 = urem i64 %11, 1, !dbg !9
  %13 = udiv i64 %11, 1, !dbg !9
  %14 = mul i64 %12, 64, !dbg !9
  %15 = mul i64 %10, 64, !dbg !9
  store float 0.000000e+00, ptr %acc, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc1, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc2, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc3, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc4, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc5, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc6, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc7, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc8, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc9, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc10, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc11, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc12, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc13, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc14, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc15, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc16, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc17, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc18, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc19, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc20, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc21, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc22, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc23, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc24, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc25, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc26, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc27, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc28, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc29, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc30, align 4, !dbg !9
  store float 0.000000e+00, ptr %acc31, align 4, !dbg !9
  br label %loop.header, !dbg !9

loop.header:                                      ; preds = %loop.exit38, %entry
  %iv = phi i64 [ 0, %entry ], [ %iv.next43, %loop.exit38 ], !dbg !9
  %16 = icmp slt i64 %iv, 96, !dbg !9
  br i1 %16, label %loop.body, label %loop.exit, !dbg !9

loop.body:                                        ; preds = %loop.header
  br label %loop.header32, !dbg !9

loop.exit:                                        ; preds = %loop.header
  %17 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 0, !dbg !9
  %18 = load float, ptr %acc, align 4, !dbg !9
  store float %18, ptr %17, align 4, !dbg !9
  %19 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 1, !dbg !9
  %20 = load float, ptr %acc1, align 4, !dbg !9
  store float %20, ptr %19, align 4, !dbg !9
  %21 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 2, !dbg !9
  %22 = load float, ptr %acc2, align 4, !dbg !9
  store float %22, ptr %21, align 4, !dbg !9
  %23 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 3, !dbg !9
  %24 = load float, ptr %acc3, align 4, !dbg !9
  store float %24, ptr %23, align 4, !dbg !9
  %25 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 4, !dbg !9
  %26 = load float, ptr %acc4, align 4, !dbg !9
  store float %26, ptr %25, align 4, !dbg !9
  %27 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 5, !dbg !9
  %28 = load float, ptr %acc5, align 4, !dbg !9
  store float %28, ptr %27, align 4, !dbg !9
  %29 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 6, !dbg !9
  %30 = load float, ptr %acc6, align 4, !dbg !9
  store float %30, ptr %29, align 4, !dbg !9
  %31 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 7, !dbg !9
  %32 = load float, ptr %acc7, align 4, !dbg !9
  store float %32, ptr %31, align 4, !dbg !9
  %33 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 8, !dbg !9
  %34 = load float, ptr %acc8, align 4, !dbg !9
  store float %34, ptr %33, align 4, !dbg !9
  %35 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 9, !dbg !9
  %36 = load float, ptr %acc9, align 4, !dbg !9
  store float %36, ptr %35, align 4, !dbg !9
  %37 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 10, !dbg !9
  %38 = load float, ptr %acc10, align 4, !dbg !9
  store float %38, ptr %37, align 4, !dbg !9
  %39 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 11, !dbg !9
  %40 = load float, ptr %acc11, align 4, !dbg !9
  store float %40, ptr %39, align 4, !dbg !9
  %41 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 12, !dbg !9
  %42 = load float, ptr %acc12, align 4, !dbg !9
  store float %42, ptr %41, align 4, !dbg !9
  %43 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 13, !dbg !9
  %44 = load float, ptr %acc13, align 4, !dbg !9
  store float %44, ptr %43, align 4, !dbg !9
  %45 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 14, !dbg !9
  %46 = load float, ptr %acc14, align 4, !dbg !9
  store float %46, ptr %45, align 4, !dbg !9
  %47 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 15, !dbg !9
  %48 = load float, ptr %acc15, align 4, !dbg !9
  store float %48, ptr %47, align 4, !dbg !9
  %49 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 16, !dbg !9
  %50 = load float, ptr %acc16, align 4, !dbg !9
  store float %50, ptr %49, align 4, !dbg !9
  %51 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 17, !dbg !9
  %52 = load float, ptr %acc17, align 4, !dbg !9
  store float %52, ptr %51, align 4, !dbg !9
  %53 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 18, !dbg !9
  %54 = load float, ptr %acc18, align 4, !dbg !9
  store float %54, ptr %53, align 4, !dbg !9
  %55 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 19, !dbg !9
  %56 = load float, ptr %acc19, align 4, !dbg !9
  store float %56, ptr %55, align 4, !dbg !9
  %57 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 20, !dbg !9
  %58 = load float, ptr %acc20, align 4, !dbg !9
  store float %58, ptr %57, align 4, !dbg !9
  %59 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 21, !dbg !9
  %60 = load float, ptr %acc21, align 4, !dbg !9
  store float %60, ptr %59, align 4, !dbg !9
  %61 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 22, !dbg !9
  %62 = load float, ptr %acc22, align 4, !dbg !9
  store float %62, ptr %61, align 4, !dbg !9
  %63 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 23, !dbg !9
  %64 = load float, ptr %acc23, align 4, !dbg !9
  store float %64, ptr %63, align 4, !dbg !9
  %65 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 24, !dbg !9
  %66 = load float, ptr %acc24, align 4, !dbg !9
  store float %66, ptr %65, align 4, !dbg !9
  %67 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 25, !dbg !9
  %68 = load float, ptr %acc25, align 4, !dbg !9
  store float %68, ptr %67, align 4, !dbg !9
  %69 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 26, !dbg !9
  %70 = load float, ptr %acc26, align 4, !dbg !9
  store float %70, ptr %69, align 4, !dbg !9
  %71 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 27, !dbg !9
  %72 = load float, ptr %acc27, align 4, !dbg !9
  store float %72, ptr %71, align 4, !dbg !9
  %73 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 28, !dbg !9
  %74 = load float, ptr %acc28, align 4, !dbg !9
  store float %74, ptr %73, align 4, !dbg !9
  %75 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 29, !dbg !9
  %76 = load float, ptr %acc29, align 4, !dbg !9
  store float %76, ptr %75, align 4, !dbg !9
  %77 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 30, !dbg !9
  %78 = load float, ptr %acc30, align 4, !dbg !9
  store float %78, ptr %77, align 4, !dbg !9
  %79 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 31, !dbg !9
  %80 = load float, ptr %acc31, align 4, !dbg !9
  store float %80, ptr %79, align 4, !dbg !9
  br label %loop.header44, !dbg !9

loop.header32:                                    ; preds = %if.end, %loop.body
  %iv35 = phi i64 [ 0, %loop.body ], [ %iv.next, %if.end ], !dbg !9
  %81 = icmp slt i64 %iv35, 16, !dbg !9
  br i1 %81, label %loop.body33, label %loop.exit34, !dbg !9

loop.body33:                                      ; preds = %loop.header32
  %82 = mul i64 %iv35, 128, !dbg !9
  %83 = add i64 %82, %1, !dbg !9
  %84 = udiv i64 %83, 32, !dbg !9
  %85 = urem i64 %83, 32, !dbg !9
  %86 = add i64 %14, %84, !dbg !9
  %87 = add i64 %iv, %85, !dbg !9
  %88 = icmp slt i64 %87, 96, !dbg !9
  %89 = icmp slt i64 %86, 64, !dbg !9
  %90 = and i1 %89, %88, !dbg !9
  store i16 0, ptr %staged, align 2, !dbg !9
  br i1 %90, label %if.then, label %if.end, !dbg !9

loop.exit34:                                      ; preds = %loop.header32
  br label %loop.header36, !dbg !9

if.then:                                          ; preds = %loop.body33
  %91 = add i64 0, %86, !dbg !10
  %92 = mul i64 %91, 96, !dbg !10
  %93 = add i64 %92, %87, !dbg !10
  %94 = getelementptr inbounds bfloat, ptr %arg1, i64 %93, !dbg !10
  %95 = load bfloat, ptr %94, align 2, !dbg !10
  %96 = bitcast bfloat %95 to i16, !dbg !9
  store i16 %96, ptr %staged, align 2, !dbg !9
  br label %if.end, !dbg !9

if.end:                                           ; preds = %if.then, %loop.body33
  %97 = mul i64 %84, 40, !dbg !9
  %98 = add i64 %97, %85, !dbg !9
  %99 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %98, !dbg !9
  %100 = load i16, ptr %staged, align 2, !dbg !9
  store i16 %100, ptr %99, align 2, !dbg !9
  %iv.next = add nsw i64 %iv35, 1, !dbg !9
  br label %loop.header32, !dbg !9

loop.header36:                                    ; preds = %if.end41, %loop.exit34
  %iv39 = phi i64 [ 0, %loop.exit34 ], [ %iv.next42, %if.end41 ], !dbg !9
  %101 = icmp slt i64 %iv39, 16, !dbg !9
  br i1 %101, label %loop.body37, label %loop.exit38, !dbg !9

loop.body37:                                      ; preds = %loop.header36
  %102 = mul i64 %iv39, 128, !dbg !9
  %103 = add i64 %102, %1, !dbg !9
  %104 = udiv i64 %103, 32, !dbg !9
  %105 = urem i64 %103, 32, !dbg !9
  %106 = add i64 %15, %104, !dbg !9
  %107 = add i64 %iv, %105, !dbg !9
  %108 = icmp slt i64 %107, 96, !dbg !9
  %109 = icmp slt i64 %106, 80, !dbg !9
  %110 = and i1 %109, %108, !dbg !9
  store i16 0, ptr %staged, align 2, !dbg !9
  br i1 %110, label %if.then40, label %if.end41, !dbg !9

loop.exit38:                                      ; preds = %loop.header36
  call void @llvm.nvvm.barrier0(), !dbg !9
  %111 = mul i64 %5, 2, !dbg !11
  %112 = add i64 0, %111, !dbg !11
  %113 = mul i64 %6, 32, !dbg !11
  %114 = add i64 %113, 0, !dbg !11
  %115 = add i64 %114, %4, !dbg !11
  %116 = mul i64 %115, 40, !dbg !11
  %117 = add i64 %115, 8, !dbg !11
  %118 = mul i64 %117, 40, !dbg !11
  %119 = add i64 %116, %112, !dbg !11
  %120 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %119, !dbg !11
  %121 = load i32, ptr %120, align 4, !dbg !11
  %122 = add i64 %118, %112, !dbg !11
  %123 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %122, !dbg !11
  %124 = load i32, ptr %123, align 4, !dbg !11
  %125 = add i64 %112, 8, !dbg !11
  %126 = add i64 %116, %125, !dbg !11
  %127 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %126, !dbg !11
  %128 = load i32, ptr %127, align 4, !dbg !11
  %129 = add i64 %112, 8, !dbg !11
  %130 = add i64 %118, %129, !dbg !11
  %131 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %130, !dbg !11
  %132 = load i32, ptr %131, align 4, !dbg !11
  %133 = mul i64 %6, 32, !dbg !11
  %134 = add i64 %133, 16, !dbg !11
  %135 = add i64 %134, %4, !dbg !11
  %136 = mul i64 %135, 40, !dbg !11
  %137 = add i64 %135, 8, !dbg !11
  %138 = mul i64 %137, 40, !dbg !11
  %139 = add i64 %136, %112, !dbg !11
  %140 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %139, !dbg !11
  %141 = load i32, ptr %140, align 4, !dbg !11
  %142 = add i64 %138, %112, !dbg !11
  %143 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %142, !dbg !11
  %144 = load i32, ptr %143, align 4, !dbg !11
  %145 = add i64 %112, 8, !dbg !11
  %146 = add i64 %136, %145, !dbg !11
  %147 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %146, !dbg !11
  %148 = load i32, ptr %147, align 4, !dbg !11
  %149 = add i64 %112, 8, !dbg !11
  %150 = add i64 %138, %149, !dbg !11
  %151 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %150, !dbg !11
  %152 = load i32, ptr %151, align 4, !dbg !11
  %153 = mul i64 %7, 32, !dbg !11
  %154 = add i64 %153, 0, !dbg !11
  %155 = add i64 %154, %4, !dbg !11
  %156 = mul i64 %155, 40, !dbg !11
  %157 = add i64 %156, %112, !dbg !11
  %158 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %157, !dbg !11
  %159 = load i32, ptr %158, align 4, !dbg !11
  %160 = add i64 %112, 8, !dbg !11
  %161 = add i64 %156, %160, !dbg !11
  %162 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %161, !dbg !11
  %163 = load i32, ptr %162, align 4, !dbg !11
  %164 = mul i64 %7, 32, !dbg !11
  %165 = add i64 %164, 8, !dbg !11
  %166 = add i64 %165, %4, !dbg !11
  %167 = mul i64 %166, 40, !dbg !11
  %168 = add i64 %167, %112, !dbg !11
  %169 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %168, !dbg !11
  %170 = load i32, ptr %169, align 4, !dbg !11
  %171 = add i64 %112, 8, !dbg !11
  %172 = add i64 %167, %171, !dbg !11
  %173 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %172, !dbg !11
  %174 = load i32, ptr %173, align 4, !dbg !11
  %175 = mul i64 %7, 32, !dbg !11
  %176 = add i64 %175, 16, !dbg !11
  %177 = add i64 %176, %4, !dbg !11
  %178 = mul i64 %177, 40, !dbg !11
  %179 = add i64 %178, %112, !dbg !11
  %180 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %179, !dbg !11
  %181 = load i32, ptr %180, align 4, !dbg !11
  %182 = add i64 %112, 8, !dbg !11
  %183 = add i64 %178, %182, !dbg !11
  %184 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %183, !dbg !11
  %185 = load i32, ptr %184, align 4, !dbg !11
  %186 = mul i64 %7, 32, !dbg !11
  %187 = add i64 %186, 24, !dbg !11
  %188 = add i64 %187, %4, !dbg !11
  %189 = mul i64 %188, 40, !dbg !11
  %190 = add i64 %189, %112, !dbg !11
  %191 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %190, !dbg !11
  %192 = load i32, ptr %191, align 4, !dbg !11
  %193 = add i64 %112, 8, !dbg !11
  %194 = add i64 %189, %193, !dbg !11
  %195 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %194, !dbg !11
  %196 = load i32, ptr %195, align 4, !dbg !11
  %197 = load float, ptr %acc, align 4, !dbg !11
  %198 = load float, ptr %acc1, align 4, !dbg !11
  %199 = load float, ptr %acc2, align 4, !dbg !11
  %200 = load float, ptr %acc3, align 4, !dbg !11
  %201 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %121, i32 %124, i32 %128, i32 %132, i32 %159, i32 %163, float %197, float %198, float %199, float %200), !dbg !11
  %202 = extractvalue { float, float, float, float } %201, 0, !dbg !11
  %203 = extractvalue { float, float, float, float } %201, 1, !dbg !11
  %204 = extractvalue { float, float, float, float } %201, 2, !dbg !11
  %205 = extractvalue { float, float, float, float } %201, 3, !dbg !11
  store float %202, ptr %acc, align 4, !dbg !11
  store float %203, ptr %acc1, align 4, !dbg !11
  store float %204, ptr %acc2, align 4, !dbg !11
  store float %205, ptr %acc3, align 4, !dbg !11
  %206 = load float, ptr %acc4, align 4, !dbg !11
  %207 = load float, ptr %acc5, align 4, !dbg !11
  %208 = load float, ptr %acc6, align 4, !dbg !11
  %209 = load float, ptr %acc7, align 4, !dbg !11
  %210 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %121, i32 %124, i32 %128, i32 %132, i32 %170, i32 %174, float %206, float %207, float %208, float %209), !dbg !11
  %211 = extractvalue { float, float, float, float } %210, 0, !dbg !11
  %212 = extractvalue { float, float, float, float } %210, 1, !dbg !11
  %213 = extractvalue { float, float, float, float } %210, 2, !dbg !11
  %214 = extractvalue { float, float, float, float } %210, 3, !dbg !11
  store float %211, ptr %acc4, align 4, !dbg !11
  store float %212, ptr %acc5, align 4, !dbg !11
  store float %213, ptr %acc6, align 4, !dbg !11
  store float %214, ptr %acc7, align 4, !dbg !11
  %215 = load float, ptr %acc8, align 4, !dbg !11
  %216 = load float, ptr %acc9, align 4, !dbg !11
  %217 = load float, ptr %acc10, align 4, !dbg !11
  %218 = load float, ptr %acc11, align 4, !dbg !11
  %219 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %121, i32 %124, i32 %128, i32 %132, i32 %181, i32 %185, float %215, float %216, float %217, float %218), !dbg !11
  %220 = extractvalue { float, float, float, float } %219, 0, !dbg !11
  %221 = extractvalue { float, float, float, float } %219, 1, !dbg !11
  %222 = extractvalue { float, float, float, float } %219, 2, !dbg !11
  %223 = extractvalue { float, float, float, float } %219, 3, !dbg !11
  store float %220, ptr %acc8, align 4, !dbg !11
  store float %221, ptr %acc9, align 4, !dbg !11
  store float %222, ptr %acc10, align 4, !dbg !11
  store float %223, ptr %acc11, align 4, !dbg !11
  %224 = load float, ptr %acc12, align 4, !dbg !11
  %225 = load float, ptr %acc13, align 4, !dbg !11
  %226 = load float, ptr %acc14, align 4, !dbg !11
  %227 = load float, ptr %acc15, align 4, !dbg !11
  %228 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %121, i32 %124, i32 %128, i32 %132, i32 %192, i32 %196, float %224, float %225, float %226, float %227), !dbg !11
  %229 = extractvalue { float, float, float, float } %228, 0, !dbg !11
  %230 = extractvalue { float, float, float, float } %228, 1, !dbg !11
  %231 = extractvalue { float, float, float, float } %228, 2, !dbg !11
  %232 = extractvalue { float, float, float, float } %228, 3, !dbg !11
  store float %229, ptr %acc12, align 4, !dbg !11
  store float %230, ptr %acc13, align 4, !dbg !11
  store float %231, ptr %acc14, align 4, !dbg !11
  store float %232, ptr %acc15, align 4, !dbg !11
  %233 = load float, ptr %acc16, align 4, !dbg !11
  %234 = load float, ptr %acc17, align 4, !dbg !11
  %235 = load float, ptr %acc18, align 4, !dbg !11
  %236 = load float, ptr %acc19, align 4, !dbg !11
  %237 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %141, i32 %144, i32 %148, i32 %152, i32 %159, i32 %163, float %233, float %234, float %235, float %236), !dbg !11
  %238 = extractvalue { float, float, float, float } %237, 0, !dbg !11
  %239 = extractvalue { float, float, float, float } %237, 1, !dbg !11
  %240 = extractvalue { float, float, float, float } %237, 2, !dbg !11
  %241 = extractvalue { float, float, float, float } %237, 3, !dbg !11
  store float %238, ptr %acc16, align 4, !dbg !11
  store float %239, ptr %acc17, align 4, !dbg !11
  store float %240, ptr %acc18, align 4, !dbg !11
  store float %241, ptr %acc19, align 4, !dbg !11
  %242 = load float, ptr %acc20, align 4, !dbg !11
  %243 = load float, ptr %acc21, align 4, !dbg !11
  %244 = load float, ptr %acc22, align 4, !dbg !11
  %245 = load float, ptr %acc23, align 4, !dbg !11
  %246 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %141, i32 %144, i32 %148, i32 %152, i32 %170, i32 %174, float %242, float %243, float %244, float %245), !dbg !11
  %247 = extractvalue { float, float, float, float } %246, 0, !dbg !11
  %248 = extractvalue { float, float, float, float } %246, 1, !dbg !11
  %249 = extractvalue { float, float, float, float } %246, 2, !dbg !11
  %250 = extractvalue { float, float, float, float } %246, 3, !dbg !11
  store float %247, ptr %acc20, align 4, !dbg !11
  store float %248, ptr %acc21, align 4, !dbg !11
  store float %249, ptr %acc22, align 4, !dbg !11
  store float %250, ptr %acc23, align 4, !dbg !11
  %251 = load float, ptr %acc24, align 4, !dbg !11
  %252 = load float, ptr %acc25, align 4, !dbg !11
  %253 = load float, ptr %acc26, align 4, !dbg !11
  %254 = load float, ptr %acc27, align 4, !dbg !11
  %255 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %141, i32 %144, i32 %148, i32 %152, i32 %181, i32 %185, float %251, float %252, float %253, float %254), !dbg !11
  %256 = extractvalue { float, float, float, float } %255, 0, !dbg !11
  %257 = extractvalue { float, float, float, float } %255, 1, !dbg !11
  %258 = extractvalue { float, float, float, float } %255, 2, !dbg !11
  %259 = extractvalue { float, float, float, float } %255, 3, !dbg !11
  store float %256, ptr %acc24, align 4, !dbg !11
  store float %257, ptr %acc25, align 4, !dbg !11
  store float %258, ptr %acc26, align 4, !dbg !11
  store float %259, ptr %acc27, align 4, !dbg !11
  %260 = load float, ptr %acc28, align 4, !dbg !11
  %261 = load float, ptr %acc29, align 4, !dbg !11
  %262 = load float, ptr %acc30, align 4, !dbg !11
  %263 = load float, ptr %acc31, align 4, !dbg !11
  %264 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %141, i32 %144, i32 %148, i32 %152, i32 %192, i32 %196, float %260, float %261, float %262, float %263), !dbg !11
  %265 = extractvalue { float, float, float, float } %264, 0, !dbg !11
  %266 = extractvalue { float, float, float, float } %264, 1, !dbg !11
  %267 = extractvalue { float, float, float, float } %264, 2, !dbg !11
  %268 = extractvalue { float, float, float, float } %264, 3, !dbg !11
  store float %265, ptr %acc28, align 4, !dbg !11
  store float %266, ptr %acc29, align 4, !dbg !11
  store float %267, ptr %acc30, align 4, !dbg !11
  store float %268, ptr %acc31, align 4, !dbg !11
  %269 = mul i64 %5, 2, !dbg !11
  %270 = add i64 16, %269, !dbg !11
  %271 = mul i64 %6, 32, !dbg !11
  %272 = add i64 %271, 0, !dbg !11
  %273 = add i64 %272, %4, !dbg !11
  %274 = mul i64 %273, 40, !dbg !11
  %275 = add i64 %273, 8, !dbg !11
  %276 = mul i64 %275, 40, !dbg !11
  %277 = add i64 %274, %270, !dbg !11
  %278 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %277, !dbg !11
  %279 = load i32, ptr %278, align 4, !dbg !11
  %280 = add i64 %276, %270, !dbg !11
  %281 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %280, !dbg !11
  %282 = load i32, ptr %281, align 4, !dbg !11
  %283 = add i64 %270, 8, !dbg !11
  %284 = add i64 %274, %283, !dbg !11
  %285 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %284, !dbg !11
  %286 = load i32, ptr %285, align 4, !dbg !11
  %287 = add i64 %270, 8, !dbg !11
  %288 = add i64 %276, %287, !dbg !11
  %289 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %288, !dbg !11
  %290 = load i32, ptr %289, align 4, !dbg !11
  %291 = mul i64 %6, 32, !dbg !11
  %292 = add i64 %291, 16, !dbg !11
  %293 = add i64 %292, %4, !dbg !11
  %294 = mul i64 %293, 40, !dbg !11
  %295 = add i64 %293, 8, !dbg !11
  %296 = mul i64 %295, 40, !dbg !11
  %297 = add i64 %294, %270, !dbg !11
  %298 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %297, !dbg !11
  %299 = load i32, ptr %298, align 4, !dbg !11
  %300 = add i64 %296, %270, !dbg !11
  %301 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %300, !dbg !11
  %302 = load i32, ptr %301, align 4, !dbg !11
  %303 = add i64 %270, 8, !dbg !11
  %304 = add i64 %294, %303, !dbg !11
  %305 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %304, !dbg !11
  %306 = load i32, ptr %305, align 4, !dbg !11
  %307 = add i64 %270, 8, !dbg !11
  %308 = add i64 %296, %307, !dbg !11
  %309 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %308, !dbg !11
  %310 = load i32, ptr %309, align 4, !dbg !11
  %311 = mul i64 %7, 32, !dbg !11
  %312 = add i64 %311, 0, !dbg !11
  %313 = add i64 %312, %4, !dbg !11
  %314 = mul i64 %313, 40, !dbg !11
  %315 = add i64 %314, %270, !dbg !11
  %316 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %315, !dbg !11
  %317 = load i32, ptr %316, align 4, !dbg !11
  %318 = add i64 %270, 8, !dbg !11
  %319 = add i64 %314, %318, !dbg !11
  %320 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %319, !dbg !11
  %321 = load i32, ptr %320, align 4, !dbg !11
  %322 = mul i64 %7, 32, !dbg !11
  %323 = add i64 %322, 8, !dbg !11
  %324 = add i64 %323, %4, !dbg !11
  %325 = mul i64 %324, 40, !dbg !11
  %326 = add i64 %325, %270, !dbg !11
  %327 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %326, !dbg !11
  %328 = load i32, ptr %327, align 4, !dbg !11
  %329 = add i64 %270, 8, !dbg !11
  %330 = add i64 %325, %329, !dbg !11
  %331 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %330, !dbg !11
  %332 = load i32, ptr %331, align 4, !dbg !11
  %333 = mul i64 %7, 32, !dbg !11
  %334 = add i64 %333, 16, !dbg !11
  %335 = add i64 %334, %4, !dbg !11
  %336 = mul i64 %335, 40, !dbg !11
  %337 = add i64 %336, %270, !dbg !11
  %338 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %337, !dbg !11
  %339 = load i32, ptr %338, align 4, !dbg !11
  %340 = add i64 %270, 8, !dbg !11
  %341 = add i64 %336, %340, !dbg !11
  %342 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %341, !dbg !11
  %343 = load i32, ptr %342, align 4, !dbg !11
  %344 = mul i64 %7, 32, !dbg !11
  %345 = add i64 %344, 24, !dbg !11
  %346 = add i64 %345, %4, !dbg !11
  %347 = mul i64 %346, 40, !dbg !11
  %348 = add i64 %347, %270, !dbg !11
  %349 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %348, !dbg !11
  %350 = load i32, ptr %349, align 4, !dbg !11
  %351 = add i64 %270, 8, !dbg !11
  %352 = add i64 %347, %351, !dbg !11
  %353 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %352, !dbg !11
  %354 = load i32, ptr %353, align 4, !dbg !11
  %355 = load float, ptr %acc, align 4, !dbg !11
  %356 = load float, ptr %acc1, align 4, !dbg !11
  %357 = load float, ptr %acc2, align 4, !dbg !11
  %358 = load float, ptr %acc3, align 4, !dbg !11
  %359 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %279, i32 %282, i32 %286, i32 %290, i32 %317, i32 %321, float %355, float %356, float %357, float %358), !dbg !11
  %360 = extractvalue { float, float, float, float } %359, 0, !dbg !11
  %361 = extractvalue { float, float, float, float } %359, 1, !dbg !11
  %362 = extractvalue { float, float, float, float } %359, 2, !dbg !11
  %363 = extractvalue { float, float, float, float } %359, 3, !dbg !11
  store float %360, ptr %acc, align 4, !dbg !11
  store float %361, ptr %acc1, align 4, !dbg !11
  store float %362, ptr %acc2, align 4, !dbg !11
  store float %363, ptr %acc3, align 4, !dbg !11
  %364 = load float, ptr %acc4, align 4, !dbg !11
  %365 = load float, ptr %acc5, align 4, !dbg !11
  %366 = load float, ptr %acc6, align 4, !dbg !11
  %367 = load float, ptr %acc7, align 4, !dbg !11
  %368 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %279, i32 %282, i32 %286, i32 %290, i32 %328, i32 %332, float %364, float %365, float %366, float %367), !dbg !11
  %369 = extractvalue { float, float, float, float } %368, 0, !dbg !11
  %370 = extractvalue { float, float, float, float } %368, 1, !dbg !11
  %371 = extractvalue { float, float, float, float } %368, 2, !dbg !11
  %372 = extractvalue { float, float, float, float } %368, 3, !dbg !11
  store float %369, ptr %acc4, align 4, !dbg !11
  store float %370, ptr %acc5, align 4, !dbg !11
  store float %371, ptr %acc6, align 4, !dbg !11
  store float %372, ptr %acc7, align 4, !dbg !11
  %373 = load float, ptr %acc8, align 4, !dbg !11
  %374 = load float, ptr %acc9, align 4, !dbg !11
  %375 = load float, ptr %acc10, align 4, !dbg !11
  %376 = load float, ptr %acc11, align 4, !dbg !11
  %377 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %279, i32 %282, i32 %286, i32 %290, i32 %339, i32 %343, float %373, float %374, float %375, float %376), !dbg !11
  %378 = extractvalue { float, float, float, float } %377, 0, !dbg !11
  %379 = extractvalue { float, float, float, float } %377, 1, !dbg !11
  %380 = extractvalue { float, float, float, float } %377, 2, !dbg !11
  %381 = extractvalue { float, float, float, float } %377, 3, !dbg !11
  store float %378, ptr %acc8, align 4, !dbg !11
  store float %379, ptr %acc9, align 4, !dbg !11
  store float %380, ptr %acc10, align 4, !dbg !11
  store float %381, ptr %acc11, align 4, !dbg !11
  %382 = load float, ptr %acc12, align 4, !dbg !11
  %383 = load float, ptr %acc13, align 4, !dbg !11
  %384 = load float, ptr %acc14, align 4, !dbg !11
  %385 = load float, ptr %acc15, align 4, !dbg !11
  %386 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %279, i32 %282, i32 %286, i32 %290, i32 %350, i32 %354, float %382, float %383, float %384, float %385), !dbg !11
  %387 = extractvalue { float, float, float, float } %386, 0, !dbg !11
  %388 = extractvalue { float, float, float, float } %386, 1, !dbg !11
  %389 = extractvalue { float, float, float, float } %386, 2, !dbg !11
  %390 = extractvalue { float, float, float, float } %386, 3, !dbg !11
  store float %387, ptr %acc12, align 4, !dbg !11
  store float %388, ptr %acc13, align 4, !dbg !11
  store float %389, ptr %acc14, align 4, !dbg !11
  store float %390, ptr %acc15, align 4, !dbg !11
  %391 = load float, ptr %acc16, align 4, !dbg !11
  %392 = load float, ptr %acc17, align 4, !dbg !11
  %393 = load float, ptr %acc18, align 4, !dbg !11
  %394 = load float, ptr %acc19, align 4, !dbg !11
  %395 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %299, i32 %302, i32 %306, i32 %310, i32 %317, i32 %321, float %391, float %392, float %393, float %394), !dbg !11
  %396 = extractvalue { float, float, float, float } %395, 0, !dbg !11
  %397 = extractvalue { float, float, float, float } %395, 1, !dbg !11
  %398 = extractvalue { float, float, float, float } %395, 2, !dbg !11
  %399 = extractvalue { float, float, float, float } %395, 3, !dbg !11
  store float %396, ptr %acc16, align 4, !dbg !11
  store float %397, ptr %acc17, align 4, !dbg !11
  store float %398, ptr %acc18, align 4, !dbg !11
  store float %399, ptr %acc19, align 4, !dbg !11
  %400 = load float, ptr %acc20, align 4, !dbg !11
  %401 = load float, ptr %acc21, align 4, !dbg !11
  %402 = load float, ptr %acc22, align 4, !dbg !11
  %403 = load float, ptr %acc23, align 4, !dbg !11
  %404 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %299, i32 %302, i32 %306, i32 %310, i32 %328, i32 %332, float %400, float %401, float %402, float %403), !dbg !11
  %405 = extractvalue { float, float, float, float } %404, 0, !dbg !11
  %406 = extractvalue { float, float, float, float } %404, 1, !dbg !11
  %407 = extractvalue { float, float, float, float } %404, 2, !dbg !11
  %408 = extractvalue { float, float, float, float } %404, 3, !dbg !11
  store float %405, ptr %acc20, align 4, !dbg !11
  store float %406, ptr %acc21, align 4, !dbg !11
  store float %407, ptr %acc22, align 4, !dbg !11
  store float %408, ptr %acc23, align 4, !dbg !11
  %409 = load float, ptr %acc24, align 4, !dbg !11
  %410 = load float, ptr %acc25, align 4, !dbg !11
  %411 = load float, ptr %acc26, align 4, !dbg !11
  %412 = load float, ptr %acc27, align 4, !dbg !11
  %413 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %299, i32 %302, i32 %306, i32 %310, i32 %339, i32 %343, float %409, float %410, float %411, float %412), !dbg !11
  %414 = extractvalue { float, float, float, float } %413, 0, !dbg !11
  %415 = extractvalue { float, float, float, float } %413, 1, !dbg !11
  %416 = extractvalue { float, float, float, float } %413, 2, !dbg !11
  %417 = extractvalue { float, float, float, float } %413, 3, !dbg !11
  store float %414, ptr %acc24, align 4, !dbg !11
  store float %415, ptr %acc25, align 4, !dbg !11
  store float %416, ptr %acc26, align 4, !dbg !11
  store float %417, ptr %acc27, align 4, !dbg !11
  %418 = load float, ptr %acc28, align 4, !dbg !11
  %419 = load float, ptr %acc29, align 4, !dbg !11
  %420 = load float, ptr %acc30, align 4, !dbg !11
  %421 = load float, ptr %acc31, align 4, !dbg !11
  %422 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %299, i32 %302, i32 %306, i32 %310, i32 %350, i32 %354, float %418, float %419, float %420, float %421), !dbg !11
  %423 = extractvalue { float, float, float, float } %422, 0, !dbg !11
  %424 = extractvalue { float, float, float, float } %422, 1, !dbg !11
  %425 = extractvalue { float, float, float, float } %422, 2, !dbg !11
  %426 = extractvalue { float, float, float, float } %422, 3, !dbg !11
  store float %423, ptr %acc28, align 4, !dbg !11
  store float %424, ptr %acc29, align 4, !dbg !11
  store float %425, ptr %acc30, align 4, !dbg !11
  store float %426, ptr %acc31, align 4, !dbg !11
  call void @llvm.nvvm.barrier0(), !dbg !11
  %iv.next43 = add nsw i64 %iv, 32, !dbg !9
  br label %loop.header, !dbg !9

if.then40:                                        ; preds = %loop.body37
  %427 = add i64 0, %107, !dbg !12
  %428 = mul i64 %427, 80, !dbg !12
  %429 = add i64 %428, %106, !dbg !12
  %430 = getelementptr inbounds bfloat, ptr %arg2, i64 %429, !dbg !12
  %431 = load bfloat, ptr %430, align 2, !dbg !12
  %432 = bitcast bfloat %431 to i16, !dbg !9
  store i16 %432, ptr %staged, align 2, !dbg !9
  br label %if.end41, !dbg !9

if.end41:                                         ; preds = %if.then40, %loop.body37
  %433 = mul i64 %104, 40, !dbg !9
  %434 = add i64 %433, %105, !dbg !9
  %435 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %434, !dbg !9
  %436 = load i16, ptr %staged, align 2, !dbg !9
  store i16 %436, ptr %435, align 2, !dbg !9
  %iv.next42 = add nsw i64 %iv39, 1, !dbg !9
  br label %loop.header36, !dbg !9

loop.header44:                                    ; preds = %if.end49, %loop.exit
  %iv47 = phi i64 [ 0, %loop.exit ], [ %iv.next50, %if.end49 ], !dbg !9
  %437 = icmp slt i64 %iv47, 32, !dbg !9
  br i1 %437, label %loop.body45, label %loop.exit46, !dbg !9

loop.body45:                                      ; preds = %loop.header44
  %438 = udiv i64 %iv47, 16, !dbg !9
  %439 = udiv i64 %iv47, 4, !dbg !9
  %440 = urem i64 %439, 4, !dbg !9
  %441 = urem i64 %iv47, 4, !dbg !9
  %442 = udiv i64 %441, 2, !dbg !9
  %443 = mul i64 %442, 8, !dbg !9
  %444 = add i64 %4, %443, !dbg !9
  %445 = mul i64 %438, 16, !dbg !9
  %446 = add i64 %445, %444, !dbg !9
  %447 = mul i64 %6, 32, !dbg !9
  %448 = add i64 %14, %447, !dbg !9
  %449 = add i64 %448, %446, !dbg !9
  %450 = urem i64 %441, 2, !dbg !9
  %451 = mul i64 %5, 2, !dbg !9
  %452 = add i64 %451, %450, !dbg !9
  %453 = mul i64 %440, 8, !dbg !9
  %454 = add i64 %453, %452, !dbg !9
  %455 = mul i64 %7, 32, !dbg !9
  %456 = add i64 %15, %455, !dbg !9
  %457 = add i64 %456, %454, !dbg !9
  %458 = icmp slt i64 %457, 80, !dbg !9
  %459 = icmp slt i64 %449, 64, !dbg !9
  %460 = and i1 %459, %458, !dbg !9
  br i1 %460, label %if.then48, label %if.end49, !dbg !9

loop.exit46:                                      ; preds = %loop.header44
  ret void, !dbg !9

if.then48:                                        ; preds = %loop.body45
  %461 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 %iv47, !dbg !9
  %462 = load float, ptr %461, align 4, !dbg !9
  %463 = fptrunc float %462 to bfloat, !dbg !9
  %464 = add i64 0, %457, !dbg !13
  %465 = getelementptr inbounds bfloat, ptr %arg0, i64 %464, !dbg !13
  %466 = load bfloat, ptr %465, align 2, !dbg !13
  %467 = fpext bfloat %463 to float, !dbg !14
  %468 = fpext bfloat %466 to float, !dbg !14
  %469 = fadd float %467, %468, !dbg !14
  %470 = fptrunc float %469 to bfloat, !dbg !14
  %471 = add i64 0, %449, !dbg !9
  %472 = mul i64 %471, 80, !dbg !9
  %473 = add i64 %472, %457, !dbg !9
  %474 = getelementptr inbounds bfloat, ptr %arg3, i64 %473, !dbg !9
  store bfloat %470, ptr %474, align 2, !dbg !9
  br label %if.end49, !dbg !9

if.end49:                                         ; preds = %if.then48, %loop.body45
  %iv.next50 = add nsw i64 %iv47, 1, !dbg !9
  br label %loop.header44, !dbg !9
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier0() #2

; Function Attrs: nocallback nounwind memory(none)
declare { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32, i32, i32, i32, i32, i32, float, float, float, float) #3

attributes #0 = { nounwind }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { nocallback nounwind memory(none) }

!llvm.module.flags = !{!0, !1}
!llvm.dbg.cu = !{!2}
!nvvm.annotations = !{!4, !5}

!0 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!1 = !{i32 2, !"Debug Info Version", i32 3}
!2 = distinct !DICompileUnit(language: DW_LANG_C, file: !3, producer: "hloscope", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly)
!3 = !DIFile(filename: "gemm_bf16.hlo", directory: "")
!4 = !{ptr @gemm_fusion_d_1, !"kernel", i32 1}
!5 = !{ptr @gemm_fusion_d_1, !"maxntidx", i32 128}
!6 = distinct !DISubprogram(name: "gemm_fusion_d_1", linkageName: "gemm_fusion_d_1", scope: !3, file: !3, line: 16, type: !7, scopeLine: 16, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2)
!7 = !DISubroutineType(types: !8)
!8 = !{}
!9 = !DILocation(line: 16, scope: !6)
!10 = !DILocation(line: 5, scope: !6)
!11 = !DILocation(line: 7, scope: !6)
!12 = !DILocation(line: 4, scope: !6)
!13 = !DILocation(line: 6, scope: !6)
!14 = !DILocation(line: 9, scope: !6)
