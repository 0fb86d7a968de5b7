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
  %16 = urem i64 %3, 8, !dbg !9
  %17 = udiv i64 %3, 8, !dbg !9
  %18 = and i64 %17, 1, !dbg !9
  %19 = mul i64 %18, 8, !dbg !9
  %20 = add i64 %19, %16, !dbg !9
  %21 = lshr i64 %17, 1, !dbg !9
  %22 = mul i64 %21, 8, !dbg !9
  %23 = lshr i64 %17, 1, !dbg !9
  %24 = mul i64 %23, 8, !dbg !9
  %25 = add i64 %24, %16, !dbg !9
  %26 = and i64 %17, 1, !dbg !9
  %27 = mul i64 %26, 8, !dbg !9
  br label %loop.header, !dbg !9

loop.header:                                      ; preds = %loop.exit38, %entry
  %iv = phi i64 [ 0, %entry ], [ %iv.next43, %loop.exit38 ], !dbg !9
  %28 = icmp slt i64 %iv, 96, !dbg !9
  br i1 %28, label %loop.body, label %loop.exit, !dbg !9

loop.body:                                        ; preds = %loop.header
  br label %loop.header32, !dbg !9

loop.exit:                                        ; preds = %loop.header
  %29 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 0, !dbg !9
  %30 = load float, ptr %acc, align 4, !dbg !9
  store float %30, ptr %29, align 4, !dbg !9
  %31 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 1, !dbg !9
  %32 = load float, ptr %acc1, align 4, !dbg !9
  store float %32, ptr %31, align 4, !dbg !9
  %33 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 2, !dbg !9
  %34 = load float, ptr %acc2, align 4, !dbg !9
  store float %34, ptr %33, align 4, !dbg !9
  %35 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 3, !dbg !9
  %36 = load float, ptr %acc3, align 4, !dbg !9
  store float %36, ptr %35, align 4, !dbg !9
  %37 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 4, !dbg !9
  %38 = load float, ptr %acc4, align 4, !dbg !9
  store float %38, ptr %37, align 4, !dbg !9
  %39 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 5, !dbg !9
  %40 = load float, ptr %acc5, align 4, !dbg !9
  store float %40, ptr %39, align 4, !dbg !9
  %41 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 6, !dbg !9
  %42 = load float, ptr %acc6, align 4, !dbg !9
  store float %42, ptr %41, align 4, !dbg !9
  %43 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 7, !dbg !9
  %44 = load float, ptr %acc7, align 4, !dbg !9
  store float %44, ptr %43, align 4, !dbg !9
  %45 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 8, !dbg !9
  %46 = load float, ptr %acc8, align 4, !dbg !9
  store float %46, ptr %45, align 4, !dbg !9
  %47 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 9, !dbg !9
  %48 = load float, ptr %acc9, align 4, !dbg !9
  store float %48, ptr %47, align 4, !dbg !9
  %49 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 10, !dbg !9
  %50 = load float, ptr %acc10, align 4, !dbg !9
  store float %50, ptr %49, align 4, !dbg !9
  %51 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 11, !dbg !9
  %52 = load float, ptr %acc11, align 4, !dbg !9
  store float %52, ptr %51, align 4, !dbg !9
  %53 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 12, !dbg !9
  %54 = load float, ptr %acc12, align 4, !dbg !9
  store float %54, ptr %53, align 4, !dbg !9
  %55 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 13, !dbg !9
  %56 = load float, ptr %acc13, align 4, !dbg !9
  store float %56, ptr %55, align 4, !dbg !9
  %57 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 14, !dbg !9
  %58 = load float, ptr %acc14, align 4, !dbg !9
  store float %58, ptr %57, align 4, !dbg !9
  %59 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 15, !dbg !9
  %60 = load float, ptr %acc15, align 4, !dbg !9
  store float %60, ptr %59, align 4, !dbg !9
  %61 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 16, !dbg !9
  %62 = load float, ptr %acc16, align 4, !dbg !9
  store float %62, ptr %61, align 4, !dbg !9
  %63 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 17, !dbg !9
  %64 = load float, ptr %acc17, align 4, !dbg !9
  store float %64, ptr %63, align 4, !dbg !9
  %65 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 18, !dbg !9
  %66 = load float, ptr %acc18, align 4, !dbg !9
  store float %66, ptr %65, align 4, !dbg !9
  %67 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 19, !dbg !9
  %68 = load float, ptr %acc19, align 4, !dbg !9
  store float %68, ptr %67, align 4, !dbg !9
  %69 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 20, !dbg !9
  %70 = load float, ptr %acc20, align 4, !dbg !9
  store float %70, ptr %69, align 4, !dbg !9
  %71 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 21, !dbg !9
  %72 = load float, ptr %acc21, align 4, !dbg !9
  store float %72, ptr %71, align 4, !dbg !9
  %73 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 22, !dbg !9
  %74 = load float, ptr %acc22, align 4, !dbg !9
  store float %74, ptr %73, align 4, !dbg !9
  %75 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 23, !dbg !9
  %76 = load float, ptr %acc23, align 4, !dbg !9
  store float %76, ptr %75, align 4, !dbg !9
  %77 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 24, !dbg !9
  %78 = load float, ptr %acc24, align 4, !dbg !9
  store float %78, ptr %77, align 4, !dbg !9
  %79 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 25, !dbg !9
  %80 = load float, ptr %acc25, align 4, !dbg !9
  store float %80, ptr %79, align 4, !dbg !9
  %81 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 26, !dbg !9
  %82 = load float, ptr %acc26, align 4, !dbg !9
  store float %82, ptr %81, align 4, !dbg !9
  %83 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 27, !dbg !9
  %84 = load float, ptr %acc27, align 4, !dbg !9
  store float %84, ptr %83, align 4, !dbg !9
  %85 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 28, !dbg !9
  %86 = load float, ptr %acc28, align 4, !dbg !9
  store float %86, ptr %85, align 4, !dbg !9
  %87 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 29, !dbg !9
  %88 = load float, ptr %acc29, align 4, !dbg !9
  store float %88, ptr %87, align 4, !dbg !9
  %89 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 30, !dbg !9
  %90 = load float, ptr %acc30, align 4, !dbg !9
  store float %90, ptr %89, align 4, !dbg !9
  %91 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 31, !dbg !9
  %92 = load float, ptr %acc31, align 4, !dbg !9
  store float %92, ptr %91, align 4, !dbg !9
  br label %loop.header44, !dbg !9

