; ModuleID = 'gemm_fusion_d_1'
source_filename = "gemm_fusion_d_1"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@gemm_fusion_d_1_lhs_tile = internal addrspace(3) global [5120 x i16] poison, align 16
@gemm_fusion_d_1_rhs_tile = internal addrspace(3) global [4608 x i16] poison, align 16

; Function Attrs: nounwind
define void @gemm_fusion_d_1(ptr noalias readonly align 16 dereferenceable(160) %arg0, ptr noalias readonly align 16 dereferenceable(12288) %arg1, ptr noalias readonly align 16 dereferenceable(15360) %arg2, ptr noalias align 16 dereferenceable(10240) %arg3) #0 !dbg !6 {
entry:
  %accumulators = alloca [32 x float], align 4, !dbg !9
  %chunk = alloca <8 x i16>, align 16, !dbg !9
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
  %28 = add i64 0, %1, !dbg !10
  %29 = udiv i64 %28, 4, !dbg !10
  %30 = urem i64 %28, 4, !dbg !10
  %31 = mul i64 %30, 8, !dbg !10
  %32 = add i64 %14, %29, !dbg !10
  %33 = add i64 0, %31, !dbg !10
  %34 = icmp slt i64 %33, 96, !dbg !10
  %35 = icmp slt i64 %32, 64, !dbg !10
  %36 = and i1 %35, %34, !dbg !10
  %37 = select i1 %36, i64 %32, i64 0, !dbg !10
  %38 = select i1 %36, i64 %33, i64 0, !dbg !10
  %39 = add i64 0, %37, !dbg !10
  %40 = mul i64 %39, 96, !dbg !10
  %41 = add i64 %40, %38, !dbg !10
  %42 = getelementptr inbounds bfloat, ptr %arg1, i64 %41, !dbg !10
  %43 = mul i64 %29, 40, !dbg !10
  %44 = add i64 %43, %31, !dbg !10
  %45 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %44, !dbg !10
  %46 = select i1 %36, i32 16, i32 0, !dbg !10
  %47 = addrspacecast ptr %45 to ptr addrspace(3), !dbg !10
  %48 = addrspacecast ptr %42 to ptr addrspace(1), !dbg !10
  call void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3) %47, ptr addrspace(1) %48, i32 %46), !dbg !10
  %49 = add i64 128, %1, !dbg !10
  %50 = udiv i64 %49, 4, !dbg !10
  %51 = urem i64 %49, 4, !dbg !10
  %52 = mul i64 %51, 8, !dbg !10
  %53 = add i64 %14, %50, !dbg !10
  %54 = add i64 0, %52, !dbg !10
  %55 = icmp slt i64 %54, 96, !dbg !10
  %56 = icmp slt i64 %53, 64, !dbg !10
  %57 = and i1 %56, %55, !dbg !10
  %58 = select i1 %57, i64 %53, i64 0, !dbg !10
  %59 = select i1 %57, i64 %54, i64 0, !dbg !10
  %60 = add i64 0, %58, !dbg !10
  %61 = mul i64 %60, 96, !dbg !10
  %62 = add i64 %61, %59, !dbg !10
  %63 = getelementptr inbounds bfloat, ptr %arg1, i64 %62, !dbg !10
  %64 = mul i64 %50, 40, !dbg !10
  %65 = add i64 %64, %52, !dbg !10
  %66 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %65, !dbg !10
  %67 = select i1 %57, i32 16, i32 0, !dbg !10
  %68 = addrspacecast ptr %66 to ptr addrspace(3), !dbg !10
  %69 = addrspacecast ptr %63 to ptr addrspace(1), !dbg !10
  call void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3) %68, ptr addrspace(1) %69, i32 %67), !dbg !10
  %70 = add i64 0, %1, !dbg !10
  %71 = urem i64 %70, 8, !dbg !10
  %72 = mul i64 %71, 8, !dbg !10
  %73 = udiv i64 %70, 8, !dbg !10
  %74 = add i64 %15, %72, !dbg !10
  %75 = add i64 0, %73, !dbg !10
  %76 = icmp slt i64 %75, 96, !dbg !10
  %77 = icmp slt i64 %74, 80, !dbg !10
  %78 = and i1 %77, %76, !dbg !10
  %79 = select i1 %78, i64 %74, i64 0, !dbg !10
  %80 = select i1 %78, i64 %75, i64 0, !dbg !10
  %81 = add i64 0, %80, !dbg !10
  %82 = mul i64 %81, 80, !dbg !10
  %83 = add i64 %82, %79, !dbg !10
  %84 = getelementptr inbounds bfloat, ptr %arg2, i64 %83, !dbg !10
  %85 = mul i64 %73, 72, !dbg !10
  %86 = add i64 %85, %72, !dbg !10
  %87 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %86, !dbg !10
  %88 = select i1 %78, i32 16, i32 0, !dbg !10
  %89 = addrspacecast ptr %87 to ptr addrspace(3), !dbg !10
  %90 = addrspacecast ptr %84 to ptr addrspace(1), !dbg !10
  call void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3) %89, ptr addrspace(1) %90, i32 %88), !dbg !10
  %91 = add i64 128, %1, !dbg !10
  %92 = urem i64 %91, 8, !dbg !10
  %93 = mul i64 %92, 8, !dbg !10
  %94 = udiv i64 %91, 8, !dbg !10
  %95 = add i64 %15, %93, !dbg !10
  %96 = add i64 0, %94, !dbg !10
  %97 = icmp slt i64 %96, 96, !dbg !10
  %98 = icmp slt i64 %95, 80, !dbg !10
  %99 = and i1 %98, %97, !dbg !10
  %100 = select i1 %99, i64 %95, i64 0, !dbg !10
  %101 = select i1 %99, i64 %96, i64 0, !dbg !10
  %102 = add i64 0, %101, !dbg !10
  %103 = mul i64 %102, 80, !dbg !10
  %104 = add i64 %103, %100, !dbg !10
  %105 = getelementptr inbounds bfloat, ptr %arg2, i64 %104, !dbg !10
  %106 = mul i64 %94, 72, !dbg !10
  %107 = add i64 %106, %93, !dbg !10
  %108 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %107, !dbg !10
  %109 = select i1 %99, i32 16, i32 0, !dbg !10
  %110 = addrspacecast ptr %108 to ptr addrspace(3), !dbg !10
  %111 = addrspacecast ptr %105 to ptr addrspace(1), !dbg !10
  call void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3) %110, ptr addrspace(1) %111, i32 %109), !dbg !10
  call void @llvm.nvvm.cp.async.commit.group(), !dbg !10
  br label %loop.header, !dbg !9

