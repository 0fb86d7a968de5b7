; ModuleID = 'r'
source_filename = "r"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nounwind
define void @r(ptr noalias readonly align 16 dereferenceable(4000) %arg0, ptr noalias readonly align 16 dereferenceable(4000) %arg1, ptr noalias align 16 dereferenceable(4000) %arg2) #0 !dbg !6 {
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
  %linear = phi i64 [ %9, %entry ], [ %23, %loop_body ], !dbg !9
  %11 = icmp ult i64 %linear, 1000, !dbg !9
  br i1 %11, label %loop_body, label %loop_exit, !dbg !9

loop_body:                                        ; preds = %loop_header
  %12 = urem i64 %linear, 1000, !dbg !9
  %13 = udiv i64 %linear, 1000, !dbg !9
  %14 = add i64 0, %12, !dbg !9
  %15 = getelementptr inbounds float, ptr %arg0, i64 %14, !dbg !9
  %16 = load float, ptr %15, align 4, !dbg !9
  %17 = add i64 0, %12, !dbg !9
  %18 = getelementptr inbounds float, ptr %arg1, i64 %17, !dbg !9
  %19 = load float, ptr %18, align 4, !dbg !9
  %20 = fadd float %16, %19, !dbg !9
  %21 = add i64 0, %12, !dbg !9
  %22 = getelementptr inbounds float, ptr %arg2, i64 %21, !dbg !9
  store float %20, ptr %22, align 4, !dbg !9
  %23 = add i64 %linear, %10, !dbg !9
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

attributes #0 = { nounwind }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1}
!llvm.dbg.cu = !{!2}
!nvvm.annotations = !{!4, !5}

!0 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!1 = !{i32 2, !"Debug Info Version", i32 3}
!2 = distinct !DICompileUnit(language: DW_LANG_C, file: !3, producer: "hloscope", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly)
!3 = !DIFile(filename: "add_f32.hlo", directory: "")
!4 = !{ptr @r, !"kernel", i32 1}
!5 = !{ptr @r, !"maxntidx", i32 256}
!6 = distinct !DISubprogram(name: "r", linkageName: "r", scope: !3, file: !3, line: 6, type: !7, scopeLine: 6, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2)
!7 = !DISubroutineType(types: !8)
!8 = !{}
!9 = !DILocation(line: 6, scope: !6)
