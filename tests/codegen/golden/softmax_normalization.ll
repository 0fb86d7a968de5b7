; ModuleID = 'triton_softmax_2'
source_filename = "triton_softmax_2"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nounwind
define void @triton_softmax_2(ptr noalias readonly align 16 dereferenceable(8192) %arg0, ptr noalias align 16 dereferenceable(8192) %arg1) #0 !dbg !6 {
entry:
  %row_value7 = alloca float, align 4, !dbg !9
  %acc1 = alloca float, align 4, !dbg !9
  %row_value = alloca float, align 4, !dbg !9
  %acc = alloca float, align 4, !dbg !9
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !9
  %1 = zext i32 %0 to i64, !dbg !9
  %2 = urem i64 %1, 32, !dbg !9
  %3 = udiv i64 %1, 32, !dbg !9
  %4 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !9
  %5 = zext i32 %4 to i64, !dbg !9
  %6 = mul i64 %5, 8, !dbg !9
  %7 = add i64 %6, %3, !dbg !9
  %8 = icmp slt i64 %7, 16, !dbg !9
  %9 = select i1 %8, i64 %7, i64 0, !dbg !9
  %10 = select i1 %8, i64 128, i64 0, !dbg !9
  br label %loop.header, !dbg !9

loop.header:                                      ; preds = %loop.body, %entry
  %iv = phi i64 [ %2, %entry ], [ %iv.next, %loop.body ], !dbg !9
  %11 = icmp slt i64 %iv, %10, !dbg !9
  br i1 %11, label %loop.body, label %loop.exit, !dbg !9

loop.body:                                        ; preds = %loop.header
  %12 = add i64 0, %9, !dbg !10
  %13 = mul i64 %12, 128, !dbg !10
  %14 = add i64 %13, %iv, !dbg !10
  %15 = getelementptr inbounds float, ptr %arg0, i64 %14, !dbg !10
  %16 = load float, ptr %15, align 4, !dbg !10
  %17 = load float, ptr %acc, align 4, !dbg !9
  %18 = fcmp olt float %17, %16, !dbg !11
  %19 = select i1 %18, float %16, float %17, !dbg !11
  %20 = fcmp uno float %16, %16, !dbg !11
  %21 = select i1 %20, float %16, float %19, !dbg !11
  %22 = fcmp uno float %17, %17, !dbg !11
  %23 = select i1 %22, float %17, float %21, !dbg !11
  %24 = icmp eq i64 %iv, %2, !dbg !9
  %25 = select i1 %24, float %16, float %23, !dbg !9
  store float %25, ptr %acc, align 4, !dbg !9
  %iv.next = add nsw i64 %iv, 32, !dbg !9
  br label %loop.header, !dbg !9

