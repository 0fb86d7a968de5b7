; ModuleID = 'fusion_1'
source_filename = "fusion_1"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nounwind
define void @fusion_1(ptr noalias readonly align 16 dereferenceable(48) %arg0, ptr noalias readonly align 16 dereferenceable(32) %arg1, ptr noalias align 16 dereferenceable(168) %arg2) #0 !dbg !6 {
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

loop_header:                                      ; preds = %merge, %entry
  %linear = phi i64 [ %9, %entry ], [ %32, %merge ], !dbg !9
  %11 = icmp ult i64 %linear, 42, !dbg !9
  br i1 %11, label %loop_body, label %loop_exit, !dbg !9

loop_body:                                        ; preds = %loop_header
  %12 = urem i64 %linear, 6, !dbg !9
  %13 = udiv i64 %linear, 6, !dbg !9
  %14 = urem i64 %13, 7, !dbg !9
  %15 = udiv i64 %13, 7, !dbg !9
  %16 = sub i64 %14, 1, !dbg !10
  %17 = icmp sge i64 %16, 0, !dbg !10
  %18 = and i1 true, %17, !dbg !10
  %19 = icmp slt i64 %16, 5, !dbg !10
  %20 = and i1 %18, %19, !dbg !10
  %21 = sub i64 %12, 1, !dbg !10
  %22 = icmp sge i64 %21, 0, !dbg !10
  %23 = and i1 %20, %22, !dbg !10
  %24 = icmp slt i64 %21, 4, !dbg !10
  %25 = and i1 %23, %24, !dbg !10
  br i1 %25, label %in_bounds, label %merge, !dbg !10

loop_exit:                                        ; preds = %loop_header
  ret void, !dbg !9

in_bounds:                                        ; preds = %loop_body
  %26 = icmp slt i64 %16, 3, !dbg !11
  br i1 %26, label %concat_operand, label %concat_next, !dbg !11

merge:                                            ; preds = %concat_merge, %loop_body
  %27 = phi float [ %45, %concat_merge ], [ 0.000000e+00, %loop_body ], !dbg !10
  %28 = add i64 0, %14, !dbg !9
  %29 = mul i64 %28, 6, !dbg !9
  %30 = add i64 %29, %12, !dbg !9
  %31 = getelementptr inbounds float, ptr %arg2, i64 %30, !dbg !9
  store float %27, ptr %31, align 4, !dbg !9
  %32 = add i64 %linear, %10, !dbg !9
  br label %loop_header, !dbg !9

concat_operand:                                   ; preds = %in_bounds
  %33 = sub i64 %16, 0, !dbg !11
  %34 = add i64 0, %33, !dbg !12
  %35 = mul i64 %34, 4, !dbg !12
  %36 = add i64 %35, %21, !dbg !12
  %37 = getelementptr inbounds float, ptr %arg0, i64 %36, !dbg !12
  %38 = load float, ptr %37, align 4, !dbg !12
  br label %concat_merge, !dbg !11

concat_next:                                      ; preds = %in_bounds
  br label %concat_operand1, !dbg !11

concat_operand1:                                  ; preds = %concat_next
  %39 = sub i64 %16, 3, !dbg !11
  %40 = add i64 0, %39, !dbg !13
  %41 = mul i64 %40, 4, !dbg !13
  %42 = add i64 %41, %21, !dbg !13
  %43 = getelementptr inbounds float, ptr %arg1, i64 %42, !dbg !13
  %44 = load float, ptr %43, align 4, !dbg !13
  br label %concat_merge, !dbg !11

concat_merge:                                     ; preds = %concat_operand1, %concat_operand
  %45 = phi float [ %38, %concat_operand ], [ %44, %concat_operand1 ], !dbg !11
  br label %merge, !dbg !10
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
!3 = !DIFile(filename: "concat_pad.hlo", directory: "")
!4 = !{ptr @fusion_1, !"kernel", i32 1}
!5 = !{ptr @fusion_1, !"maxntidx", i32 64}
!6 = distinct !DISubprogram(name: "fusion_1", linkageName: "fusion_1", scope: !3, file: !3, line: 14, type: !7, scopeLine: 14, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2)
!7 = !DISubroutineType(types: !8)
!8 = !{}
!9 = !DILocation(line: 14, scope: !6)
!10 = !DILocation(line: 8, scope: !6)
!11 = !DILocation(line: 7, scope: !6)
!12 = !DILocation(line: 5, scope: !6)
!13 = !DILocation(line: 4, scope: !6)
