//go:build amd64 && !amd64.v3

#include "textflag.h"

// func expSliceAVX2(x *float64, n int, consts *uint64, table *uint64)
//
// ExpNonPositive on four values at a time, with the operations of the Go code in the same
// order and no fused multiply-adds, so every result has the same bits:
//
//	kd = x*invStep + shifter; k = bits(kd) - bits(shifter); kd -= shifter
//	r = (x - kd*hi) - kd*lo
//	poly = 1 + r*(1 + r*(1/2 + r*(1/6 + r*(1/24 + r*(1/120)))))
//	scale = table[k & 255] + ((k >> 8) << 52)   (bits 8..19 of k: a logical shift serves)
//	result = poly * scale, or 0 where x < -708
//
// consts (32 bytes each): invStep, shifter, hi, lo, 1/120, 1/24, 1/6, 1/2, 1, -708, 255.
TEXT ·expSliceAVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ consts+16(FP), DX
	MOVQ table+24(FP), DI
	VMOVDQU 0(DX), Y15   // invStep
	VMOVDQU 32(DX), Y14  // shifter
	VMOVDQU 64(DX), Y13  // hi
	VMOVDQU 96(DX), Y12  // lo
	VMOVDQU 128(DX), Y11 // 1/120
	VMOVDQU 160(DX), Y10 // 1/24
	VMOVDQU 192(DX), Y9  // 1/6
	VMOVDQU 224(DX), Y8  // 1/2
	VMOVDQU 256(DX), Y7  // 1
	SHRQ    $2, CX

loop:
	VMOVUPD    (SI), Y0
	VMULPD     Y15, Y0, Y1
	VADDPD     Y14, Y1, Y1        // kd = x*invStep + shifter
	VPSUBQ     Y14, Y1, Y2        // k = bits(kd) - bits(shifter)
	VSUBPD     Y14, Y1, Y1        // kd -= shifter
	VMULPD     Y13, Y1, Y3
	VSUBPD     Y3, Y0, Y3         // x - kd*hi
	VMULPD     Y12, Y1, Y4
	VSUBPD     Y4, Y3, Y3         // r = (x - kd*hi) - kd*lo
	VMULPD     Y11, Y3, Y4        // r*(1/120)
	VADDPD     Y10, Y4, Y4        // 1/24 + .
	VMULPD     Y4, Y3, Y4         // r*(.)
	VADDPD     Y9, Y4, Y4         // 1/6 + .
	VMULPD     Y4, Y3, Y4
	VADDPD     Y8, Y4, Y4         // 1/2 + .
	VMULPD     Y4, Y3, Y4
	VADDPD     Y7, Y4, Y4         // 1 + .
	VMULPD     Y4, Y3, Y4
	VADDPD     Y7, Y4, Y4         // poly = 1 + .
	VPAND      320(DX), Y2, Y1    // k & 255
	VPSRLQ     $8, Y2, Y2
	VPSLLQ     $52, Y2, Y2        // (k >> 8) << 52
	VPCMPEQQ   Y3, Y3, Y3         // gather every lane
	VPXOR      Y5, Y5, Y5
	VPGATHERQQ Y3, (DI)(Y1*8), Y5 // table[k & 255]
	VPADDQ     Y2, Y5, Y5         // scale
	VMULPD     Y5, Y4, Y4         // poly * scale
	VCMPPD     $1, 288(DX), Y0, Y0 // x < -708
	VANDNPD    Y4, Y0, Y4
	VMOVUPD    Y4, (SI)
	ADDQ       $32, SI
	DECQ       CX
	JNZ        loop

	VZEROUPPER
	RET
