//go:build !openblas

package gpreg

// pinLossesBLAS holds the pins of the pure-Go build, one per pinThetas entry. They were
// re-recorded when the pure-Go build moved its products and its Cholesky factorisation from
// gonum's BLAS to package gemm, whose fused multiply-adds and blocking round differently:
// at 90 random thetas (d = 2, 5, 15) per-user losses moved by at most 1.6e-7 relative and
// mean losses by at most 2.2e-12, the size of the difference between the pure-Go and
// OpenBLAS builds before the move (3.5e-7 and 1.7e-12).
var pinLossesBLAS = []struct {
	sum   string
	users [3]float64
}{
	{"851b204790f8222d28d09b2d8470910e6c29bf6c3c802e945a716680d20d44b5", [3]float64{0x1.6ab681ed1e323p-06, 0x1.6509fd166ec1ap-09, 0x1.078a3644fa9e3p-09}},
	{"2c030a95dbff78ab370a23d9818966c24d650006e1e4063f73c33359395b947b", [3]float64{0x1.82d1c673640f2p-06, 0x1.903127adb221fp-07, 0x1.b21f4adbaaf47p-05}},
	{"e4f3b0cf500a55a9e731fb655c28618da2dbae0830dd664c8e5c56049c42a9ed", [3]float64{0x1.03095ba08a18ep-10, 0x1.e7ab82c7039dp-06, 0x1.336fa184351edp-01}},
	{"7b2a32b719a9b145d81228bb8f8b4653da186f05a785530d32e84cfee6a5a47d", [3]float64{0x1.4b716c05c87e5p-01, 0x1.492b45180c6c5p-03, 0x1.2f113ee0cf52p+00}},
	{"99c55ae97641001b975044f8be4a3f32ee8472cc2b4380017d579a414bcff48a", [3]float64{0x1.4b60715db1916p-04, 0x1.230329a695d7bp-03, 0x1.90688c9c94383p-06}},
}