loop.header32:                                    ; preds = %if.end, %loop.body
  %iv35 = phi i64 [ 0, %loop.body ], [ %iv.next, %if.end ], !dbg !9
  %93 = icmp slt i64 %iv35, 16, !dbg !9
  br i1 %93, label %loop.body33, label %loop.exit34, !dbg !9

loop.body33:                                      ; preds = %loop.header32
  %94 = mul i64 %iv35, 128, !dbg !9
  %95 = add i64 %94, %1, !dbg !9
  %96 = udiv i64 %95, 32, !dbg !9
  %97 = urem i64 %95, 32, !dbg !9
  %98 = add i64 %14, %96, !dbg !9
  %99 = add i64 %iv, %97, !dbg !9
  %100 = icmp slt i64 %99, 96, !dbg !9
  %101 = icmp slt i64 %98, 64, !dbg !9
  %102 = and i1 %101, %100, !dbg !9
  store i16 0, ptr %staged, align 2, !dbg !9
  br i1 %102, label %if.then, label %if.end, !dbg !9

loop.exit34:                                      ; preds = %loop.header32
  br label %loop.header36, !dbg !9

if.then:                                          ; preds = %loop.body33
  %103 = add i64 0, %98, !dbg !10
  %104 = mul i64 %103, 96, !dbg !10
  %105 = add i64 %104, %99, !dbg !10
  %106 = getelementptr inbounds bfloat, ptr %arg1, i64 %105, !dbg !10
  %107 = load bfloat, ptr %106, align 2, !dbg !10
  %108 = bitcast bfloat %107 to i16, !dbg !9
  store i16 %108, ptr %staged, align 2, !dbg !9
  br label %if.end, !dbg !9

if.end:                                           ; preds = %if.then, %loop.body33
  %109 = mul i64 %96, 40, !dbg !9
  %110 = add i64 %109, %97, !dbg !9
  %111 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %110, !dbg !9
  %112 = load i16, ptr %staged, align 2, !dbg !9
  store i16 %112, ptr %111, align 2, !dbg !9
  %iv.next = add nsw i64 %iv35, 1, !dbg !9
  br label %loop.header32, !dbg !9

loop.header36:                                    ; preds = %if.end41, %loop.exit34
  %iv39 = phi i64 [ 0, %loop.exit34 ], [ %iv.next42, %if.end41 ], !dbg !9
  %113 = icmp slt i64 %iv39, 16, !dbg !9
  br i1 %113, label %loop.body37, label %loop.exit38, !dbg !9