loop.header:                                      ; preds = %if.end35, %entry
  %iv = phi i64 [ 0, %entry ], [ %iv.next, %if.end35 ], !dbg !9
  %112 = icmp slt i64 %iv, 96, !dbg !9
  br i1 %112, label %loop.body, label %loop.exit, !dbg !9

loop.body:                                        ; preds = %loop.header
  %113 = udiv i64 %iv, 32, !dbg !10
  %114 = and i64 %113, 1, !dbg !10
  %115 = xor i64 %114, 1, !dbg !10
  %116 = add i64 %iv, 32, !dbg !10
  %117 = icmp slt i64 %116, 96, !dbg !10
  br i1 %117, label %if.then, label %if.end, !dbg !10

loop.exit:                                        ; preds = %loop.header
  %118 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 0, !dbg !9
  %119 = load float, ptr %acc, align 4, !dbg !9
  store float %119, ptr %118, align 4, !dbg !9
  %120 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 1, !dbg !9
  %121 = load float, ptr %acc1, align 4, !dbg !9
  store float %121, ptr %120, align 4, !dbg !9
  %122 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 2, !dbg !9
  %123 = load float, ptr %acc2, align 4, !dbg !9
  store float %123, ptr %122, align 4, !dbg !9
  %124 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 3, !dbg !9
  %125 = load float, ptr %acc3, align 4, !dbg !9
  store float %125, ptr %124, align 4, !dbg !9
  %126 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 4, !dbg !9
  %127 = load float, ptr %acc4, align 4, !dbg !9
  store float %127, ptr %126, align 4, !dbg !9
  %128 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 5, !dbg !9
  %129 = load float, ptr %acc5, align 4, !dbg !9
  store float %129, ptr %128, align 4, !dbg !9
  %130 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 6, !dbg !9
  %131 = load float, ptr %acc6, align 4, !dbg !9
  store float %131, ptr %130, align 4, !dbg !9
  %132 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 7, !dbg !9
  %133 = load float, ptr %acc7, align 4, !dbg !9
  store float %133, ptr %132, align 4, !dbg !9
  %134 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 8, !dbg !9
  %135 = load float, ptr %acc8, align 4, !dbg !9
  store float %135, ptr %134, align 4, !dbg !9
  %136 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 9, !dbg !9
  %137 = load float, ptr %acc9, align 4, !dbg !9
  store float %137, ptr %136, align 4, !dbg !9
  %138 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 10, !dbg !9
  %139 = load float, ptr %acc10, align 4, !dbg !9
  store float %139, ptr %138, align 4, !dbg !9
  %140 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 11, !dbg !9
  %141 = load float, ptr %acc11, align 4, !dbg !9
  store float %141, ptr %140, align 4, !dbg !9
  %142 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 12, !dbg !9
  %143 = load float, ptr %acc12, align 4, !dbg !9
  store float %143, ptr %142, align 4, !dbg !9
  %144 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 13, !dbg !9
  %145 = load float, ptr %acc13, align 4, !dbg !9
  store float %145, ptr %144, align 4, !dbg !9
  %146 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 14, !dbg !9
  %147 = load float, ptr %acc14, align 4, !dbg !9
  store float %147, ptr %146, align 4, !dbg !9
  %148 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 15, !dbg !9
  %149 = load float, ptr %acc15, align 4, !dbg !9
  store float %149, ptr %148, align 4, !dbg !9
  %150 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 16, !dbg !9
  %151 = load float, ptr %acc16, align 4, !dbg !9
  store float %151, ptr %150, align 4, !dbg !9
  %152 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 17, !dbg !9
  %153 = load float, ptr %acc17, align 4, !dbg !9
  store float %153, ptr %152, align 4, !dbg !9
  %154 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 18, !dbg !9
  %155 = load float, ptr %acc18, align 4, !dbg !9
  store float %155, ptr %154, align 4, !dbg !9
  %156 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 19, !dbg !9
  %157 = load float, ptr %acc19, align 4, !dbg !9
  store float %157, ptr %156, align 4, !dbg !9
  %158 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 20, !dbg !9
  %159 = load float, ptr %acc20, align 4, !dbg !9
  store float %159, ptr %158, align 4, !dbg !9
  %160 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 21, !dbg !9
  %161 = load float, ptr %acc21, align 4, !dbg !9
  store float %161, ptr %160, align 4, !dbg !9
  %162 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 22, !dbg !9
  %163 = load float, ptr %acc22, align 4, !dbg !9
  store float %163, ptr %162, align 4, !dbg !9
  %164 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 23, !dbg !9
  %165 = load float, ptr %acc23, align 4, !dbg !9
  store float %165, ptr %164, align 4, !dbg !9
  %166 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 24, !dbg !9
  %167 = load float, ptr %acc24, align 4, !dbg !9
  store float %167, ptr %166, align 4, !dbg !9
  %168 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 25, !dbg !9
  %169 = load float, ptr %acc25, align 4, !dbg !9
  store float %169, ptr %168, align 4, !dbg !9
  %170 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 26, !dbg !9
  %171 = load float, ptr %acc26, align 4, !dbg !9
  store float %171, ptr %170, align 4, !dbg !9
  %172 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 27, !dbg !9
  %173 = load float, ptr %acc27, align 4, !dbg !9
  store float %173, ptr %172, align 4, !dbg !9
  %174 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 28, !dbg !9
  %175 = load float, ptr %acc28, align 4, !dbg !9
  store float %175, ptr %174, align 4, !dbg !9
  %176 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 29, !dbg !9
  %177 = load float, ptr %acc29, align 4, !dbg !9
  store float %177, ptr %176, align 4, !dbg !9
  %178 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 30, !dbg !9
  %179 = load float, ptr %acc30, align 4, !dbg !9
  store float %179, ptr %178, align 4, !dbg !9
  %180 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 31, !dbg !9
  %181 = load float, ptr %acc31, align 4, !dbg !9
  store float %181, ptr %180, align 4, !dbg !9
  br label %loop.header36, !dbg !9