loop.exit:                                        ; preds = %loop.header
  %26 = load float, ptr %acc, align 4, !dbg !11
  %27 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %26, i32 16, i32 31), !dbg !11
  %28 = fcmp olt float %26, %27, !dbg !11
  %29 = select i1 %28, float %27, float %26, !dbg !11
  %30 = fcmp uno float %27, %27, !dbg !11
  %31 = select i1 %30, float %27, float %29, !dbg !11
  %32 = fcmp uno float %26, %26, !dbg !11
  %33 = select i1 %32, float %26, float %31, !dbg !11
  %34 = add i64 %2, 16, !dbg !11
  %35 = icmp slt i64 %34, 128, !dbg !11
  %36 = add i64 %2, 16, !dbg !11
  %37 = icmp slt i64 %36, 32, !dbg !11
  %38 = and i1 %37, %35, !dbg !11
  %39 = select i1 %38, float %33, float %26, !dbg !11
  store float %39, ptr %acc, align 4, !dbg !11
  %40 = load float, ptr %acc, align 4, !dbg !11
  %41 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %40, i32 8, i32 31), !dbg !11
  %42 = fcmp olt float %40, %41, !dbg !11
  %43 = select i1 %42, float %41, float %40, !dbg !11
  %44 = fcmp uno float %41, %41, !dbg !11
  %45 = select i1 %44, float %41, float %43, !dbg !11
  %46 = fcmp uno float %40, %40, !dbg !11
  %47 = select i1 %46, float %40, float %45, !dbg !11
  %48 = add i64 %2, 8, !dbg !11
  %49 = icmp slt i64 %48, 128, !dbg !11
  %50 = add i64 %2, 8, !dbg !11
  %51 = icmp slt i64 %50, 32, !dbg !11
  %52 = and i1 %51, %49, !dbg !11
  %53 = select i1 %52, float %47, float %40, !dbg !11
  store float %53, ptr %acc, align 4, !dbg !11
  %54 = load float, ptr %acc, align 4, !dbg !11
  %55 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %54, i32 4, i32 31), !dbg !11
  %56 = fcmp olt float %54, %55, !dbg !11
  %57 = select i1 %56, float %55, float %54, !dbg !11
  %58 = fcmp uno float %55, %55, !dbg !11
  %59 = select i1 %58, float %55, float %57, !dbg !11
  %60 = fcmp uno float %54, %54, !dbg !11
  %61 = select i1 %60, float %54, float %59, !dbg !11
  %62 = add i64 %2, 4, !dbg !11
  %63 = icmp slt i64 %62, 128, !dbg !11
  %64 = add i64 %2, 4, !dbg !11
  %65 = icmp slt i64 %64, 32, !dbg !11
  %66 = and i1 %65, %63, !dbg !11
  %67 = select i1 %66, float %61, float %54, !dbg !11
  store float %67, ptr %acc, align 4, !dbg !11
  %68 = load float, ptr %acc, align 4, !dbg !11
  %69 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %68, i32 2, i32 31), !dbg !11
  %70 = fcmp olt float %68, %69, !dbg !11
  %71 = select i1 %70, float %69, float %68, !dbg !11
  %72 = fcmp uno float %69, %69, !dbg !11
  %73 = select i1 %72, float %69, float %71, !dbg !11
  %74 = fcmp uno float %68, %68, !dbg !11
  %75 = select i1 %74, float %68, float %73, !dbg !11
  %76 = add i64 %2, 2, !dbg !11
  %77 = icmp slt i64 %76, 128, !dbg !11
  %78 = add i64 %2, 2, !dbg !11
  %79 = icmp slt i64 %78, 32, !dbg !11
  %80 = and i1 %79, %77, !dbg !11
  %81 = select i1 %80, float %75, float %68, !dbg !11
  store float %81, ptr %acc, align 4, !dbg !11
  %82 = load float, ptr %acc, align 4, !dbg !11
  %83 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %82, i32 1, i32 31), !dbg !11
  %84 = fcmp olt float %82, %83, !dbg !11
  %85 = select i1 %84, float %83, float %82, !dbg !11
  %86 = fcmp uno float %83, %83, !dbg !11
  %87 = select i1 %86, float %83, float %85, !dbg !11
  %88 = fcmp uno float %82, %82, !dbg !11
  %89 = select i1 %88, float %82, float %87, !dbg !11
  %90 = add i64 %2, 1, !dbg !11
  %91 = icmp slt i64 %90, 128, !dbg !11
  %92 = add i64 %2, 1, !dbg !11
  %93 = icmp slt i64 %92, 32, !dbg !11
  %94 = and i1 %93, %91, !dbg !11
  %95 = select i1 %94, float %89, float %82, !dbg !11
  store float %95, ptr %acc, align 4, !dbg !11
  %96 = load float, ptr %acc, align 4, !dbg !11
  %97 = fcmp olt float 0xFFF0000000000000, %96, !dbg !11
  %98 = select i1 %97, float %96, float 0xFFF0000000000000, !dbg !11
  %99 = fcmp uno float %96, %96, !dbg !11
  %100 = select i1 %99, float %96, float %98, !dbg !11
  %101 = select i1 false, float 0xFFF0000000000000, float %100, !dbg !11
  store float %101, ptr %row_value, align 4, !dbg !11
  %102 = load float, ptr %row_value, align 4, !dbg !9
  %103 = call float @llvm.nvvm.shfl.sync.idx.f32(i32 -1, float %102, i32 0, i32 31), !dbg !9
  store float %103, ptr %row_value, align 4, !dbg !9
  %104 = select i1 %8, i64 128, i64 0, !dbg !9
  br label %loop.header2, !dbg !9

