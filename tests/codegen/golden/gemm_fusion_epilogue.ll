; ModuleID = 'gemm_fusion_d_1'
source_filename = "gemm_fusion_d_1"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@gemm_fusion_d_1_lhs_tile = internal addrspace(3) global [272 x float] poison, align 16
@gemm_fusion_d_1_rhs_tile = internal addrspace(3) global [272 x float] poison, align 16

; Function Attrs: nounwind
define void @gemm_fusion_d_1(ptr noalias readonly align 16 dereferenceable(192) %arg0, ptr noalias readonly align 16 dereferenceable(8192) %arg1, ptr noalias readonly align 16 dereferenceable(12288) %arg2, ptr noalias align 16 dereferenceable(6144) %arg3) #0 !dbg !6 {
entry:
  %tile_value = alloca float, align 4, !dbg !9
  %acc = alloca float, align 4, !dbg !9
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !9
  %1 = zext i32 %0 to i64, !dbg !9
  %2 = udiv i64 %1, 16, !dbg !9
  %3 = urem i64 %1, 16, !dbg !9
  %4 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !9
  %5 = zext i32 %4 to i64, !dbg !9
  %6 = urem i64 %5, 3, !dbg !9
  %7 = udiv i64 %5, 3, !dbg !9
  %8 = urem i64 %7, 2, !dbg !9
  %9 = udiv i64 %7, 2, !dbg !9
  %10 = mul i64 %8, 16, !dbg !9
  %11 = add i64 %10, %2, !dbg !9
  %12 = mul i64 %6, 16, !dbg !9
  %13 = add i64 %12, %3, !dbg !9
  %14 = icmp slt i64 %11, 32, !dbg !9
  %15 = icmp slt i64 %13, 48, !dbg !9
  %16 = select i1 %14, i64 %11, i64 0, !dbg !9
  %17 = select i1 %15, i64 %13, i64 0, !dbg !9
  store float 0.000000e+00, ptr %acc, align 4, !dbg !9
  br label %loop.header, !dbg !9

loop.header:                                      ; preds = %if.end2, %entry
  %iv = phi i64 [ 0, %entry ], [ %iv.next, %if.end2 ], !dbg !9
  %18 = icmp slt i64 %iv, 64, !dbg !9
  br i1 %18, label %loop.body, label %loop.exit, !dbg !9

loop.body:                                        ; preds = %loop.header
  %19 = add i64 %iv, %3, !dbg !9
  store float 0.000000e+00, ptr %tile_value, align 4, !dbg !9
  %20 = icmp slt i64 %19, 64, !dbg !9
  %21 = and i1 %14, %20, !dbg !9
  br i1 %21, label %if.then, label %if.end, !dbg !9

loop.exit:                                        ; preds = %loop.header
  %22 = and i1 %14, %15, !dbg !9
  br i1 %22, label %if.then3, label %if.end4, !dbg !9

if.then:                                          ; preds = %loop.body
  %23 = add i64 0, %16, !dbg !10
  %24 = mul i64 %23, 64, !dbg !10
  %25 = add i64 %24, %19, !dbg !10
  %26 = getelementptr inbounds float, ptr %arg1, i64 %25, !dbg !10
  %27 = load float, ptr %26, align 4, !dbg !10
  store float %27, ptr %tile_value, align 4, !dbg !9
  br label %if.end, !dbg !9

if.end:                                           ; preds = %if.then, %loop.body
  %28 = mul i64 %2, 17, !dbg !9
  %29 = add i64 %28, %3, !dbg !9
  %30 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %29, !dbg !9
  %31 = load float, ptr %tile_value, align 4, !dbg !9
  store float %31, ptr %30, align 4, !dbg !9
  %32 = add i64 %iv, %2, !dbg !9
  store float 0.000000e+00, ptr %tile_value, align 4, !dbg !9
  %33 = icmp slt i64 %32, 64, !dbg !9
  %34 = and i1 %15, %33, !dbg !9
  br i1 %34, label %if.then1, label %if.end2, !dbg !9

if.then1:                                         ; preds = %if.end
  %35 = add i64 0, %32, !dbg !11
  %36 = mul i64 %35, 48, !dbg !11
  %37 = add i64 %36, %17, !dbg !11
  %38 = getelementptr inbounds float, ptr %arg2, i64 %37, !dbg !11
  %39 = load float, ptr %38, align 4, !dbg !11
  store float %39, ptr %tile_value, align 4, !dbg !9
  br label %if.end2, !dbg !9