if.then:                                          ; preds = %loop.body
  %182 = add i64 0, %1, !dbg !10
  %183 = udiv i64 %182, 4, !dbg !10
  %184 = urem i64 %182, 4, !dbg !10
  %185 = mul i64 %184, 8, !dbg !10
  %186 = add i64 %14, %183, !dbg !10
  %187 = add i64 %116, %185, !dbg !10
  %188 = icmp slt i64 %187, 96, !dbg !10
  %189 = icmp slt i64 %186, 64, !dbg !10
  %190 = and i1 %189, %188, !dbg !10
  %191 = select i1 %190, i64 %186, i64 0, !dbg !10
  %192 = select i1 %190, i64 %187, i64 0, !dbg !10
  %193 = add i64 0, %191, !dbg !10
  %194 = mul i64 %193, 96, !dbg !10
  %195 = add i64 %194, %192, !dbg !10
  %196 = getelementptr inbounds bfloat, ptr %arg1, i64 %195, !dbg !10
  %197 = mul i64 %183, 40, !dbg !10
  %198 = add i64 %197, %185, !dbg !10
  %199 = mul i64 %115, 2560, !dbg !10
  %200 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %199, !dbg !10
  %201 = getelementptr inbounds i16, ptr %200, i64 %198, !dbg !10
  %202 = select i1 %190, i32 16, i32 0, !dbg !10
  %203 = addrspacecast ptr %201 to ptr addrspace(3), !dbg !10
  %204 = addrspacecast ptr %196 to ptr addrspace(1), !dbg !10
  call void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3) %203, ptr addrspace(1) %204, i32 %202), !dbg !10
  %205 = add i64 128, %1, !dbg !10
  %206 = udiv i64 %205, 4, !dbg !10
  %207 = urem i64 %205, 4, !dbg !10
  %208 = mul i64 %207, 8, !dbg !10
  %209 = add i64 %14, %206, !dbg !10
  %210 = add i64 %116, %208, !dbg !10
  %211 = icmp slt i64 %210, 96, !dbg !10
  %212 = icmp slt i64 %209, 64, !dbg !10
  %213 = and i1 %212, %211, !dbg !10
  %214 = select i1 %213, i64 %209, i64 0, !dbg !10
  %215 = select i1 %213, i64 %210, i64 0, !dbg !10
  %216 = add i64 0, %214, !dbg !10
  %217 = mul i64 %216, 96, !dbg !10
  %218 = add i64 %217, %215, !dbg !10
  %219 = getelementptr inbounds bfloat, ptr %arg1, i64 %218, !dbg !10
  %220 = mul i64 %206, 40, !dbg !10
  %221 = add i64 %220, %208, !dbg !10
  %222 = mul i64 %115, 2560, !dbg !10
  %223 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %222, !dbg !10
  %224 = getelementptr inbounds i16, ptr %223, i64 %221, !dbg !10
  %225 = select i1 %213, i32 16, i32 0, !dbg !10
  %226 = addrspacecast ptr %224 to ptr addrspace(3), !dbg !10
  %227 = addrspacecast ptr %219 to ptr addrspace(1), !dbg !10
  call void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3) %226, ptr addrspace(1) %227, i32 %225), !dbg !10
  %228 = add i64 0, %1, !dbg !10
  %229 = urem i64 %228, 8, !dbg !10
  %230 = mul i64 %229, 8, !dbg !10
  %231 = udiv i64 %228, 8, !dbg !10
  %232 = add i64 %15, %230, !dbg !10
  %233 = add i64 %116, %231, !dbg !10
  %234 = icmp slt i64 %233, 96, !dbg !10
  %235 = icmp slt i64 %232, 80, !dbg !10
  %236 = and i1 %235, %234, !dbg !10
  %237 = select i1 %236, i64 %232, i64 0, !dbg !10
  %238 = select i1 %236, i64 %233, i64 0, !dbg !10
  %239 = add i64 0, %238, !dbg !10
  %240 = mul i64 %239, 80, !dbg !10
  %241 = add i64 %240, %237, !dbg !10
  %242 = getelementptr inbounds bfloat, ptr %arg2, i64 %241, !dbg !10
  %243 = mul i64 %231, 72, !dbg !10
  %244 = add i64 %243, %230, !dbg !10
  %245 = mul i64 %115, 2304, !dbg !10
  %246 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %245, !dbg !10
  %247 = getelementptr inbounds i16, ptr %246, i64 %244, !dbg !10
  %248 = select i1 %236, i32 16, i32 0, !dbg !10
  %249 = addrspacecast ptr %247 to ptr addrspace(3), !dbg !10
  %250 = addrspacecast ptr %242 to ptr addrspace(1), !dbg !10
  call void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3) %249, ptr addrspace(1) %250, i32 %248), !dbg !10
  %251 = add i64 128, %1, !dbg !10
  %252 = urem i64 %251, 8, !dbg !10
  %253 = mul i64 %252, 8, !dbg !10
  %254 = udiv i64 %251, 8, !dbg !10
  %255 = add i64 %15, %253, !dbg !10
  %256 = add i64 %116, %254, !dbg !10
  %257 = icmp slt i64 %256, 96, !dbg !10
  %258 = icmp slt i64 %255, 80, !dbg !10
  %259 = and i1 %258, %257, !dbg !10
  %260 = select i1 %259, i64 %255, i64 0, !dbg !10
  %261 = select i1 %259, i64 %256, i64 0, !dbg !10
  %262 = add i64 0, %261, !dbg !10
  %263 = mul i64 %262, 80, !dbg !10
  %264 = add i64 %263, %260, !dbg !10
  %265 = getelementptr inbounds bfloat, ptr %arg2, i64 %264, !dbg !10
  %266 = mul i64 %254, 72, !dbg !10
  %267 = add i64 %266, %253, !dbg !10
  %268 = mul i64 %115, 2304, !dbg !10
  %269 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %268, !dbg !10
  %270 = getelementptr inbounds i16, ptr %269, i64 %267, !dbg !10
  %271 = select i1 %259, i32 16, i32 0, !dbg !10
  %272 = addrspacecast ptr %270 to ptr addrspace(3), !dbg !10
  %273 = addrspacecast ptr %265 to ptr addrspace(1), !dbg !10
  call void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3) %272, ptr addrspace(1) %273, i32 %271), !dbg !10
  call void @llvm.nvvm.cp.async.commit.group(), !dbg !10
  call void @llvm.nvvm.cp.async.wait.group(i32 1), !dbg !10
  br label %if.end, !dbg !10