loop.body37:                                      ; preds = %loop.header36
  %114 = mul i64 %iv39, 128, !dbg !9
  %115 = add i64 %114, %1, !dbg !9
  %116 = udiv i64 %115, 32, !dbg !9
  %117 = urem i64 %115, 32, !dbg !9
  %118 = add i64 %15, %116, !dbg !9
  %119 = add i64 %iv, %117, !dbg !9
  %120 = icmp slt i64 %119, 96, !dbg !9
  %121 = icmp slt i64 %118, 80, !dbg !9
  %122 = and i1 %121, %120, !dbg !9
  store i16 0, ptr %staged, align 2, !dbg !9
  br i1 %122, label %if.then40, label %if.end41, !dbg !9

loop.exit38:                                      ; preds = %loop.header36
  call void @llvm.nvvm.barrier0(), !dbg !9
  %123 = mul i64 %6, 32, !dbg !11
  %124 = add i64 %123, 0, !dbg !11
  %125 = add i64 %124, %20, !dbg !11
  %126 = add i64 0, %22, !dbg !11
  %127 = mul i64 %125, 40, !dbg !11
  %128 = add i64 %127, %126, !dbg !11
  %129 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %128, !dbg !11
  %130 = addrspacecast ptr %129 to ptr addrspace(3), !dbg !11
  %131 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %130), !dbg !11
  %132 = extractvalue { i32, i32, i32, i32 } %131, 0, !dbg !11
  %133 = extractvalue { i32, i32, i32, i32 } %131, 1, !dbg !11
  %134 = extractvalue { i32, i32, i32, i32 } %131, 2, !dbg !11
  %135 = extractvalue { i32, i32, i32, i32 } %131, 3, !dbg !11
  %136 = mul i64 %6, 32, !dbg !11
  %137 = add i64 %136, 16, !dbg !11
  %138 = add i64 %137, %20, !dbg !11
  %139 = add i64 0, %22, !dbg !11
  %140 = mul i64 %138, 40, !dbg !11
  %141 = add i64 %140, %139, !dbg !11
  %142 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %141, !dbg !11
  %143 = addrspacecast ptr %142 to ptr addrspace(3), !dbg !11
  %144 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %143), !dbg !11
  %145 = extractvalue { i32, i32, i32, i32 } %144, 0, !dbg !11
  %146 = extractvalue { i32, i32, i32, i32 } %144, 1, !dbg !11
  %147 = extractvalue { i32, i32, i32, i32 } %144, 2, !dbg !11
  %148 = extractvalue { i32, i32, i32, i32 } %144, 3, !dbg !11
  %149 = mul i64 %7, 32, !dbg !11
  %150 = add i64 %149, 0, !dbg !11
  %151 = add i64 %150, %25, !dbg !11
  %152 = add i64 0, %27, !dbg !11
  %153 = mul i64 %151, 40, !dbg !11
  %154 = add i64 %153, %152, !dbg !11
  %155 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %154, !dbg !11
  %156 = addrspacecast ptr %155 to ptr addrspace(3), !dbg !11
  %157 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %156), !dbg !11
  %158 = extractvalue { i32, i32, i32, i32 } %157, 0, !dbg !11
  %159 = extractvalue { i32, i32, i32, i32 } %157, 1, !dbg !11
  %160 = extractvalue { i32, i32, i32, i32 } %157, 2, !dbg !11
  %161 = extractvalue { i32, i32, i32, i32 } %157, 3, !dbg !11
  %162 = mul i64 %7, 32, !dbg !11
  %163 = add i64 %162, 16, !dbg !11
  %164 = add i64 %163, %25, !dbg !11
  %165 = add i64 0, %27, !dbg !11
  %166 = mul i64 %164, 40, !dbg !11
  %167 = add i64 %166, %165, !dbg !11
  %168 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %167, !dbg !11
  %169 = addrspacecast ptr %168 to ptr addrspace(3), !dbg !11
  %170 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %169), !dbg !11
  %171 = extractvalue { i32, i32, i32, i32 } %170, 0, !dbg !11
  %172 = extractvalue { i32, i32, i32, i32 } %170, 1, !dbg !11
  %173 = extractvalue { i32, i32, i32, i32 } %170, 2, !dbg !11
  %174 = extractvalue { i32, i32, i32, i32 } %170, 3, !dbg !11
  %175 = load float, ptr %acc, align 4, !dbg !11
  %176 = load float, ptr %acc1, align 4, !dbg !11
  %177 = load float, ptr %acc2, align 4, !dbg !11
  %178 = load float, ptr %acc3, align 4, !dbg !11
  %179 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %132, i32 %133, i32 %134, i32 %135, i32 %158, i32 %159, float %175, float %176, float %177, float %178), !dbg !11
  %180 = extractvalue { float, float, float, float } %179, 0, !dbg !11
  %181 = extractvalue { float, float, float, float } %179, 1, !dbg !11
  %182 = extractvalue { float, float, float, float } %179, 2, !dbg !11
  %183 = extractvalue { float, float, float, float } %179, 3, !dbg !11
  store float %180, ptr %acc, align 4, !dbg !11
  store float %181, ptr %acc1, align 4, !dbg !11
  store float %182, ptr %acc2, align 4, !dbg !11
  store float %183, ptr %acc3, align 4, !dbg !11
  %184 = load float, ptr %acc4, align 4, !dbg !11
  %185 = load float, ptr %acc5, align 4, !dbg !11
  %186 = load float, ptr %acc6, align 4, !dbg !11
  %187 = load float, ptr %acc7, align 4, !dbg !11
  %188 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %132, i32 %133, i32 %134, i32 %135, i32 %160, i32 %161, float %184, float %185, float %186, float %187), !dbg !11
  %189 = extractvalue { float, float, float, float } %188, 0, !dbg !11
  %190 = extractvalue { float, float, float, float } %188, 1, !dbg !11
  %191 = extractvalue { float, float, float, float } %188, 2, !dbg !11
  %192 = extractvalue { float, float, float, float } %188, 3, !dbg !11
  store float %189, ptr %acc4, align 4, !dbg !11
  store float %190, ptr %acc5, align 4, !dbg !11
  store float %191, ptr %acc6, align 4, !dbg !11
  store float %192, ptr %acc7, align 4, !dbg !11
  %193 = load float, ptr %acc8, align 4, !dbg !11
  %194 = load float, ptr %acc9, align 4, !dbg !11
  %195 = load float, ptr %acc10, align 4, !dbg !11
  %196 = load float, ptr %acc11, align 4, !dbg !11
  %197 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %132, i32 %133, i32 %134, i32 %135, i32 %171, i32 %172, float %193, float %194, float %195, float %196), !dbg !11
  %198 = extractvalue { float, float, float, float } %197, 0, !dbg !11
  %199 = extractvalue { float, float, float, float } %197, 1, !dbg !11
  %200 = extractvalue { float, float, float, float } %197, 2, !dbg !11
  %201 = extractvalue { float, float, float, float } %197, 3, !dbg !11
  store float %198, ptr %acc8, align 4, !dbg !11
  store float %199, ptr %acc9, align 4, !dbg !11
  store float %200, ptr %acc10, align 4, !dbg !11
  store float %201, ptr %acc11, align 4, !dbg !11
  %202 = load float, ptr %acc12, align 4, !dbg !11
  %203 = load float, ptr %acc13, align 4, !dbg !11
  %204 = load float, ptr %acc14, align 4, !dbg !11
  %205 = load float, ptr %acc15, align 4, !dbg !11
  %206 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %132, i32 %133, i32 %134, i32 %135, i32 %173, i32 %174, float %202, float %203, float %204, float %205), !dbg !11
  %207 = extractvalue { float, float, float, float } %206, 0, !dbg !11
  %208 = extractvalue { float, float, float, float } %206, 1, !dbg !11
  %209 = extractvalue { float, float, float, float } %206, 2, !dbg !11
  %210 = extractvalue { float, float, float, float } %206, 3, !dbg !11
  store float %207, ptr %acc12, align 4, !dbg !11
  store float %208, ptr %acc13, align 4, !dbg !11
  store float %209, ptr %acc14, align 4, !dbg !11
  store float %210, ptr %acc15, align 4, !dbg !11
  %211 = load float, ptr %acc16, align 4, !dbg !11
  %212 = load float, ptr %acc17, align 4, !dbg !11
  %213 = load float, ptr %acc18, align 4, !dbg !11
  %214 = load float, ptr %acc19, align 4, !dbg !11
  %215 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %145, i32 %146, i32 %147, i32 %148, i32 %158, i32 %159, float %211, float %212, float %213, float %214), !dbg !11
  %216 = extractvalue { float, float, float, float } %215, 0, !dbg !11
  %217 = extractvalue { float, float, float, float } %215, 1, !dbg !11
  %218 = extractvalue { float, float, float, float } %215, 2, !dbg !11
  %219 = extractvalue { float, float, float, float } %215, 3, !dbg !11
  store float %216, ptr %acc16, align 4, !dbg !11
  store float %217, ptr %acc17, align 4, !dbg !11
  store float %218, ptr %acc18, align 4, !dbg !11
  store float %219, ptr %acc19, align 4, !dbg !11
  %220 = load float, ptr %acc20, align 4, !dbg !11
  %221 = load float, ptr %acc21, align 4, !dbg !11
  %222 = load float, ptr %acc22, align 4, !dbg !11
  %223 = load float, ptr %acc23, align 4, !dbg !11
  %224 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %145, i32 %146, i32 %147, i32 %148, i32 %160, i32 %161, float %220, float %221, float %222, float %223), !dbg !11
  %225 = extractvalue { float, float, float, float } %224, 0, !dbg !11
  %226 = extractvalue { float, float, float, float } %224, 1, !dbg !11
  %227 = extractvalue { float, float, float, float } %224, 2, !dbg !11
  %228 = extractvalue { float, float, float, float } %224, 3, !dbg !11
  store float %225, ptr %acc20, align 4, !dbg !11
  store float %226, ptr %acc21, align 4, !dbg !11
  store float %227, ptr %acc22, align 4, !dbg !11
  store float %228, ptr %acc23, align 4, !dbg !11
  %229 = load float, ptr %acc24, align 4, !dbg !11
  %230 = load float, ptr %acc25, align 4, !dbg !11
  %231 = load float, ptr %acc26, align 4, !dbg !11
  %232 = load float, ptr %acc27, align 4, !dbg !11
  %233 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %145, i32 %146, i32 %147, i32 %148, i32 %171, i32 %172, float %229, float %230, float %231, float %232), !dbg !11
  %234 = extractvalue { float, float, float, float } %233, 0, !dbg !11
  %235 = extractvalue { float, float, float, float } %233, 1, !dbg !11
  %236 = extractvalue { float, float, float, float } %233, 2, !dbg !11
  %237 = extractvalue { float, float, float, float } %233, 3, !dbg !11
  store float %234, ptr %acc24, align 4, !dbg !11
  store float %235, ptr %acc25, align 4, !dbg !11
  store float %236, ptr %acc26, align 4, !dbg !11
  store float %237, ptr %acc27, align 4, !dbg !11
  %238 = load float, ptr %acc28, align 4, !dbg !11
  %239 = load float, ptr %acc29, align 4, !dbg !11
  %240 = load float, ptr %acc30, align 4, !dbg !11
  %241 = load float, ptr %acc31, align 4, !dbg !11
  %242 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %145, i32 %146, i32 %147, i32 %148, i32 %173, i32 %174, float %238, float %239, float %240, float %241), !dbg !11
  %243 = extractvalue { float, float, float, float } %242, 0, !dbg !11
  %244 = extractvalue { float, float, float, float } %242, 1, !dbg !11
  %245 = extractvalue { float, float, float, float } %242, 2, !dbg !11
  %246 = extractvalue { float, float, float, float } %242, 3, !dbg !11
  store float %243, ptr %acc28, align 4, !dbg !11
  store float %244, ptr %acc29, align 4, !dbg !11
  store float %245, ptr %acc30, align 4, !dbg !11
  store float %246, ptr %acc31, align 4, !dbg !11
  %247 = mul i64 %6, 32, !dbg !11
  %248 = add i64 %247, 0, !dbg !11
  %249 = add i64 %248, %20, !dbg !11
  %250 = add i64 16, %22, !dbg !11
  %251 = mul i64 %249, 40, !dbg !11
  %252 = add i64 %251, %250, !dbg !11
  %253 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %252, !dbg !11
  %254 = addrspacecast ptr %253 to ptr addrspace(3), !dbg !11
  %255 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %254), !dbg !11
  %256 = extractvalue { i32, i32, i32, i32 } %255, 0, !dbg !11
  %257 = extractvalue { i32, i32, i32, i32 } %255, 1, !dbg !11
  %258 = extractvalue { i32, i32, i32, i32 } %255, 2, !dbg !11
  %259 = extractvalue { i32, i32, i32, i32 } %255, 3, !dbg !11
  %260 = mul i64 %6, 32, !dbg !11
  %261 = add i64 %260, 16, !dbg !11
  %262 = add i64 %261, %20, !dbg !11
  %263 = add i64 16, %22, !dbg !11
  %264 = mul i64 %262, 40, !dbg !11
  %265 = add i64 %264, %263, !dbg !11
  %266 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %265, !dbg !11
  %267 = addrspacecast ptr %266 to ptr addrspace(3), !dbg !11
  %268 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %267), !dbg !11
  %269 = extractvalue { i32, i32, i32, i32 } %268, 0, !dbg !11
  %270 = extractvalue { i32, i32, i32, i32 } %268, 1, !dbg !11
  %271 = extractvalue { i32, i32, i32, i32 } %268, 2, !dbg !11
  %272 = extractvalue { i32, i32, i32, i32 } %268, 3, !dbg !11
  %273 = mul i64 %7, 32, !dbg !11
  %274 = add i64 %273, 0, !dbg !11
  %275 = add i64 %274, %25, !dbg !11
  %276 = add i64 16, %27, !dbg !11
  %277 = mul i64 %275, 40, !dbg !11
  %278 = add i64 %277, %276, !dbg !11
  %279 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %278, !dbg !11
  %280 = addrspacecast ptr %279 to ptr addrspace(3), !dbg !11
  %281 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %280), !dbg !11
  %282 = extractvalue { i32, i32, i32, i32 } %281, 0, !dbg !11
  %283 = extractvalue { i32, i32, i32, i32 } %281, 1, !dbg !11
  %284 = extractvalue { i32, i32, i32, i32 } %281, 2, !dbg !11
  %285 = extractvalue { i32, i32, i32, i32 } %281, 3, !dbg !11
  %286 = mul i64 %7, 32, !dbg !11
  %287 = add i64 %286, 16, !dbg !11
  %288 = add i64 %287, %25, !dbg !11
  %289 = add i64 16, %27, !dbg !11
  %290 = mul i64 %288, 40, !dbg !11
  %291 = add i64 %290, %289, !dbg !11
  %292 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %291, !dbg !11
  %293 = addrspacecast ptr %292 to ptr addrspace(3), !dbg !11
  %294 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %293), !dbg !11
  %295 = extractvalue { i32, i32, i32, i32 } %294, 0, !dbg !11
  %296 = extractvalue { i32, i32, i32, i32 } %294, 1, !dbg !11
  %297 = extractvalue { i32, i32, i32, i32 } %294, 2, !dbg !11
  %298 = extractvalue { i32, i32, i32, i32 } %294, 3, !dbg !11
  %299 = load float, ptr %acc, align 4, !dbg !11
  %300 = load float, ptr %acc1, align 4, !dbg !11
  %301 = load float, ptr %acc2, align 4, !dbg !11
  %302 = load float, ptr %acc3, align 4, !dbg !11
  %303 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %256, i32 %257, i32 %258, i32 %259, i32 %282, i32 %283, float %299, float %300, float %301, float %302), !dbg !11
  %304 = extractvalue { float, float, float, float } %303, 0, !dbg !11
  %305 = extractvalue { float, float, float, float } %303, 1, !dbg !11
  %306 = extractvalue { float, float, float, float } %303, 2, !dbg !11
  %307 = extractvalue { float, float, float, float } %303, 3, !dbg !11
  store float %304, ptr %acc, align 4, !dbg !11
  store float %305, ptr %acc1, align 4, !dbg !11
  store float %306, ptr %acc2, align 4, !dbg !11
  store float %307, ptr %acc3, align 4, !dbg !11
  %308 = load float, ptr %acc4, align 4, !dbg !11
  %309 = load float, ptr %acc5, align 4, !dbg !11
  %310 = load float, ptr %acc6, align 4, !dbg !11
  %311 = load float, ptr %acc7, align 4, !dbg !11
  %312 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %256, i32 %257, i32 %258, i32 %259, i32 %284, i32 %285, float %308, float %309, float %310, float %311), !dbg !11
  %313 = extractvalue { float, float, float, float } %312, 0, !dbg !11
  %314 = extractvalue { float, float, float, float } %312, 1, !dbg !11
  %315 = extractvalue { float, float, float, float } %312, 2, !dbg !11
  %316 = extractvalue { float, float, float, float } %312, 3, !dbg !11
  store float %313, ptr %acc4, align 4, !dbg !11
  store float %314, ptr %acc5, align 4, !dbg !11
  store float %315, ptr %acc6, align 4, !dbg !11
  store float %316, ptr %acc7, align 4, !dbg !11
  %317 = load float, ptr %acc8, align 4, !dbg !11
  %318 = load float, ptr %acc9, align 4, !dbg !11
  %319 = load float, ptr %acc10, align 4, !dbg !11
  %320 = load float, ptr %acc11, align 4, !dbg !11
  %321 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %256, i32 %257, i32 %258, i32 %259, i32 %295, i32 %296, float %317, float %318, float %319, float %320), !dbg !11
  %322 = extractvalue { float, float, float, float } %321, 0, !dbg !11
  %323 = extractvalue { float, float, float, float } %321, 1, !dbg !11
  %324 = extractvalue { float, float, float, float } %321, 2, !dbg !11
  %325 = extractvalue { float, float, float, float } %321, 3, !dbg !11
  store float %322, ptr %acc8, align 4, !dbg !11
  store float %323, ptr %acc9, align 4, !dbg !11
  store float %324, ptr %acc10, align 4, !dbg !11
  store float %325, ptr %acc11, align 4, !dbg !11
  %326 = load float, ptr %acc12, align 4, !dbg !11
  %327 = load float, ptr %acc13, align 4, !dbg !11
  %328 = load float, ptr %acc14, align 4, !dbg !11
  %329 = load float, ptr %acc15, align 4, !dbg !11
  %330 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %256, i32 %257, i32 %258, i32 %259, i32 %297, i32 %298, float %326, float %327, float %328, float %329), !dbg !11
  %331 = extractvalue { float, float, float, float } %330, 0, !dbg !11
  %332 = extractvalue { float, float, float, float } %330, 1, !dbg !11
  %333 = extractvalue { float, float, float, float } %330, 2, !dbg !11
  %334 = extractvalue { float, float, float, float } %330, 3, !dbg !11
  store float %331, ptr %acc12, align 4, !dbg !11
  store float %332, ptr %acc13, align 4, !dbg !11
  store float %333, ptr %acc14, align 4, !dbg !11
  store float %334, ptr %acc15, align 4, !dbg !11
  %335 = load float, ptr %acc16, align 4, !dbg !11
  %336 = load float, ptr %acc17, align 4, !dbg !11
  %337 = load float, ptr %acc18, align 4, !dbg !11
  %338 = load float, ptr %acc19, align 4, !dbg !11
  %339 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %269, i32 %270, i32 %271, i32 %272, i32 %282, i32 %283, float %335, float %336, float %337, float %338), !dbg !11
  %340 = extractvalue { float, float, float, float } %339, 0, !dbg !11
  %341 = extractvalue { float, float, float, float } %339, 1, !dbg !11
  %342 = extractvalue { float, float, float, float } %339, 2, !dbg !11
  %343 = extractvalue { float, float, float, float } %339, 3, !dbg !11
  store float %340, ptr %acc16, align 4, !dbg !11
  store float %341, ptr %acc17, align 4, !dbg !11
  store float %342, ptr %acc18, align 4, !dbg !11
  store float %343, ptr %acc19, align 4, !dbg !11
  %344 = load float, ptr %acc20, align 4, !dbg !11
  %345 = load float, ptr %acc21, align 4, !dbg !11
  %346 = load float, ptr %acc22, align 4, !dbg !11
  %347 = load float, ptr %acc23, align 4, !dbg !11
  %348 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %269, i32 %270, i32 %271, i32 %272, i32 %284, i32 %285, float %344, float %345, float %346, float %347), !dbg !11
  %349 = extractvalue { float, float, float, float } %348, 0, !dbg !11
  %350 = extractvalue { float, float, float, float } %348, 1, !dbg !11
  %351 = extractvalue { float, float, float, float } %348, 2, !dbg !11
  %352 = extractvalue { float, float, float, float } %348, 3, !dbg !11
  store float %349, ptr %acc20, align 4, !dbg !11
  store float %350, ptr %acc21, align 4, !dbg !11
  store float %351, ptr %acc22, align 4, !dbg !11
  store float %352, ptr %acc23, align 4, !dbg !11
  %353 = load float, ptr %acc24, align 4, !dbg !11
  %354 = load float, ptr %acc25, align 4, !dbg !11
  %355 = load float, ptr %acc26, align 4, !dbg !11
  %356 = load float, ptr %acc27, align 4, !dbg !11
  %357 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %269, i32 %270, i32 %271, i32 %272, i32 %295, i32 %296, float %353, float %354, float %355, float %356), !dbg !11
  %358 = extractvalue { float, float, float, float } %357, 0, !dbg !11
  %359 = extractvalue { float, float, float, float } %357, 1, !dbg !11
  %360 = extractvalue { float, float, float, float } %357, 2, !dbg !11
  %361 = extractvalue { float, float, float, float } %357, 3, !dbg !11
  store float %358, ptr %acc24, align 4, !dbg !11
  store float %359, ptr %acc25, align 4, !dbg !11
  store float %360, ptr %acc26, align 4, !dbg !11
  store float %361, ptr %acc27, align 4, !dbg !11
  %362 = load float, ptr %acc28, align 4, !dbg !11
  %363 = load float, ptr %acc29, align 4, !dbg !11
  %364 = load float, ptr %acc30, align 4, !dbg !11
  %365 = load float, ptr %acc31, align 4, !dbg !11
  %366 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %269, i32 %270, i32 %271, i32 %272, i32 %297, i32 %298, float %362, float %363, float %364, float %365), !dbg !11
  %367 = extractvalue { float, float, float, float } %366, 0, !dbg !11
  %368 = extractvalue { float, float, float, float } %366, 1, !dbg !11
  %369 = extractvalue { float, float, float, float } %366, 2, !dbg !11
  %370 = extractvalue { float, float, float, float } %366, 3, !dbg !11
  store float %367, ptr %acc28, align 4, !dbg !11
  store float %368, ptr %acc29, align 4, !dbg !11
  store float %369, ptr %acc30, align 4, !dbg !11
  store float %370, ptr %acc31, align 4, !dbg !11
  call void @llvm.nvvm.barrier0(), !dbg !11
  %iv.next43 = add nsw i64 %iv, 32, !dbg !9
  br label %loop.header, !dbg !9

