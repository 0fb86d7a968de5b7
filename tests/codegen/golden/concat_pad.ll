; ModuleID = 'fusion_1'
source_filename = "fusion_1"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nounwind
define void @fusion_1(ptr noalias readonly align 16 dereferenceable(48) %arg0, ptr noalias readonly align 16 dereferenceable(32) %arg1, ptr noalias align 16 dereferenceable(168) %arg2) #0 {
entry:
  %0 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %1 = zext i32 %0 to i64
  %2 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %3 = zext i32 %2 to i64
  %4 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %5 = zext i32 %4 to i64
  %6 = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %7 = zext i32 %6 to i64
  %8 = mul i64 %3, %5
  %9 = add i64 %8, %1
  %10 = mul i64 %7, %5
  br label %loop_header

loop_header:                                      ; preds = %merge, %entry
  %linear = phi i64 [ %9, %entry ], [ %32, %merge ]
  %11 = icmp ult i64 %linear, 42
  br i1 %11, label %loop_body, label %loop_exit

loop_body:                                        ; preds = %loop_header
  %12 = urem i64 %linear, 6
  %13 = udiv i64 %linear, 6
  %14 = urem i64 %13, 7
  %15 = udiv i64 %13, 7
  %16 = sub i64 %14, 1
  %17 = icmp sge i64 %16, 0
  %18 = and i1 true, %17
  %19 = icmp slt i64 %16, 5
  %20 = and i1 %18, %19
  %21 = sub i64 %12, 1
  %22 = icmp sge i64 %21, 0
  %23 = and i1 %20, %22
  %24 = icmp slt i64 %21, 4
  %25 = and i1 %23, %24
  br i1 %25, label %in_bounds, label %merge

loop_exit:                                        ; preds = %loop_header
  ret void

in_bounds:                                        ; preds = %loop_body
  %26 = icmp slt i64 %16, 3
  br i1 %26, label %concat_operand, label %concat_next

merge:                                            ; preds = %concat_merge, %loop_body
  %27 = phi float [ %45, %concat_merge ], [ 0.000000e+00, %loop_body ]
  %28 = add i64 0, %14
  %29 = mul i64 %28, 6
  %30 = add i64 %29, %12
  %31 = getelementptr inbounds float, ptr %arg2, i64 %30
  store float %27, ptr %31, align 4
  %32 = add i64 %linear, %10
  br label %loop_header

concat_operand:                                   ; preds = %in_bounds
  %33 = sub i64 %16, 0
  %34 = add i64 0, %33
  %35 = mul i64 %34, 4
  %36 = add i64 %35, %21
  %37 = getelementptr inbounds float, ptr %arg0, i64 %36
  %38 = load float, ptr %37, align 4
  br label %concat_merge

concat_next:                                      ; preds = %in_bounds
  br label %concat_operand1

concat_operand1:                                  ; preds = %concat_next
  %39 = sub i64 %16, 3
  %40 = add i64 0, %39
  %41 = mul i64 %40, 4
  %42 = add i64 %41, %21
  %43 = getelementptr inbounds float, ptr %arg1, i64 %42
  %44 = load float, ptr %43, align 4
  br label %concat_merge

concat_merge:                                     ; preds = %concat_operand1, %concat_operand
  %45 = phi float [ %38, %concat_operand ], [ %44, %concat_operand1 ]
  br label %merge
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

!llvm.module.flags = !{!0}
!nvvm.annotations = !{!1, !2}

!0 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!1 = !{ptr @fusion_1, !"kernel", i32 1}
!2 = !{ptr @fusion_1, !"maxntidx", i32 64}