loop.header2:                                     ; preds = %loop.body3, %loop.exit
  %iv5 = phi i64 [ %2, %loop.exit ], [ %iv.next6, %loop.body3 ], !dbg !9
  %105 = icmp slt i64 %iv5, %104, !dbg !9
  br i1 %105, label %loop.body3, label %loop.exit4, !dbg !9

loop.body3:                                       ; preds = %loop.header2
  %106 = add i64 0, %9, !dbg !10
  %107 = mul i64 %106, 128, !dbg !10
  %108 = add i64 %107, %iv5, !dbg !10
  %109 = getelementptr inbounds float, ptr %arg0, i64 %108, !dbg !10
  %110 = load float, ptr %109, align 4, !dbg !10
  %111 = load float, ptr %row_value, align 4, !dbg !11
  %112 = fsub float %110, %111, !dbg !12
  %113 = call float @__nv_expf(float %112) #4, !dbg !13
  %114 = load float, ptr %acc1, align 4, !dbg !9
  %115 = fadd float %114, %113, !dbg !14
  %116 = icmp eq i64 %iv5, %2, !dbg !9
  %117 = select i1 %116, float %113, float %115, !dbg !9
  store float %117, ptr %acc1, align 4, !dbg !9
  %iv.next6 = add nsw i64 %iv5, 32, !dbg !9
  br label %loop.header2, !dbg !9

loop.exit4:                                       ; preds = %loop.header2
  %118 = load float, ptr %acc1, align 4, !dbg !14
  %119 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %118, i32 16, i32 31), !dbg !14
  %120 = fadd float %118, %119, !dbg !14
  %121 = add i64 %2, 16, !dbg !14
  %122 = icmp slt i64 %121, 128, !dbg !14
  %123 = add i64 %2, 16, !dbg !14
  %124 = icmp slt i64 %123, 32, !dbg !14
  %125 = and i1 %124, %122, !dbg !14
  %126 = select i1 %125, float %120, float %118, !dbg !14
  store float %126, ptr %acc1, align 4, !dbg !14
  %127 = load float, ptr %acc1, align 4, !dbg !14
  %128 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %127, i32 8, i32 31), !dbg !14
  %129 = fadd float %127, %128, !dbg !14
  %130 = add i64 %2, 8, !dbg !14
  %131 = icmp slt i64 %130, 128, !dbg !14
  %132 = add i64 %2, 8, !dbg !14
  %133 = icmp slt i64 %132, 32, !dbg !14
  %134 = and i1 %133, %131, !dbg !14
  %135 = select i1 %134, float %129, float %127, !dbg !14
  store float %135, ptr %acc1, align 4, !dbg !14
  %136 = load float, ptr %acc1, align 4, !dbg !14
  %137 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %136, i32 4, i32 31), !dbg !14
  %138 = fadd float %136, %137, !dbg !14
  %139 = add i64 %2, 4, !dbg !14
  %140 = icmp slt i64 %139, 128, !dbg !14
  %141 = add i64 %2, 4, !dbg !14
  %142 = icmp slt i64 %141, 32, !dbg !14
  %143 = and i1 %142, %140, !dbg !14
  %144 = select i1 %143, float %138, float %136, !dbg !14
  store float %144, ptr %acc1, align 4, !dbg !14
  %145 = load float, ptr %acc1, align 4, !dbg !14
  %146 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %145, i32 2, i32 31), !dbg !14
  %147 = fadd float %145, %146, !dbg !14
  %148 = add i64 %2, 2, !dbg !14
  %149 = icmp slt i64 %148, 128, !dbg !14
  %150 = add i64 %2, 2, !dbg !14
  %151 = icmp slt i64 %150, 32, !dbg !14
  %152 = and i1 %151, %149, !dbg !14
  %153 = select i1 %152, float %147, float %145, !dbg !14
  store float %153, ptr %acc1, align 4, !dbg !14
  %154 = load float, ptr %acc1, align 4, !dbg !14
  %155 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %154, i32 1, i32 31), !dbg !14
  %156 = fadd float %154, %155, !dbg !14
  %157 = add i64 %2, 1, !dbg !14
  %158 = icmp slt i64 %157, 128, !dbg !14
  %159 = add i64 %2, 1, !dbg !14
  %160 = icmp slt i64 %159, 32, !dbg !14
  %161 = and i1 %160, %158, !dbg !14
  %162 = select i1 %161, float %156, float %154, !dbg !14
  store float %162, ptr %acc1, align 4, !dbg !14
  %163 = load float, ptr %acc1, align 4, !dbg !14
  %164 = fadd float 0.000000e+00, %163, !dbg !14
  store float %164, ptr %row_value7, align 4, !dbg !14
  %165 = load float, ptr %row_value7, align 4, !dbg !9
  %166 = call float @llvm.nvvm.shfl.sync.idx.f32(i32 -1, float %165, i32 0, i32 31), !dbg !9
  store float %166, ptr %row_value7, align 4, !dbg !9
  %167 = select i1 %8, i64 128, i64 0, !dbg !9
  br label %loop.header8, !dbg !9