if.end:                                           ; preds = %if.then, %loop.body
  %274 = xor i1 %117, true, !dbg !10
  br i1 %274, label %if.then32, label %if.end33, !dbg !10

if.then32:                                        ; preds = %if.end
  call void @llvm.nvvm.cp.async.wait.group(i32 0), !dbg !10
  br label %if.end33, !dbg !10

if.end33:                                         ; preds = %if.then32, %if.end
  call void @llvm.nvvm.barrier0(), !dbg !10
  %275 = mul i64 %114, 2304, !dbg !10
  %276 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %275, !dbg !10
  %277 = mul i64 %114, 2560, !dbg !10
  %278 = getelementptr inbounds i16, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %277, !dbg !10
  %279 = mul i64 %6, 32, !dbg !10
  %280 = add i64 %279, 0, !dbg !10
  %281 = add i64 %280, %20, !dbg !10
  %282 = add i64 0, %22, !dbg !10
  %283 = mul i64 %281, 40, !dbg !10
  %284 = add i64 %283, %282, !dbg !10
  %285 = getelementptr inbounds i16, ptr %278, i64 %284, !dbg !10
  %286 = addrspacecast ptr %285 to ptr addrspace(3), !dbg !10
  %287 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %286), !dbg !10
  %288 = extractvalue { i32, i32, i32, i32 } %287, 0, !dbg !10
  %289 = extractvalue { i32, i32, i32, i32 } %287, 1, !dbg !10
  %290 = extractvalue { i32, i32, i32, i32 } %287, 2, !dbg !10
  %291 = extractvalue { i32, i32, i32, i32 } %287, 3, !dbg !10
  %292 = mul i64 %6, 32, !dbg !10
  %293 = add i64 %292, 16, !dbg !10
  %294 = add i64 %293, %20, !dbg !10
  %295 = add i64 0, %22, !dbg !10
  %296 = mul i64 %294, 40, !dbg !10
  %297 = add i64 %296, %295, !dbg !10
  %298 = getelementptr inbounds i16, ptr %278, i64 %297, !dbg !10
  %299 = addrspacecast ptr %298 to ptr addrspace(3), !dbg !10
  %300 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %299), !dbg !10
  %301 = extractvalue { i32, i32, i32, i32 } %300, 0, !dbg !10
  %302 = extractvalue { i32, i32, i32, i32 } %300, 1, !dbg !10
  %303 = extractvalue { i32, i32, i32, i32 } %300, 2, !dbg !10
  %304 = extractvalue { i32, i32, i32, i32 } %300, 3, !dbg !10
  %305 = lshr i64 %17, 1, !dbg !10
  %306 = mul i64 %305, 8, !dbg !10
  %307 = mul i64 %7, 32, !dbg !10
  %308 = add i64 %307, 0, !dbg !10
  %309 = add i64 %308, %306, !dbg !10
  %310 = and i64 %17, 1, !dbg !10
  %311 = mul i64 %310, 8, !dbg !10
  %312 = add i64 %311, %16, !dbg !10
  %313 = add i64 0, %312, !dbg !10
  %314 = mul i64 %313, 72, !dbg !10
  %315 = add i64 %314, %309, !dbg !10
  %316 = getelementptr inbounds i16, ptr %276, i64 %315, !dbg !10
  %317 = addrspacecast ptr %316 to ptr addrspace(3), !dbg !10
  %318 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3) %317), !dbg !10
  %319 = extractvalue { i32, i32, i32, i32 } %318, 0, !dbg !10
  %320 = extractvalue { i32, i32, i32, i32 } %318, 1, !dbg !10
  %321 = extractvalue { i32, i32, i32, i32 } %318, 2, !dbg !10
  %322 = extractvalue { i32, i32, i32, i32 } %318, 3, !dbg !10
  %323 = lshr i64 %17, 1, !dbg !10
  %324 = mul i64 %323, 8, !dbg !10
  %325 = mul i64 %7, 32, !dbg !10
  %326 = add i64 %325, 16, !dbg !10
  %327 = add i64 %326, %324, !dbg !10
  %328 = and i64 %17, 1, !dbg !10
  %329 = mul i64 %328, 8, !dbg !10
  %330 = add i64 %329, %16, !dbg !10
  %331 = add i64 0, %330, !dbg !10
  %332 = mul i64 %331, 72, !dbg !10
  %333 = add i64 %332, %327, !dbg !10
  %334 = getelementptr inbounds i16, ptr %276, i64 %333, !dbg !10
  %335 = addrspacecast ptr %334 to ptr addrspace(3), !dbg !10
  %336 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3) %335), !dbg !10
  %337 = extractvalue { i32, i32, i32, i32 } %336, 0, !dbg !10
  %338 = extractvalue { i32, i32, i32, i32 } %336, 1, !dbg !10
  %339 = extractvalue { i32, i32, i32, i32 } %336, 2, !dbg !10
  %340 = extractvalue { i32, i32, i32, i32 } %336, 3, !dbg !10
  %341 = load float, ptr %acc, align 4, !dbg !10
  %342 = load float, ptr %acc1, align 4, !dbg !10
  %343 = load float, ptr %acc2, align 4, !dbg !10
  %344 = load float, ptr %acc3, align 4, !dbg !10
  %345 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %288, i32 %289, i32 %290, i32 %291, i32 %319, i32 %320, float %341, float %342, float %343, float %344), !dbg !10
  %346 = extractvalue { float, float, float, float } %345, 0, !dbg !10
  %347 = extractvalue { float, float, float, float } %345, 1, !dbg !10
  %348 = extractvalue { float, float, float, float } %345, 2, !dbg !10
  %349 = extractvalue { float, float, float, float } %345, 3, !dbg !10
  store float %346, ptr %acc, align 4, !dbg !10
  store float %347, ptr %acc1, align 4, !dbg !10
  store float %348, ptr %acc2, align 4, !dbg !10
  store float %349, ptr %acc3, align 4, !dbg !10
  %350 = load float, ptr %acc4, align 4, !dbg !10
  %351 = load float, ptr %acc5, align 4, !dbg !10
  %352 = load float, ptr %acc6, align 4, !dbg !10
  %353 = load float, ptr %acc7, align 4, !dbg !10
  %354 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %288, i32 %289, i32 %290, i32 %291, i32 %321, i32 %322, float %350, float %351, float %352, float %353), !dbg !10
  %355 = extractvalue { float, float, float, float } %354, 0, !dbg !10
  %356 = extractvalue { float, float, float, float } %354, 1, !dbg !10
  %357 = extractvalue { float, float, float, float } %354, 2, !dbg !10
  %358 = extractvalue { float, float, float, float } %354, 3, !dbg !10
  store float %355, ptr %acc4, align 4, !dbg !10
  store float %356, ptr %acc5, align 4, !dbg !10
  store float %357, ptr %acc6, align 4, !dbg !10
  store float %358, ptr %acc7, align 4, !dbg !10
  %359 = load float, ptr %acc8, align 4, !dbg !10
  %360 = load float, ptr %acc9, align 4, !dbg !10
  %361 = load float, ptr %acc10, align 4, !dbg !10
  %362 = load float, ptr %acc11, align 4, !dbg !10
  %363 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %288, i32 %289, i32 %290, i32 %291, i32 %337, i32 %338, float %359, float %360, float %361, float %362), !dbg !10
  %364 = extractvalue { float, float, float, float } %363, 0, !dbg !10
  %365 = extractvalue { float, float, float, float } %363, 1, !dbg !10
  %366 = extractvalue { float, float, float, float } %363, 2, !dbg !10
  %367 = extractvalue { float, float, float, float } %363, 3, !dbg !10
  store float %364, ptr %acc8, align 4, !dbg !10
  store float %365, ptr %acc9, align 4, !dbg !10
  store float %366, ptr %acc10, align 4, !dbg !10
  store float %367, ptr %acc11, align 4, !dbg !10
  %368 = load float, ptr %acc12, align 4, !dbg !10
  %369 = load float, ptr %acc13, align 4, !dbg !10
  %370 = load float, ptr %acc14, align 4, !dbg !10
  %371 = load float, ptr %acc15, align 4, !dbg !10
  %372 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %288, i32 %289, i32 %290, i32 %291, i32 %339, i32 %340, float %368, float %369, float %370, float %371), !dbg !10
  %373 = extractvalue { float, float, float, float } %372, 0, !dbg !10
  %374 = extractvalue { float, float, float, float } %372, 1, !dbg !10
  %375 = extractvalue { float, float, float, float } %372, 2, !dbg !10
  %376 = extractvalue { float, float, float, float } %372, 3, !dbg !10
  store float %373, ptr %acc12, align 4, !dbg !10
  store float %374, ptr %acc13, align 4, !dbg !10
  store float %375, ptr %acc14, align 4, !dbg !10
  store float %376, ptr %acc15, align 4, !dbg !10
  %377 = load float, ptr %acc16, align 4, !dbg !10
  %378 = load float, ptr %acc17, align 4, !dbg !10
  %379 = load float, ptr %acc18, align 4, !dbg !10
  %380 = load float, ptr %acc19, align 4, !dbg !10
  %381 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %301, i32 %302, i32 %303, i32 %304, i32 %319, i32 %320, float %377, float %378, float %379, float %380), !dbg !10
  %382 = extractvalue { float, float, float, float } %381, 0, !dbg !10
  %383 = extractvalue { float, float, float, float } %381, 1, !dbg !10
  %384 = extractvalue { float, float, float, float } %381, 2, !dbg !10
  %385 = extractvalue { float, float, float, float } %381, 3, !dbg !10
  store float %382, ptr %acc16, align 4, !dbg !10
  store float %383, ptr %acc17, align 4, !dbg !10
  store float %384, ptr %acc18, align 4, !dbg !10
  store float %385, ptr %acc19, align 4, !dbg !10
  %386 = load float, ptr %acc20, align 4, !dbg !10
  %387 = load float, ptr %acc21, align 4, !dbg !10
  %388 = load float, ptr %acc22, align 4, !dbg !10
  %389 = load float, ptr %acc23, align 4, !dbg !10
  %390 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %301, i32 %302, i32 %303, i32 %304, i32 %321, i32 %322, float %386, float %387, float %388, float %389), !dbg !10
  %391 = extractvalue { float, float, float, float } %390, 0, !dbg !10
  %392 = extractvalue { float, float, float, float } %390, 1, !dbg !10
  %393 = extractvalue { float, float, float, float } %390, 2, !dbg !10
  %394 = extractvalue { float, float, float, float } %390, 3, !dbg !10
  store float %391, ptr %acc20, align 4, !dbg !10
  store float %392, ptr %acc21, align 4, !dbg !10
  store float %393, ptr %acc22, align 4, !dbg !10
  store float %394, ptr %acc23, align 4, !dbg !10
  %395 = load float, ptr %acc24, align 4, !dbg !10
  %396 = load float, ptr %acc25, align 4, !dbg !10
  %397 = load float, ptr %acc26, align 4, !dbg !10
  %398 = load float, ptr %acc27, align 4, !dbg !10
  %399 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %301, i32 %302, i32 %303, i32 %304, i32 %337, i32 %338, float %395, float %396, float %397, float %398), !dbg !10
  %400 = extractvalue { float, float, float, float } %399, 0, !dbg !10
  %401 = extractvalue { float, float, float, float } %399, 1, !dbg !10
  %402 = extractvalue { float, float, float, float } %399, 2, !dbg !10
  %403 = extractvalue { float, float, float, float } %399, 3, !dbg !10
  store float %400, ptr %acc24, align 4, !dbg !10
  store float %401, ptr %acc25, align 4, !dbg !10
  store float %402, ptr %acc26, align 4, !dbg !10
  store float %403, ptr %acc27, align 4, !dbg !10
  %404 = load float, ptr %acc28, align 4, !dbg !10
  %405 = load float, ptr %acc29, align 4, !dbg !10
  %406 = load float, ptr %acc30, align 4, !dbg !10
  %407 = load float, ptr %acc31, align 4, !dbg !10
  %408 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %301, i32 %302, i32 %303, i32 %304, i32 %339, i32 %340, float %404, float %405, float %406, float %407), !dbg !10
  %409 = extractvalue { float, float, float, float } %408, 0, !dbg !10
  %410 = extractvalue { float, float, float, float } %408, 1, !dbg !10
  %411 = extractvalue { float, float, float, float } %408, 2, !dbg !10
  %412 = extractvalue { float, float, float, float } %408, 3, !dbg !10
  store float %409, ptr %acc28, align 4, !dbg !10
  store float %410, ptr %acc29, align 4, !dbg !10
  store float %411, ptr %acc30, align 4, !dbg !10
  store float %412, ptr %acc31, align 4, !dbg !10
  %413 = mul i64 %6, 32, !dbg !10
  %414 = add i64 %413, 0, !dbg !10
  %415 = add i64 %414, %20, !dbg !10
  %416 = add i64 16, %22, !dbg !10
  %417 = mul i64 %415, 40, !dbg !10
  %418 = add i64 %417, %416, !dbg !10
  %419 = getelementptr inbounds i16, ptr %278, i64 %418, !dbg !10
  %420 = addrspacecast ptr %419 to ptr addrspace(3), !dbg !10
  %421 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %420), !dbg !10
  %422 = extractvalue { i32, i32, i32, i32 } %421, 0, !dbg !10
  %423 = extractvalue { i32, i32, i32, i32 } %421, 1, !dbg !10
  %424 = extractvalue { i32, i32, i32, i32 } %421, 2, !dbg !10
  %425 = extractvalue { i32, i32, i32, i32 } %421, 3, !dbg !10
  %426 = mul i64 %6, 32, !dbg !10
  %427 = add i64 %426, 16, !dbg !10
  %428 = add i64 %427, %20, !dbg !10
  %429 = add i64 16, %22, !dbg !10
  %430 = mul i64 %428, 40, !dbg !10
  %431 = add i64 %430, %429, !dbg !10
  %432 = getelementptr inbounds i16, ptr %278, i64 %431, !dbg !10
  %433 = addrspacecast ptr %432 to ptr addrspace(3), !dbg !10
  %434 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %433), !dbg !10
  %435 = extractvalue { i32, i32, i32, i32 } %434, 0, !dbg !10
  %436 = extractvalue { i32, i32, i32, i32 } %434, 1, !dbg !10
  %437 = extractvalue { i32, i32, i32, i32 } %434, 2, !dbg !10
  %438 = extractvalue { i32, i32, i32, i32 } %434, 3, !dbg !10
  %439 = lshr i64 %17, 1, !dbg !10
  %440 = mul i64 %439, 8, !dbg !10
  %441 = mul i64 %7, 32, !dbg !10
  %442 = add i64 %441, 0, !dbg !10
  %443 = add i64 %442, %440, !dbg !10
  %444 = and i64 %17, 1, !dbg !10
  %445 = mul i64 %444, 8, !dbg !10
  %446 = add i64 %445, %16, !dbg !10
  %447 = add i64 16, %446, !dbg !10
  %448 = mul i64 %447, 72, !dbg !10
  %449 = add i64 %448, %443, !dbg !10
  %450 = getelementptr inbounds i16, ptr %276, i64 %449, !dbg !10
  %451 = addrspacecast ptr %450 to ptr addrspace(3), !dbg !10
  %452 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3) %451), !dbg !10
  %453 = extractvalue { i32, i32, i32, i32 } %452, 0, !dbg !10
  %454 = extractvalue { i32, i32, i32, i32 } %452, 1, !dbg !10
  %455 = extractvalue { i32, i32, i32, i32 } %452, 2, !dbg !10
  %456 = extractvalue { i32, i32, i32, i32 } %452, 3, !dbg !10
  %457 = lshr i64 %17, 1, !dbg !10
  %458 = mul i64 %457, 8, !dbg !10
  %459 = mul i64 %7, 32, !dbg !10
  %460 = add i64 %459, 16, !dbg !10
  %461 = add i64 %460, %458, !dbg !10
  %462 = and i64 %17, 1, !dbg !10
  %463 = mul i64 %462, 8, !dbg !10
  %464 = add i64 %463, %16, !dbg !10
  %465 = add i64 16, %464, !dbg !10
  %466 = mul i64 %465, 72, !dbg !10
  %467 = add i64 %466, %461, !dbg !10
  %468 = getelementptr inbounds i16, ptr %276, i64 %467, !dbg !10
  %469 = addrspacecast ptr %468 to ptr addrspace(3), !dbg !10
  %470 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3) %469), !dbg !10
  %471 = extractvalue { i32, i32, i32, i32 } %470, 0, !dbg !10
  %472 = extractvalue { i32, i32, i32, i32 } %470, 1, !dbg !10
  %473 = extractvalue { i32, i32, i32, i32 } %470, 2, !dbg !10
  %474 = extractvalue { i32, i32, i32, i32 } %470, 3, !dbg !10
  %475 = load float, ptr %acc, align 4, !dbg !10
  %476 = load float, ptr %acc1, align 4, !dbg !10
  %477 = load float, ptr %acc2, align 4, !dbg !10
  %478 = load float, ptr %acc3, align 4, !dbg !10
  %479 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %422, i32 %423, i32 %424, i32 %425, i32 %453, i32 %454, float %475, float %476, float %477, float %478), !dbg !10
  %480 = extractvalue { float, float, float, float } %479, 0, !dbg !10
  %481 = extractvalue { float, float, float, float } %479, 1, !dbg !10
  %482 = extractvalue { float, float, float, float } %479, 2, !dbg !10
  %483 = extractvalue { float, float, float, float } %479, 3, !dbg !10
  store float %480, ptr %acc, align 4, !dbg !10
  store float %481, ptr %acc1, align 4, !dbg !10
  store float %482, ptr %acc2, align 4, !dbg !10
  store float %483, ptr %acc3, align 4, !dbg !10
  %484 = load float, ptr %acc4, align 4, !dbg !10
  %485 = load float, ptr %acc5, align 4, !dbg !10
  %486 = load float, ptr %acc6, align 4, !dbg !10
  %487 = load float, ptr %acc7, align 4, !dbg !10
  %488 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %422, i32 %423, i32 %424, i32 %425, i32 %455, i32 %456, float %484, float %485, float %486, float %487), !dbg !10
  %489 = extractvalue { float, float, float, float } %488, 0, !dbg !10
  %490 = extractvalue { float, float, float, float } %488, 1, !dbg !10
  %491 = extractvalue { float, float, float, float } %488, 2, !dbg !10
  %492 = extractvalue { float, float, float, float } %488, 3, !dbg !10
  store float %489, ptr %acc4, align 4, !dbg !10
  store float %490, ptr %acc5, align 4, !dbg !10
  store float %491, ptr %acc6, align 4, !dbg !10
  store float %492, ptr %acc7, align 4, !dbg !10
  %493 = load float, ptr %acc8, align 4, !dbg !10
  %494 = load float, ptr %acc9, align 4, !dbg !10
  %495 = load float, ptr %acc10, align 4, !dbg !10
  %496 = load float, ptr %acc11, align 4, !dbg !10
  %497 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %422, i32 %423, i32 %424, i32 %425, i32 %471, i32 %472, float %493, float %494, float %495, float %496), !dbg !10
  %498 = extractvalue { float, float, float, float } %497, 0, !dbg !10
  %499 = extractvalue { float, float, float, float } %497, 1, !dbg !10
  %500 = extractvalue { float, float, float, float } %497, 2, !dbg !10
  %501 = extractvalue { float, float, float, float } %497, 3, !dbg !10
  store float %498, ptr %acc8, align 4, !dbg !10
  store float %499, ptr %acc9, align 4, !dbg !10
  store float %500, ptr %acc10, align 4, !dbg !10
  store float %501, ptr %acc11, align 4, !dbg !10
  %502 = load float, ptr %acc12, align 4, !dbg !10
  %503 = load float, ptr %acc13, align 4, !dbg !10
  %504 = load float, ptr %acc14, align 4, !dbg !10
  %505 = load float, ptr %acc15, align 4, !dbg !10
  %506 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %422, i32 %423, i32 %424, i32 %425, i32 %473, i32 %474, float %502, float %503, float %504, float %505), !dbg !10
  %507 = extractvalue { float, float, float, float } %506, 0, !dbg !10
  %508 = extractvalue { float, float, float, float } %506, 1, !dbg !10
  %509 = extractvalue { float, float, float, float } %506, 2, !dbg !10
  %510 = extractvalue { float, float, float, float } %506, 3, !dbg !10
  store float %507, ptr %acc12, align 4, !dbg !10
  store float %508, ptr %acc13, align 4, !dbg !10
  store float %509, ptr %acc14, align 4, !dbg !10
  store float %510, ptr %acc15, align 4, !dbg !10
  %511 = load float, ptr %acc16, align 4, !dbg !10
  %512 = load float, ptr %acc17, align 4, !dbg !10
  %513 = load float, ptr %acc18, align 4, !dbg !10
  %514 = load float, ptr %acc19, align 4, !dbg !10
  %515 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %435, i32 %436, i32 %437, i32 %438, i32 %453, i32 %454, float %511, float %512, float %513, float %514), !dbg !10
  %516 = extractvalue { float, float, float, float } %515, 0, !dbg !10
  %517 = extractvalue { float, float, float, float } %515, 1, !dbg !10
  %518 = extractvalue { float, float, float, float } %515, 2, !dbg !10
  %519 = extractvalue { float, float, float, float } %515, 3, !dbg !10
  store float %516, ptr %acc16, align 4, !dbg !10
  store float %517, ptr %acc17, align 4, !dbg !10
  store float %518, ptr %acc18, align 4, !dbg !10
  store float %519, ptr %acc19, align 4, !dbg !10
  %520 = load float, ptr %acc20, align 4, !dbg !10
  %521 = load float, ptr %acc21, align 4, !dbg !10
  %522 = load float, ptr %acc22, align 4, !dbg !10
  %523 = load float, ptr %acc23, align 4, !dbg !10
  %524 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %435, i32 %436, i32 %437, i32 %438, i32 %455, i32 %456, float %520, float %521, float %522, float %523), !dbg !10
  %525 = extractvalue { float, float, float, float } %524, 0, !dbg !10
  %526 = extractvalue { float, float, float, float } %524, 1, !dbg !10
  %527 = extractvalue { float, float, float, float } %524, 2, !dbg !10
  %528 = extractvalue { float, float, float, float } %524, 3, !dbg !10
  store float %525, ptr %acc20, align 4, !dbg !10
  store float %526, ptr %acc21, align 4, !dbg !10
  store float %527, ptr %acc22, align 4, !dbg !10
  store float %528, ptr %acc23, align 4, !dbg !10
  %529 = load float, ptr %acc24, align 4, !dbg !10
  %530 = load float, ptr %acc25, align 4, !dbg !10
  %531 = load float, ptr %acc26, align 4, !dbg !10
  %532 = load float, ptr %acc27, align 4, !dbg !10
  %533 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %435, i32 %436, i32 %437, i32 %438, i32 %471, i32 %472, float %529, float %530, float %531, float %532), !dbg !10
  %534 = extractvalue { float, float, float, float } %533, 0, !dbg !10
  %535 = extractvalue { float, float, float, float } %533, 1, !dbg !10
  %536 = extractvalue { float, float, float, float } %533, 2, !dbg !10
  %537 = extractvalue { float, float, float, float } %533, 3, !dbg !10
  store float %534, ptr %acc24, align 4, !dbg !10
  store float %535, ptr %acc25, align 4, !dbg !10
  store float %536, ptr %acc26, align 4, !dbg !10
  store float %537, ptr %acc27, align 4, !dbg !10
  %538 = load float, ptr %acc28, align 4, !dbg !10
  %539 = load float, ptr %acc29, align 4, !dbg !10
  %540 = load float, ptr %acc30, align 4, !dbg !10
  %541 = load float, ptr %acc31, align 4, !dbg !10
  %542 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %435, i32 %436, i32 %437, i32 %438, i32 %473, i32 %474, float %538, float %539, float %540, float %541), !dbg !10
  %543 = extractvalue { float, float, float, float } %542, 0, !dbg !10
  %544 = extractvalue { float, float, float, float } %542, 1, !dbg !10
  %545 = extractvalue { float, float, float, float } %542, 2, !dbg !10
  %546 = extractvalue { float, float, float, float } %542, 3, !dbg !10
  store float %543, ptr %acc28, align 4, !dbg !10
  store float %544, ptr %acc29, align 4, !dbg !10
  store float %545, ptr %acc30, align 4, !dbg !10
  store float %546, ptr %acc31, align 4, !dbg !10
  br i1 %117, label %if.then34, label %if.end35, !dbg !10

