//go:build openblas

package svr

import (
	"dpgibo/internal/blasinfo"
	"dpgibo/internal/pin"
)

// One OpenBLAS thread, as in the experiment runner: OpenBLAS splits its reductions by thread
// count, so the pins hold for one thread only.
func init() { blasinfo.SetThreads(1) }

// pinLossesBLAS holds the pins of the openblas build (OpenBLAS's kernels round differently
// from gonum's), one per pinThetas entry.
var pinLossesBLAS = []pin.Losses{
	{Sum: "7c88a2d98df315c2e07c8d74cccbe44320084472508d8aee839300fc4b0de541", Users: [3]float64{0x1.b090717f66f2dp-07, 0x1.bcf04b1a54335p-07, 0x1.755ec85acefb9p-12}},
	{Sum: "d858179b71437b7f43426e3870ee3d8ada4ee30115ba9865dbcc1d7009ec3e1e", Users: [3]float64{0x1.ec2faff8d355bp-07, 0x1.f12996432e2e4p-07, 0x1.293bfd3ae0f6ep-10}},
	{Sum: "bba09652d60246040323bf3a0ad2e63b4998a0307ae6e8c38616b101881b63b9", Users: [3]float64{0x1.ed788c042e277p-07, 0x1.ccad147bc5165p-07, 0x1.a07cf9518753fp-12}},
	{Sum: "fd276a773f0aef8c92a6064bbf05ea6d0a64bdc684d4da4eb82831ee6d5e6180", Users: [3]float64{0x1.e3ccd9a71da9fp-02, 0x1.dbacbd0697c2p-03, 0x1.1bc51e548563dp-02}},
	{Sum: "9b9e35875e0ddec71ecea12595ab02a26bd0958f217e11d4fcabf5bcd28515e1", Users: [3]float64{0x1.cc905c8e69d0cp-04, 0x1.41bfd0bcc18a4p-06, 0x1.285ba2ab5d86ap-08}},
}