loop.header8:                                     ; preds = %loop.body9, %loop.exit4
  %iv11 = phi i64 [ %2, %loop.exit4 ], [ %iv.next12, %loop.body9 ], !dbg !9
  %168 = icmp slt i64 %iv11, %167, !dbg !9
  br i1 %168, label %loop.body9, label %loop.exit10, !dbg !9

loop.body9:                                       ; preds = %loop.header8
  %169 = add i64 0, %9, !dbg !10
  %170 = mul i64 %169, 128, !dbg !10
  %171 = add i64 %170, %iv11, !dbg !10
  %172 = getelementptr inbounds float, ptr %arg0, i64 %171, !dbg !10
  %173 = load float, ptr %172, align 4, !dbg !10
  %174 = load float, ptr %row_value, align 4, !dbg !11
  %175 = fsub float %173, %174, !dbg !12
  %176 = call float @__nv_expf(float %175) #4, !dbg !13
  %177 = load float, ptr %row_value7, align 4, !dbg !14
  %178 = fdiv float %176, %177, !dbg !15
  %179 = add i64 0, %9, !dbg !9
  %180 = mul i64 %179, 128, !dbg !9
  %181 = add i64 %180, %iv11, !dbg !9
  %182 = getelementptr inbounds float, ptr %arg1, i64 %181, !dbg !9
  store float %178, ptr %182, align 4, !dbg !9
  %iv.next12 = add nsw i64 %iv11, 32, !dbg !9
  br label %loop.header8, !dbg !9

loop.exit10:                                      ; preds = %loop.header8
  ret void, !dbg !9
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32) #2

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare float @llvm.nvvm.shfl.sync.idx.f32(i32, float, i32, i32) #2

; Function Attrs: nounwind willreturn memory(none)
declare float @__nv_expf(float) #3

attributes #0 = { nounwind }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #3 = { nounwind willreturn memory(none) }
attributes #4 = { memory(none) }

!llvm.module.flags = !{!0, !1}
!llvm.dbg.cu = !{!2}
!nvvm.annotations = !{!4, !5}

!0 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!1 = !{i32 2, !"Debug Info Version", i32 3}
!2 = distinct !DICompileUnit(language: DW_LANG_C, file: !3, producer: "hloscope", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly)
!3 = !DIFile(filename: "softmax.hlo", directory: "")
!4 = !{ptr @triton_softmax_2, !"kernel", i32 1}
!5 = !{ptr @triton_softmax_2, !"maxntidx", i32 256}
!6 = distinct !DISubprogram(name: "triton_softmax_2", linkageName: "triton_softmax_2", scope: !3, file: !3, line: 30, type: !7, scopeLine: 30, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2)
!7 = !DISubroutineType(types: !8)
!8 = !{}
!9 = !DILocation(line: 30, scope: !6)
!10 = !DILocation(line: 16, scope: !6)
!11 = !DILocation(line: 18, scope: !6)
!12 = !DILocation(line: 20, scope: !6)
!13 = !DILocation(line: 21, scope: !6)
!14 = !DILocation(line: 23, scope: !6)
!15 = !DILocation(line: 25, scope: !6)
