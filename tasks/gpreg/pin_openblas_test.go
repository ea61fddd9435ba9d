//go:build openblas

package gpreg

import "dpgibo/algo"

// One OpenBLAS thread, as in the experiment runner: OpenBLAS splits its reductions by thread
// count, so the pins (through the data) hold for one thread only.
func init() { algo.SetBLASThreads(1) }

// pinLossesBLAS holds the pins of the openblas build, one per pinThetas entry: the
// evaluation runs the same code as in the pure-Go build, but the data are drawn with a
// Cholesky factorisation on OpenBLAS and differ in the last bits. They were re-recorded when
// this build moved its products and its Cholesky factorisation from OpenBLAS to package
// gemm: at 90 random thetas (d = 2, 5, 15) per-user losses moved by at most 4.3e-7 relative
// and mean losses by at most 7.8e-13.
var pinLossesBLAS = []struct {
	sum   string
	users [3]float64
}{
	{"180e004237bec1f12d3797939ffaeb755726e232e1013f337a6d4480ab8edae2", [3]float64{0x1.6ab681ed1e8a4p-06, 0x1.6509fd166848p-09, 0x1.078a3644fc9dp-09}},
	{"0cbc9e64d9d487399ffcdc0d2d117603f53b940cce58a8feb05f014a0d67d81b", [3]float64{0x1.82d1c67363a6bp-06, 0x1.903127adb7352p-07, 0x1.b21f4adbaa85fp-05}},
	{"6539f31ebd84e2d2966ced2bf6630cd11540b4a7be3190d3e1dd2ef53b70c5b3", [3]float64{0x1.03095ba08a99ap-10, 0x1.e7ab82c700dc1p-06, 0x1.336fa184350c3p-01}},
	{"bf7da994d6ded6bd7c9dfe4a95fd7371af5416eba4070037c21d2128a05845a5", [3]float64{0x1.4b716c05c8913p-01, 0x1.492b45180d07cp-03, 0x1.2f113ee0cf3ebp+00}},
	{"b6c6c80e8871204f9e1e1d4085ea264296edd3337af9f65a0f4ecadee628bc28", [3]float64{0x1.4b60715d9a863p-04, 0x1.230329a69bd84p-03, 0x1.90688c9c80241p-06}},
}