if.then34:                                        ; preds = %if.end33
  br label %if.end35, !dbg !10

if.end35:                                         ; preds = %if.then34, %if.end33
  call void @llvm.nvvm.barrier0(), !dbg !10
  %iv.next = add nsw i64 %iv, 32, !dbg !9
  br label %loop.header, !dbg !9

loop.header36:                                    ; preds = %if.end41, %loop.exit
  %iv39 = phi i64 [ 0, %loop.exit ], [ %iv.next42, %if.end41 ], !dbg !9
  %547 = icmp slt i64 %iv39, 32, !dbg !9
  br i1 %547, label %loop.body37, label %loop.exit38, !dbg !9

loop.body37:                                      ; preds = %loop.header36
  %548 = udiv i64 %iv39, 16, !dbg !9
  %549 = udiv i64 %iv39, 4, !dbg !9
  %550 = urem i64 %549, 4, !dbg !9
  %551 = urem i64 %iv39, 4, !dbg !9
  %552 = udiv i64 %551, 2, !dbg !9
  %553 = mul i64 %552, 8, !dbg !9
  %554 = add i64 %4, %553, !dbg !9
  %555 = mul i64 %548, 16, !dbg !9
  %556 = add i64 %555, %554, !dbg !9
  %557 = mul i64 %6, 32, !dbg !9
  %558 = add i64 %14, %557, !dbg !9
  %559 = add i64 %558, %556, !dbg !9
  %560 = urem i64 %551, 2, !dbg !9
  %561 = mul i64 %5, 2, !dbg !9
  %562 = add i64 %561, %560, !dbg !9
  %563 = mul i64 %550, 8, !dbg !9
  %564 = add i64 %563, %562, !dbg !9
  %565 = mul i64 %7, 32, !dbg !9
  %566 = add i64 %15, %565, !dbg !9
  %567 = add i64 %566, %564, !dbg !9
  %568 = icmp slt i64 %567, 80, !dbg !9
  %569 = icmp slt i64 %559, 64, !dbg !9
  %570 = and i1 %569, %568, !dbg !9
  br i1 %570, label %if.then40, label %if.end41, !dbg !9

