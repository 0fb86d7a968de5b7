; ModuleID = 'triton_softmax_2'
source_filename = "triton_softmax_2"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nounwind
define void @triton_softmax_2(ptr noalias readonly align 16 dereferenceable(8192) %arg0, ptr noalias align 16 dereferenceable(8192) %arg1) #0 !dbg !6 {
entry:
  %row_value2 = alloca float, align 4, !dbg !9
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
  %10 = select i1 %8, i64 32, i64 0, !dbg !9
  %11 = icmp slt i64 %2, %10, !dbg !9
  %12 = select i1 %11, i64 %2, i64 0, !dbg !9
  %13 = mul i64 %12, 4, !dbg !9
  %14 = add i64 %13, 1, !dbg !9
  %15 = add i64 %13, 2, !dbg !9
  %16 = add i64 %13, 3, !dbg !9
  %17 = add i64 0, %9, !dbg !10
  %18 = mul i64 %17, 128, !dbg !10
  %19 = add i64 %18, %13, !dbg !10
  %20 = getelementptr inbounds float, ptr %arg0, i64 %19, !dbg !10
  %param_1 = load <4 x float>, ptr %20, align 16, !dbg !10
  %21 = extractelement <4 x float> %param_1, i64 0, !dbg !10
  %22 = extractelement <4 x float> %param_1, i64 1, !dbg !10
  %23 = extractelement <4 x float> %param_1, i64 2, !dbg !10
  %24 = extractelement <4 x float> %param_1, i64 3, !dbg !10
  store float %21, ptr %acc, align 4, !dbg !9
  %25 = load float, ptr %acc, align 4, !dbg !9
  %26 = fcmp olt float %25, %22, !dbg !11
  %27 = select i1 %26, float %22, float %25, !dbg !11
  %28 = fcmp uno float %22, %22, !dbg !11
  %29 = select i1 %28, float %22, float %27, !dbg !11
  %30 = fcmp uno float %25, %25, !dbg !11
  %31 = select i1 %30, float %25, float %29, !dbg !11
  store float %31, ptr %acc, align 4, !dbg !9
  %32 = load float, ptr %acc, align 4, !dbg !9
  %33 = fcmp olt float %32, %23, !dbg !11
  %34 = select i1 %33, float %23, float %32, !dbg !11
  %35 = fcmp uno float %23, %23, !dbg !11
  %36 = select i1 %35, float %23, float %34, !dbg !11
  %37 = fcmp uno float %32, %32, !dbg !11
  %38 = select i1 %37, float %32, float %36, !dbg !11
  store float %38, ptr %acc, align 4, !dbg !9
  %39 = load float, ptr %acc, align 4, !dbg !9
  %40 = fcmp olt float %39, %24, !dbg !11
  %41 = select i1 %40, float %24, float %39, !dbg !11
  %42 = fcmp uno float %24, %24, !dbg !11
  %43 = select i1 %42, float %24, float %41, !dbg !11
  %44 = fcmp uno float %39, %39, !dbg !11
  %45 = select i1 %44, float %39, float %43, !dbg !11
  store float %45, ptr %acc, align 4, !dbg !9
  %46 = load float, ptr %acc, align 4, !dbg !11
  %47 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %46, i32 16, i32 31), !dbg !11
  %48 = fcmp olt float %46, %47, !dbg !11
  %49 = select i1 %48, float %47, float %46, !dbg !11
  %50 = fcmp uno float %47, %47, !dbg !11
  %51 = select i1 %50, float %47, float %49, !dbg !11
  %52 = fcmp uno float %46, %46, !dbg !11
  %53 = select i1 %52, float %46, float %51, !dbg !11
  %54 = add i64 %2, 16, !dbg !11
  %55 = icmp slt i64 %54, 32, !dbg !11
  %56 = add i64 %2, 16, !dbg !11
  %57 = icmp slt i64 %56, 32, !dbg !11
  %58 = and i1 %57, %55, !dbg !11
  %59 = select i1 %58, float %53, float %46, !dbg !11
  store float %59, ptr %acc, align 4, !dbg !11
  %60 = load float, ptr %acc, align 4, !dbg !11
  %61 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %60, i32 8, i32 31), !dbg !11
  %62 = fcmp olt float %60, %61, !dbg !11
  %63 = select i1 %62, float %61, float %60, !dbg !11
  %64 = fcmp uno float %61, %61, !dbg !11
  %65 = select i1 %64, float %61, float %63, !dbg !11
  %66 = fcmp uno float %60, %60, !dbg !11
  %67 = select i1 %66, float %60, float %65, !dbg !11
  %68 = add i64 %2, 8, !dbg !11
  %69 = icmp slt i64 %68, 32, !dbg !11
  %70 = add i64 %2, 8, !dbg !11
  %71 = icmp slt i64 %70, 32, !dbg !11
  %72 = and i1 %71, %69, !dbg !11
  %73 = select i1 %72, float %67, float %60, !dbg !11
  store float %73, ptr %acc, align 4, !dbg !11
  %74 = load float, ptr %acc, align 4, !dbg !11
  %75 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %74, i32 4, i32 31), !dbg !11
  %76 = fcmp olt float %74, %75, !dbg !11
  %77 = select i1 %76, float %75, float %74, !dbg !11
  %78 = fcmp uno float %75, %75, !dbg !11
  %79 = select i1 %78, float %75, float %77, !dbg !11
  %80 = fcmp uno float %74, %74, !dbg !11
  %81 = select i1 %80, float %74, float %79, !dbg !11
  %82 = add i64 %2, 4, !dbg !11
  %83 = icmp slt i64 %82, 32, !dbg !11
  %84 = add i64 %2, 4, !dbg !11
  %85 = icmp slt i64 %84, 32, !dbg !11
  %86 = and i1 %85, %83, !dbg !11
  %87 = select i1 %86, float %81, float %74, !dbg !11
  store float %87, ptr %acc, align 4, !dbg !11
  %88 = load float, ptr %acc, align 4, !dbg !11
  %89 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %88, i32 2, i32 31), !dbg !11
  %90 = fcmp olt float %88, %89, !dbg !11
  %91 = select i1 %90, float %89, float %88, !dbg !11
  %92 = fcmp uno float %89, %89, !dbg !11
  %93 = select i1 %92, float %89, float %91, !dbg !11
  %94 = fcmp uno float %88, %88, !dbg !11
  %95 = select i1 %94, float %88, float %93, !dbg !11
  %96 = add i64 %2, 2, !dbg !11
  %97 = icmp slt i64 %96, 32, !dbg !11
  %98 = add i64 %2, 2, !dbg !11
  %99 = icmp slt i64 %98, 32, !dbg !11
  %100 = and i1 %99, %97, !dbg !11
  %101 = select i1 %100, float %95, float %88, !dbg !11
  store float %101, ptr %acc, align 4, !dbg !11
  %102 = load float, ptr %acc, align 4, !dbg !11
  %103 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %102, i32 1, i32 31), !dbg !11
  %104 = fcmp olt float %102, %103, !dbg !11
  %105 = select i1 %104, float %103, float %102, !dbg !11
  %106 = fcmp uno float %103, %103, !dbg !11
  %107 = select i1 %106, float %103, float %105, !dbg !11
  %108 = fcmp uno float %102, %102, !dbg !11
  %109 = select i1 %108, float %102, float %107, !dbg !11
  %110 = add i64 %2, 1, !dbg !11
  %111 = icmp slt i64 %110, 32, !dbg !11
  %112 = add i64 %2, 1, !dbg !11
  %113 = icmp slt i64 %112, 32, !dbg !11
  %114 = and i1 %113, %111, !dbg !11
  %115 = select i1 %114, float %109, float %102, !dbg !11
  store float %115, ptr %acc, align 4, !dbg !11
  %116 = load float, ptr %acc, align 4, !dbg !11
  %117 = fcmp olt float 0xFFF0000000000000, %116, !dbg !11
  %118 = select i1 %117, float %116, float 0xFFF0000000000000, !dbg !11
  %119 = fcmp uno float %116, %116, !dbg !11
  %120 = select i1 %119, float %116, float %118, !dbg !11
  %121 = select i1 false, float 0xFFF0000000000000, float %120, !dbg !11
  store float %121, ptr %row_value, align 4, !dbg !11
  %122 = load float, ptr %row_value, align 4, !dbg !9
  %123 = call float @llvm.nvvm.shfl.sync.idx.f32(i32 -1, float %122, i32 0, i32 31), !dbg !9
  store float %123, ptr %row_value, align 4, !dbg !9
  %124 = select i1 %8, i64 32, i64 0, !dbg !9
  %125 = icmp slt i64 %2, %124, !dbg !9
  %126 = select i1 %125, i64 %2, i64 0, !dbg !9
  %127 = mul i64 %126, 4, !dbg !9
  %128 = add i64 %127, 1, !dbg !9
  %129 = add i64 %127, 2, !dbg !9
  %130 = add i64 %127, 3, !dbg !9
  %131 = load float, ptr %row_value, align 4, !dbg !11
  %132 = fsub float %21, %131, !dbg !12
  %133 = call float @__nv_expf(float %132) #4, !dbg !13
  store float %133, ptr %acc1, align 4, !dbg !9
  %134 = fsub float %22, %131, !dbg !12
  %135 = call float @__nv_expf(float %134) #4, !dbg !13
  %136 = load float, ptr %acc1, align 4, !dbg !9
  %137 = fadd float %136, %135, !dbg !14
  store float %137, ptr %acc1, align 4, !dbg !9
  %138 = fsub float %23, %131, !dbg !12
  %139 = call float @__nv_expf(float %138) #4, !dbg !13
  %140 = load float, ptr %acc1, align 4, !dbg !9
  %141 = fadd float %140, %139, !dbg !14
  store float %141, ptr %acc1, align 4, !dbg !9
  %142 = fsub float %24, %131, !dbg !12
  %143 = call float @__nv_expf(float %142) #4, !dbg !13
  %144 = load float, ptr %acc1, align 4, !dbg !9
  %145 = fadd float %144, %143, !dbg !14
  store float %145, ptr %acc1, align 4, !dbg !9
  %146 = load float, ptr %acc1, align 4, !dbg !14
  %147 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %146, i32 16, i32 31), !dbg !14
  %148 = fadd float %146, %147, !dbg !14
  %149 = add i64 %2, 16, !dbg !14
  %150 = icmp slt i64 %149, 32, !dbg !14
  %151 = add i64 %2, 16, !dbg !14
  %152 = icmp slt i64 %151, 32, !dbg !14
  %153 = and i1 %152, %150, !dbg !14
  %154 = select i1 %153, float %148, float %146, !dbg !14
  store float %154, ptr %acc1, align 4, !dbg !14
  %155 = load float, ptr %acc1, align 4, !dbg !14
  %156 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %155, i32 8, i32 31), !dbg !14
  %157 = fadd float %155, %156, !dbg !14
  %158 = add i64 %2, 8, !dbg !14
  %159 = icmp slt i64 %158, 32, !dbg !14
  %160 = add i64 %2, 8, !dbg !14
  %161 = icmp slt i64 %160, 32, !dbg !14
  %162 = and i1 %161, %159, !dbg !14
  %163 = select i1 %162, float %157, float %155, !dbg !14
  store float %163, ptr %acc1, align 4, !dbg !14
  %164 = load float, ptr %acc1, align 4, !dbg !14
  %165 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %164, i32 4, i32 31), !dbg !14
  %166 = fadd float %164, %165, !dbg !14
  %167 = add i64 %2, 4, !dbg !14
  %168 = icmp slt i64 %167, 32, !dbg !14
  %169 = add i64 %2, 4, !dbg !14
  %170 = icmp slt i64 %169, 32, !dbg !14
  %171 = and i1 %170, %168, !dbg !14
  %172 = select i1 %171, float %166, float %164, !dbg !14
  store float %172, ptr %acc1, align 4, !dbg !14
  %173 = load float, ptr %acc1, align 4, !dbg !14
  %174 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %173, i32 2, i32 31), !dbg !14
  %175 = fadd float %173, %174, !dbg !14
  %176 = add i64 %2, 2, !dbg !14
  %177 = icmp slt i64 %176, 32, !dbg !14
  %178 = add i64 %2, 2, !dbg !14
  %179 = icmp slt i64 %178, 32, !dbg !14
  %180 = and i1 %179, %177, !dbg !14
  %181 = select i1 %180, float %175, float %173, !dbg !14
  store float %181, ptr %acc1, align 4, !dbg !14
  %182 = load float, ptr %acc1, align 4, !dbg !14
  %183 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %182, i32 1, i32 31), !dbg !14
  %184 = fadd float %182, %183, !dbg !14
  %185 = add i64 %2, 1, !dbg !14
  %186 = icmp slt i64 %185, 32, !dbg !14
  %187 = add i64 %2, 1, !dbg !14
  %188 = icmp slt i64 %187, 32, !dbg !14
  %189 = and i1 %188, %186, !dbg !14
  %190 = select i1 %189, float %184, float %182, !dbg !14
  store float %190, ptr %acc1, align 4, !dbg !14
  %191 = load float, ptr %acc1, align 4, !dbg !14
  %192 = fadd float 0.000000e+00, %191, !dbg !14
  store float %192, ptr %row_value2, align 4, !dbg !14
  %193 = load float, ptr %row_value2, align 4, !dbg !9
  %194 = call float @llvm.nvvm.shfl.sync.idx.f32(i32 -1, float %193, i32 0, i32 31), !dbg !9
  store float %194, ptr %row_value2, align 4, !dbg !9
  %195 = select i1 %8, i64 32, i64 0, !dbg !9
  %196 = icmp slt i64 %2, %195, !dbg !9
  %197 = select i1 %196, i64 %2, i64 0, !dbg !9
  %198 = mul i64 %197, 4, !dbg !9
  %199 = add i64 %198, 1, !dbg !9
  %200 = add i64 %198, 2, !dbg !9
  %201 = add i64 %198, 3, !dbg !9
  %202 = load float, ptr %row_value, align 4, !dbg !11
  %203 = fsub float %21, %202, !dbg !12
  %204 = call float @__nv_expf(float %203) #4, !dbg !13
  %205 = load float, ptr %row_value2, align 4, !dbg !14
  %206 = fdiv float %204, %205, !dbg !15
  %207 = fsub float %22, %202, !dbg !12
  %208 = call float @__nv_expf(float %207) #4, !dbg !13
  %209 = fdiv float %208, %205, !dbg !15
  %210 = fsub float %23, %202, !dbg !12
  %211 = call float @__nv_expf(float %210) #4, !dbg !13
  %212 = fdiv float %211, %205, !dbg !15
  %213 = fsub float %24, %202, !dbg !12
  %214 = call float @__nv_expf(float %213) #4, !dbg !13
  %215 = fdiv float %214, %205, !dbg !15
  br i1 %196, label %if.then, label %if.end, !dbg !9

if.then:                                          ; preds = %entry
  %216 = insertelement <4 x float> poison, float %206, i64 0, !dbg !9
  %217 = insertelement <4 x float> %216, float %209, i64 1, !dbg !9
  %218 = insertelement <4 x float> %217, float %212, i64 2, !dbg !9
  %219 = insertelement <4 x float> %218, float %215, i64 3, !dbg !9
  %220 = add i64 0, %9, !dbg !9
  %221 = mul i64 %220, 128, !dbg !9
  %222 = add i64 %221, %198, !dbg !9
  %223 = getelementptr inbounds float, ptr %arg1, i64 %222, !dbg !9
  store <4 x float> %219, ptr %223, align 16, !dbg !9
  br label %if.end, !dbg !9

if.end:                                           ; preds = %if.then, %entry
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