if.end2:                                          ; preds = %if.then1, %if.end
  %40 = mul i64 %2, 17, !dbg !9
  %41 = add i64 %40, %3, !dbg !9
  %42 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %41, !dbg !9
  %43 = load float, ptr %tile_value, align 4, !dbg !9
  store float %43, ptr %42, align 4, !dbg !9
  call void @llvm.nvvm.barrier0(), !dbg !9
  %44 = load float, ptr %acc, align 4, !dbg !12
  %45 = mul i64 %2, 17, !dbg !12
  %46 = add i64 %45, 0, !dbg !12
  %47 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %46, !dbg !12
  %48 = load float, ptr %47, align 4, !dbg !12
  %49 = add i64 0, %3, !dbg !12
  %50 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %49, !dbg !12
  %51 = load float, ptr %50, align 4, !dbg !12
  %52 = fmul float %48, %51, !dbg !12
  %53 = fadd float %44, %52, !dbg !12
  %54 = mul i64 %2, 17, !dbg !12
  %55 = add i64 %54, 1, !dbg !12
  %56 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %55, !dbg !12
  %57 = load float, ptr %56, align 4, !dbg !12
  %58 = add i64 17, %3, !dbg !12
  %59 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %58, !dbg !12
  %60 = load float, ptr %59, align 4, !dbg !12
  %61 = fmul float %57, %60, !dbg !12
  %62 = fadd float %53, %61, !dbg !12
  %63 = mul i64 %2, 17, !dbg !12
  %64 = add i64 %63, 2, !dbg !12
  %65 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %64, !dbg !12
  %66 = load float, ptr %65, align 4, !dbg !12
  %67 = add i64 34, %3, !dbg !12
  %68 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %67, !dbg !12
  %69 = load float, ptr %68, align 4, !dbg !12
  %70 = fmul float %66, %69, !dbg !12
  %71 = fadd float %62, %70, !dbg !12
  %72 = mul i64 %2, 17, !dbg !12
  %73 = add i64 %72, 3, !dbg !12
  %74 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %73, !dbg !12
  %75 = load float, ptr %74, align 4, !dbg !12
  %76 = add i64 51, %3, !dbg !12
  %77 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %76, !dbg !12
  %78 = load float, ptr %77, align 4, !dbg !12
  %79 = fmul float %75, %78, !dbg !12
  %80 = fadd float %71, %79, !dbg !12
  %81 = mul i64 %2, 17, !dbg !12
  %82 = add i64 %81, 4, !dbg !12
  %83 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %82, !dbg !12
  %84 = load float, ptr %83, align 4, !dbg !12
  %85 = add i64 68, %3, !dbg !12
  %86 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %85, !dbg !12
  %87 = load float, ptr %86, align 4, !dbg !12
  %88 = fmul float %84, %87, !dbg !12
  %89 = fadd float %80, %88, !dbg !12
  %90 = mul i64 %2, 17, !dbg !12
  %91 = add i64 %90, 5, !dbg !12
  %92 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %91, !dbg !12
  %93 = load float, ptr %92, align 4, !dbg !12
  %94 = add i64 85, %3, !dbg !12
  %95 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %94, !dbg !12
  %96 = load float, ptr %95, align 4, !dbg !12
  %97 = fmul float %93, %96, !dbg !12
  %98 = fadd float %89, %97, !dbg !12
  %99 = mul i64 %2, 17, !dbg !12
  %100 = add i64 %99, 6, !dbg !12
  %101 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %100, !dbg !12
  %102 = load float, ptr %101, align 4, !dbg !12
  %103 = add i64 102, %3, !dbg !12
  %104 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %103, !dbg !12
  %105 = load float, ptr %104, align 4, !dbg !12
  %106 = fmul float %102, %105, !dbg !12
  %107 = fadd float %98, %106, !dbg !12
  %108 = mul i64 %2, 17, !dbg !12
  %109 = add i64 %108, 7, !dbg !12
  %110 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %109, !dbg !12
  %111 = load float, ptr %110, align 4, !dbg !12
  %112 = add i64 119, %3, !dbg !12
  %113 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %112, !dbg !12
  %114 = load float, ptr %113, align 4, !dbg !12
  %115 = fmul float %111, %114, !dbg !12
  %116 = fadd float %107, %115, !dbg !12
  %117 = mul i64 %2, 17, !dbg !12
  %118 = add i64 %117, 8, !dbg !12
  %119 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %118, !dbg !12
  %120 = load float, ptr %119, align 4, !dbg !12
  %121 = add i64 136, %3, !dbg !12
  %122 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %121, !dbg !12
  %123 = load float, ptr %122, align 4, !dbg !12
  %124 = fmul float %120, %123, !dbg !12
  %125 = fadd float %116, %124, !dbg !12
  %126 = mul i64 %2, 17, !dbg !12
  %127 = add i64 %126, 9, !dbg !12
  %128 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %127, !dbg !12
  %129 = load float, ptr %128, align 4, !dbg !12
  %130 = add i64 153, %3, !dbg !12
  %131 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %130, !dbg !12
  %132 = load float, ptr %131, align 4, !dbg !12
  %133 = fmul float %129, %132, !dbg !12
  %134 = fadd float %125, %133, !dbg !12
  %135 = mul i64 %2, 17, !dbg !12
  %136 = add i64 %135, 10, !dbg !12
  %137 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %136, !dbg !12
  %138 = load float, ptr %137, align 4, !dbg !12
  %139 = add i64 170, %3, !dbg !12
  %140 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %139, !dbg !12
  %141 = load float, ptr %140, align 4, !dbg !12
  %142 = fmul float %138, %141, !dbg !12
  %143 = fadd float %134, %142, !dbg !12
  %144 = mul i64 %2, 17, !dbg !12
  %145 = add i64 %144, 11, !dbg !12
  %146 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %145, !dbg !12
  %147 = load float, ptr %146, align 4, !dbg !12
  %148 = add i64 187, %3, !dbg !12
  %149 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %148, !dbg !12
  %150 = load float, ptr %149, align 4, !dbg !12
  %151 = fmul float %147, %150, !dbg !12
  %152 = fadd float %143, %151, !dbg !12
  %153 = mul i64 %2, 17, !dbg !12
  %154 = add i64 %153, 12, !dbg !12
  %155 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %154, !dbg !12
  %156 = load float, ptr %155, align 4, !dbg !12
  %157 = add i64 204, %3, !dbg !12
  %158 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %157, !dbg !12
  %159 = load float, ptr %158, align 4, !dbg !12
  %160 = fmul float %156, %159, !dbg !12
  %161 = fadd float %152, %160, !dbg !12
  %162 = mul i64 %2, 17, !dbg !12
  %163 = add i64 %162, 13, !dbg !12
  %164 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %163, !dbg !12
  %165 = load float, ptr %164, align 4, !dbg !12
  %166 = add i64 221, %3, !dbg !12
  %167 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %166, !dbg !12
  %168 = load float, ptr %167, align 4, !dbg !12
  %169 = fmul float %165, %168, !dbg !12
  %170 = fadd float %161, %169, !dbg !12
  %171 = mul i64 %2, 17, !dbg !12
  %172 = add i64 %171, 14, !dbg !12
  %173 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %172, !dbg !12
  %174 = load float, ptr %173, align 4, !dbg !12
  %175 = add i64 238, %3, !dbg !12
  %176 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %175, !dbg !12
  %177 = load float, ptr %176, align 4, !dbg !12
  %178 = fmul float %174, %177, !dbg !12
  %179 = fadd float %170, %178, !dbg !12
  %180 = mul i64 %2, 17, !dbg !12
  %181 = add i64 %180, 15, !dbg !12
  %182 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_lhs_tile to ptr), i64 %181, !dbg !12
  %183 = load float, ptr %182, align 4, !dbg !12
  %184 = add i64 255, %3, !dbg !12
  %185 = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @gemm_fusion_d_1_rhs_tile to ptr), i64 %184, !dbg !12
  %186 = load float, ptr %185, align 4, !dbg !12
  %187 = fmul float %183, %186, !dbg !12
  %188 = fadd float %179, %187, !dbg !12
  store float %188, ptr %acc, align 4, !dbg !12
  call void @llvm.nvvm.barrier0(), !dbg !12
  %iv.next = add nsw i64 %iv, 16, !dbg !9
  br label %loop.header, !dbg !9

