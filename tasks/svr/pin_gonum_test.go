//go:build !openblas

package svr

// pinLossesBLAS holds the pins of the pure-Go build, one per pinThetas entry. They were
// re-recorded when the pure-Go build moved its kernel products from gonum's BLAS to package
// gemm, whose fused multiply-adds round differently: at 20 thetas (the benchmark's two and
// 18 drawn from the box) every fit kept its support vectors and SMO step count, per-user
// losses moved by at most 2.0e-8 relative and validation MSEs by 1.2e-14.
var pinLossesBLAS = []struct {
	sum   string
	users [3]float64
}{
	{"67d46b966290c9ae60514d740f39da54a10e30707b72770ada2b50c555bbad28", [3]float64{0x1.b090717f66dafp-07, 0x1.bcf04b1a54599p-07, 0x1.755ec85acf82dp-12}},
	{"f93d896633280292f50196ef27a56f5a517cbbf176e1bd7be915c6c79591da9e", [3]float64{0x1.ec8332276aa9ep-07, 0x1.f0fdd4f5f347p-07, 0x1.27f6ee260bf04p-10}},
	{"e068a65a28f331996756eb0669125429b49d6080223c1649a8bd4e4363d084f3", [3]float64{0x1.ee50df59dbe8bp-07, 0x1.ce6736f9ffcfap-07, 0x1.abed21d23cbb8p-12}},
	{"b66b75b7e71df9f0d24cf0916b6698eda63b395202c918a2d9f40f730cf5fd66", [3]float64{0x1.e3ccd9a71daa5p-02, 0x1.dbacbd0697c1ep-03, 0x1.1bc51e548563bp-02}},
	{"9b9e35875e0ddec71ecea12595ab02a26bd0958f217e11d4fcabf5bcd28515e1", [3]float64{0x1.cc905c8e69d0cp-04, 0x1.41bfd0bcc18a4p-06, 0x1.285ba2ab5d86ap-08}},
}
