; ModuleID = 'fusion_2'
source_filename = "fusion_2"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nounwind
define void @fusion_2(ptr noalias readonly align 16 dereferenceable(64) %arg0, ptr noalias readonly align 16 dereferenceable(1024) %arg1, ptr noalias align 16 dereferenceable(1024) %arg2) #0 {
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
  %linear = phi i64 [ %9, %entry ], [ %35, %loop_body ]
  %11 = icmp ult i64 %linear, 512
  br i1 %11, label %loop_body, label %loop_exit

loop_body:                                        ; preds = %loop_header
  %12 = urem i64 %linear, 32
  %13 = udiv i64 %linear, 32
  %14 = urem i64 %13, 16
  %15 = udiv i64 %13, 16
  %16 = add i64 0, %14
  %17 = mul i64 %16, 32
  %18 = add i64 %17, %12
  %19 = getelementptr inbounds bfloat, ptr %arg1, i64 %18
  %20 = load bfloat, ptr %19, align 2
  %21 = add i64 0, %12
  %22 = getelementptr inbounds bfloat, ptr %arg0, i64 %21
  %23 = load bfloat, ptr %22, align 2
  %24 = fpext bfloat %20 to float
  %25 = fpext bfloat %23 to float
  %26 = fmul float %24, %25
  %27 = fptrunc float %26 to bfloat
  %28 = fpext bfloat %27 to float
  %29 = call float @__nv_tanhf(float %28) #3
  %30 = fptrunc float %29 to bfloat
  %31 = add i64 0, %14
  %32 = mul i64 %31, 32
  %33 = add i64 %32, %12
  %34 = getelementptr inbounds bfloat, ptr %arg2, i64 %33
  store bfloat %30, ptr %34, align 2
  %35 = add i64 %linear, %10
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

; Function Attrs: nounwind willreturn memory(none)
declare float @__nv_tanhf(float) #2

attributes #0 = { nounwind }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nounwind willreturn memory(none) }
attributes #3 = { memory(none) }

!llvm.module.flags = !{!0}
!nvvm.annotations = !{!1, !2}

!0 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!1 = !{ptr @fusion_2, !"kernel", i32 1}
!2 = !{ptr @fusion_2, !"maxntidx", i32 256}
