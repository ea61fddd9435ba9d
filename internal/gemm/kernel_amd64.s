#include "textflag.h"

// func kernelAVX2(kc int, a, b, c *float64, ldc int, alpha float64)
//
// acc[r][0:8] = sum over l of a[4l+r] * b[8l:8l+8] by fused multiply-adds in order of l,
// then c[r*ldc : r*ldc+8] = alpha*acc[r] + c[...] by one more fused multiply-add.
// Y0..Y7 hold acc (two registers of four per row), Y8 and Y9 the row of b, Y10..Y13 the
// broadcast values of a, Y15 alpha.
TEXT ·kernelAVX2(SB), NOSPLIT, $0-48
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	VBROADCASTSD alpha+40(FP), Y15
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

loop:
	VMOVUPD      (DI), Y8
	VMOVUPD      32(DI), Y9
	VBROADCASTSD (SI), Y10
	VBROADCASTSD 8(SI), Y11
	VBROADCASTSD 16(SI), Y12
	VBROADCASTSD 24(SI), Y13
	VFMADD231PD  Y8, Y10, Y0
	VFMADD231PD  Y9, Y10, Y1
	VFMADD231PD  Y8, Y11, Y2
	VFMADD231PD  Y9, Y11, Y3
	VFMADD231PD  Y8, Y12, Y4
	VFMADD231PD  Y9, Y12, Y5
	VFMADD231PD  Y8, Y13, Y6
	VFMADD231PD  Y9, Y13, Y7
	ADDQ         $32, SI
	ADDQ         $64, DI
	DECQ         CX
	JNZ          loop

	SHLQ $3, R8

	VMOVUPD     (DX), Y8
	VMOVUPD     32(DX), Y9
	VFMADD231PD Y0, Y15, Y8
	VFMADD231PD Y1, Y15, Y9
	VMOVUPD     Y8, (DX)
	VMOVUPD     Y9, 32(DX)
	ADDQ        R8, DX

	VMOVUPD     (DX), Y8
	VMOVUPD     32(DX), Y9
	VFMADD231PD Y2, Y15, Y8
	VFMADD231PD Y3, Y15, Y9
	VMOVUPD     Y8, (DX)
	VMOVUPD     Y9, 32(DX)
	ADDQ        R8, DX

	VMOVUPD     (DX), Y8
	VMOVUPD     32(DX), Y9
	VFMADD231PD Y4, Y15, Y8
	VFMADD231PD Y5, Y15, Y9
	VMOVUPD     Y8, (DX)
	VMOVUPD     Y9, 32(DX)
	ADDQ        R8, DX

	VMOVUPD     (DX), Y8
	VMOVUPD     32(DX), Y9
	VFMADD231PD Y6, Y15, Y8
	VFMADD231PD Y7, Y15, Y9
	VMOVUPD     Y8, (DX)
	VMOVUPD     Y9, 32(DX)

	VZEROUPPER
	RET

// func kernelAVX512(kc int, a, b, c *float64, ldc int, alpha float64)
//
// kernelAVX2 on a 4 x 16 tile: b holds two packed panels of 8 columns (the second kc*8
// values after the first). Z0..Z7 hold acc (row r: Z(2r) columns 0..7, Z(2r+1) columns
// 8..15), Z8 and Z9 the two rows of b, Z10..Z13 the broadcast values of a, Z15 alpha.
TEXT ·kernelAVX512(SB), NOSPLIT, $0-48
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	MOVQ CX, R9
	SHLQ $6, R9 // kc*8 values * 8 bytes: offset of the second panel
	VBROADCASTSD alpha+40(FP), Z15
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7

loop512:
	VMOVUPD      (DI), Z8
	VMOVUPD      (DI)(R9*1), Z9
	VBROADCASTSD (SI), Z10
	VBROADCASTSD 8(SI), Z11
	VBROADCASTSD 16(SI), Z12
	VBROADCASTSD 24(SI), Z13
	VFMADD231PD  Z8, Z10, Z0
	VFMADD231PD  Z9, Z10, Z1
	VFMADD231PD  Z8, Z11, Z2
	VFMADD231PD  Z9, Z11, Z3
	VFMADD231PD  Z8, Z12, Z4
	VFMADD231PD  Z9, Z12, Z5
	VFMADD231PD  Z8, Z13, Z6
	VFMADD231PD  Z9, Z13, Z7
	ADDQ         $32, SI
	ADDQ         $64, DI
	DECQ         CX
	JNZ          loop512

	SHLQ $3, R8

	VMOVUPD     (DX), Z8
	VMOVUPD     64(DX), Z9
	VFMADD231PD Z0, Z15, Z8
	VFMADD231PD Z1, Z15, Z9
	VMOVUPD     Z8, (DX)
	VMOVUPD     Z9, 64(DX)
	ADDQ        R8, DX

	VMOVUPD     (DX), Z8
	VMOVUPD     64(DX), Z9
	VFMADD231PD Z2, Z15, Z8
	VFMADD231PD Z3, Z15, Z9
	VMOVUPD     Z8, (DX)
	VMOVUPD     Z9, 64(DX)
	ADDQ        R8, DX

	VMOVUPD     (DX), Z8
	VMOVUPD     64(DX), Z9
	VFMADD231PD Z4, Z15, Z8
	VFMADD231PD Z5, Z15, Z9
	VMOVUPD     Z8, (DX)
	VMOVUPD     Z9, 64(DX)
	ADDQ        R8, DX

	VMOVUPD     (DX), Z8
	VMOVUPD     64(DX), Z9
	VFMADD231PD Z6, Z15, Z8
	VFMADD231PD Z7, Z15, Z9
	VMOVUPD     Z8, (DX)
	VMOVUPD     Z9, 64(DX)

	VZEROUPPER
	RET
