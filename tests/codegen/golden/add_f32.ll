; ModuleID = 'r'
source_filename = "r"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nounwind
define void @r(ptr noalias readonly align 16 dereferenceable(4000) %arg0, ptr noalias readonly align 16 dereferenceable(4000) %arg1, ptr noalias align 16 dereferenceable(4000) %arg2) #0 {
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

loop_header:                                      ; preds = %loop_body, %entry
  %linear = phi i64 [ %9, %entry ], [ %23, %loop_body ]
  %11 = icmp ult i64 %linear, 1000
  br i1 %11, label %loop_body, label %loop_exit

loop_body:                                        ; preds = %loop_header
  %12 = urem i64 %linear, 1000
  %13 = udiv i64 %linear, 1000
  %14 = add i64 0, %12
  %15 = getelementptr inbounds float, ptr %arg0, i64 %14
  %16 = load float, ptr %15, align 4
  %17 = add i64 0, %12
  %18 = getelementptr inbounds float, ptr %arg1, i64 %17
  %19 = load float, ptr %18, align 4
  %20 = fadd float %16, %19
  %21 = add i64 0, %12
  %22 = getelementptr inbounds float, ptr %arg2, i64 %21
  store float %20, ptr %22, align 4
  %23 = add i64 %linear, %10
  br label %loop_header

loop_exit:                                        ; preds = %loop_header
  ret void
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
!1 = !{ptr @r, !"kernel", i32 1}
!2 = !{ptr @r, !"maxntidx", i32 256}