loop.exit38:                                      ; preds = %loop.header36
  ret void, !dbg !9

if.then40:                                        ; preds = %loop.body37
  %571 = getelementptr inbounds [32 x float], ptr %accumulators, i64 0, i64 %iv39, !dbg !9
  %572 = load float, ptr %571, align 4, !dbg !9
  %573 = fptrunc float %572 to bfloat, !dbg !9
  %574 = add i64 0, %567, !dbg !11
  %575 = getelementptr inbounds bfloat, ptr %arg0, i64 %574, !dbg !11
  %576 = load bfloat, ptr %575, align 2, !dbg !11
  %577 = fpext bfloat %573 to float, !dbg !12
  %578 = fpext bfloat %576 to float, !dbg !12
  %579 = fadd float %577, %578, !dbg !12
  %580 = fptrunc float %579 to bfloat, !dbg !12
  %581 = add i64 0, %559, !dbg !9
  %582 = mul i64 %581, 80, !dbg !9
  %583 = add i64 %582, %567, !dbg !9
  %584 = getelementptr inbounds bfloat, ptr %arg3, i64 %583, !dbg !9
  store bfloat %580, ptr %584, align 2, !dbg !9
  br label %if.end41, !dbg !9

if.end41:                                         ; preds = %if.then40, %loop.body37
  %iv.next42 = add nsw i64 %iv39, 1, !dbg !9
  br label %loop.header36, !dbg !9
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: nocallback nounwind memory(argmem: readwrite)
declare void @llvm.nvvm.cp.async.cg.shared.global.16.s(ptr addrspace(3) noalias writeonly, ptr addrspace(1) noalias readonly, i32) #2

; Function Attrs: nounwind
declare void @llvm.nvvm.cp.async.commit.group() #0

; Function Attrs: nounwind
declare void @llvm.nvvm.cp.async.wait.group(i32 immarg) #0

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier0() #3

; Function Attrs: nocallback nounwind memory(argmem: read)
declare { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) nocapture readonly) #4

; Function Attrs: nocallback nounwind memory(argmem: read)
declare { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3) nocapture readonly) #4

; Function Attrs: nocallback nounwind memory(none)
declare { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32, i32, i32, i32, i32, i32, float, float, float, float) #5

attributes #0 = { nounwind }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nounwind memory(argmem: readwrite) }
attributes #3 = { convergent nocallback nounwind }
attributes #4 = { nocallback nounwind memory(argmem: read) }
attributes #5 = { nocallback nounwind memory(none) }

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
!10 = !DILocation(line: 7, scope: !6)
!11 = !DILocation(line: 6, scope: !6)
!12 = !DILocation(line: 9, scope: !6)