if.then40:                                        ; preds = %loop.body37
  %371 = add i64 0, %119, !dbg !12
  %372 = mul i64 %371, 80, !dbg !12
  %373 = add i64 %372, %118, !dbg !12
  %374 = getelementptr inbounds bfloat, ptr %arg2, i64 %373, !dbg !12
  %375 = load bfloat, ptr %374, align 2, !dbg !12
  %376 = bitcast bfloat %375 to i16, !dbg !9
  store i16 %376, ptr %staged, align 2, !dbg !9
  br label %if.end41, !dbg !9

if.end41:                                         ; preds = %if.then40, %loop.body37
  %377 = mul i64 %116, 40, !dbg !9
  %378 = add i64 %377, %117, !dbg !9
  %379 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %378, !dbg !9
  %380 = load i16, ptr %staged, align 2, !dbg !9
  store i16 %380, ptr %379, align 2, !dbg !9
  %iv.next42 = add nsw i64 %iv39, 1, !dbg !9
  br label %loop.header36, !dbg !9

loop.header44:                                    ; preds = %if.end49, %loop.exit
  %iv47 = phi i64 [ 0, %loop.exit ], [ %iv.next50, %if.end49 ], !dbg !9
  %381 = icmp slt i64 %iv47, 32, !dbg !9
  br i1 %381, label %loop.body45, label %loop.exit46, !dbg !9

