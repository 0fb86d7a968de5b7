; ModuleID = 'fusion_1'
source_filename = "fusion_1"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nounwind
define void @fusion_1(ptr noalias readonly align 16 dereferenceable(1024) %arg0, ptr noalias readonly align 16 dereferenceable(64) %arg1, ptr noalias align 16 dereferenceable(1024) %arg2) #0 !dbg !6 {
entry:
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !9
  %1 = zext i32 %0 to i64, !dbg !9
  %2 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !9
  %3 = zext i32 %2 to i64, !dbg !9
  %4 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !9
  %5 = zext i32 %4 to i64, !dbg !9
  %6 = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x(), !dbg !9
  %7 = zext i32 %6 to i64, !dbg !9
  %8 = mul i64 %3, %5, !dbg !9
  %9 = add i64 %8, %1, !dbg !9
  %10 = mul i64 %7, %5, !dbg !9
  br label %loop_header, !dbg !9

loop_header:                                      ; preds = %loop_body, %entry
  %linear = phi i64 [ %9, %entry ], [ %35, %loop_body ], !dbg !9
  %11 = icmp ult i64 %linear, 512, !dbg !9
  br i1 %11, label %loop_body, label %loop_exit, !dbg !9

loop_body:                                        ; preds = %loop_header
  %12 = urem i64 %linear, 32, !dbg !9
  %13 = udiv i64 %linear, 32, !dbg !9
  %14 = urem i64 %13, 16, !dbg !9
  %15 = udiv i64 %13, 16, !dbg !9
  %16 = add i64 0, %14, !dbg !10
  %17 = mul i64 %16, 32, !dbg !10
  %18 = add i64 %17, %12, !dbg !10
  %19 = getelementptr inbounds bfloat, ptr %arg0, i64 %18, !dbg !10
  %20 = load bfloat, ptr %19, align 2, !dbg !10
  %21 = add i64 0, %12, !dbg !11
  %22 = getelementptr inbounds bfloat, ptr %arg1, i64 %21, !dbg !11
  %23 = load bfloat, ptr %22, align 2, !dbg !11
  %24 = fpext bfloat %20 to float, !dbg !12
  %25 = fpext bfloat %23 to float, !dbg !12
  %26 = fmul float %24, %25, !dbg !12
  %27 = fptrunc float %26 to bfloat, !dbg !12
  %28 = fpext bfloat %27 to float, !dbg !13
  %29 = call float @__nv_tanhf(float %28) #3, !dbg !13
  %30 = fptrunc float %29 to bfloat, !dbg !13
  %31 = add i64 0, %14, !dbg !9
  %32 = mul i64 %31, 32, !dbg !9
  %33 = add i64 %32, %12, !dbg !9
  %34 = getelementptr inbounds bfloat, ptr %arg2, i64 %33, !dbg !9
  store bfloat %30, ptr %34, align 2, !dbg !9
  %35 = add i64 %linear, %10, !dbg !9
  br label %loop_header, !dbg !9

loop_exit:                                        ; preds = %loop_header
  ret void, !dbg !9
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.nctaid.x() #1

; Function Attrs: nounwind willreturn memory(none)
declare float @__nv_tanhf(float) #2

attributes #0 = { nounwind }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nounwind willreturn memory(none) }
attributes #3 = { memory(none) }

!llvm.module.flags = !{!0, !1}
!llvm.dbg.cu = !{!2}
!nvvm.annotations = !{!4, !5}

!0 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!1 = !{i32 2, !"Debug Info Version", i32 3}
!2 = distinct !DICompileUnit(language: DW_LANG_C, file: !3, producer: "hloscope", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly)
!3 = !DIFile(filename: "tanh_bf16.hlo", directory: "")
!4 = !{ptr @fusion_1, !"kernel", i32 1}
!5 = !{ptr @fusion_1, !"maxntidx", i32 256}
!6 = distinct !DISubprogram(name: "fusion_1", linkageName: "fusion_1", scope: !3, file: !3, line: 14, type: !7, scopeLine: 14, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2)
!7 = !DISubroutineType(types: !8)
!8 = !{}
!9 = !DILocation(line: 14, scope: !6)
!10 = !DILocation(line: 5, scope: !6)
!11 = !DILocation(line: 4, scope: !6)
!12 = !DILocation(line: 7, scope: !6)
!13 = !DILocation(line: 8, scope: !6)