if.then3:                                         ; preds = %loop.exit
  %189 = load float, ptr %acc, align 4, !dbg !9
  %190 = add i64 0, %17, !dbg !13
  %191 = getelementptr inbounds float, ptr %arg0, i64 %190, !dbg !13
  %192 = load float, ptr %191, align 4, !dbg !13
  %193 = fadd float %189, %192, !dbg !14
  %194 = fneg float %193, !dbg !15
  %195 = add i64 0, %16, !dbg !9
  %196 = mul i64 %195, 48, !dbg !9
  %197 = add i64 %196, %17, !dbg !9
  %198 = getelementptr inbounds float, ptr %arg3, i64 %197, !dbg !9
  store float %194, ptr %198, align 4, !dbg !9
  br label %if.end4, !dbg !9

if.end4:                                          ; preds = %if.then3, %loop.exit
  ret void, !dbg !9
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier0() #2

attributes #0 = { nounwind }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind }

!llvm.module.flags = !{!0, !1}
!llvm.dbg.cu = !{!2}
!nvvm.annotations = !{!4, !5}

!0 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!1 = !{i32 2, !"Debug Info Version", i32 3}
!2 = distinct !DICompileUnit(language: DW_LANG_C, file: !3, producer: "hloscope", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly)
!3 = !DIFile(filename: "gemm.hlo", directory: "")
!4 = !{ptr @gemm_fusion_d_1, !"kernel", i32 1}
!5 = !{ptr @gemm_fusion_d_1, !"maxntidx", i32 256}
!6 = distinct !DISubprogram(name: "gemm_fusion_d_1", linkageName: "gemm_fusion_d_1", scope: !3, file: !3, line: 17, type: !7, scopeLine: 17, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2)
!7 = !DISubroutineType(types: !8)
!8 = !{}
!9 = !DILocation(line: 17, scope: !6)
!10 = !DILocation(line: 5, scope: !6)
!11 = !DILocation(line: 4, scope: !6)
!12 = !DILocation(line: 7, scope: !6)
!13 = !DILocation(line: 6, scope: !6)
!14 = !DILocation(line: 9, scope: !6)
!15 = !DILocation(line: 10, scope: !6)