loop.body45:                                      ; preds = %loop.header44
  %382 = udiv i64 %iv47, 16, !dbg !9
  %383 = udiv i64 %iv47, 4, !dbg !9
  %384 = urem i64 %383, 4, !dbg !9
  %385 = urem i64 %iv47, 4, !dbg !9
  %386 = udiv i64 %385, 2, !dbg !9
  %387 = mul i64 %386, 8, !dbg !9
  %388 = add i64 %4, %387, !dbg !9
  %389 = mul i64 %382, 16, !dbg !9
  %390 = add i64 %389, %388, !dbg !9
  %391 = mul i64 %6, 32, !dbg !9
  %392 = add i64 %14, %391, !dbg !9
  %393 = add i64 %392, %390, !dbg !9
  %394 = urem i64 %385, 2, !dbg !9
  %395 = mul i64 %5, 2, !dbg !9
  %396 = add i64 %395, %394, !dbg !9
  %397 = mul i64 %384, 8, !dbg !9
  %398 = add i64 %397, %396, !dbg !9
  %399 = mul i64 %7, 32, !dbg !9
  %400 = add i64 %15, %399, !dbg !9
  %401 = add i64 %400, %398, !dbg !9
  %402 = icmp slt i64 %401, 80, !dbg !9
  %403 = icmp slt i64 %393, 64, !dbg !9
  %404 = and i1 %403, %402, !dbg !9
  br i1 %404, label %if.then48, label %if.end49, !dbg !9

loop.exit46:                                      ; preds = %loop.header44
  ret void, !dbg !9

if.then48:                                        ; preds = %loop.body45
  %405 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 %iv47, !dbg !9
  %406 = load float, ptr %405, align 4, !dbg !9
  %407 = fptrunc float %406 to bfloat, !dbg !9
  %408 = add i64 0, %401, !dbg !13
  %409 = getelementptr inbounds bfloat, ptr %arg0, i64 %408, !dbg !13
  %410 = load bfloat, ptr %409, align 2, !dbg !13
  %411 = fpext bfloat %407 to float, !dbg !14
  %412 = fpext bfloat %410 to float, !dbg !14
  %413 = fadd float %411, %412, !dbg !14
  %414 = fptrunc float %413 to bfloat, !dbg !14
  %415 = add i64 0, %393, !dbg !9
  %416 = mul i64 %415, 80, !dbg !9
  %417 = add i64 %416, %401, !dbg !9
  %418 = getelementptr inbounds bfloat, ptr %arg3, i64 %417, !dbg !9
  store bfloat %414, ptr %418, align 2, !dbg !9
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

; Function Attrs: nocallback nounwind memory(argmem: read)
declare { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) nocapture readonly) #3

; Function Attrs: nocallback nounwind memory(none)
declare { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32, i32, i32, i32, i32, i32, float, float, float, float) #4

attributes #0 = { nounwind }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { nocallback nounwind memory(argmem: read) }
attributes #4 = { nocallback nounwind memory(none) }

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
