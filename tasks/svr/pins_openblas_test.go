package svr

import (
	"dpgibo/internal/blasinfo"
	"dpgibo/internal/pin"
)

// One OpenBLAS thread, as in the experiment runner: OpenBLAS splits its reductions by thread
// count, so the pins hold for one thread only.
func init() { blasinfo.SetThreads(1) }

// pinLossesOpenBLAS holds the pins of the openblas build with OpenBLAS's kernel set
// blasinfo.RecordedCore (OpenBLAS's kernels round differently from gonum's), one per
// pinThetas entry.
var pinLossesOpenBLAS = []pin.Losses{
	{Sum: "7c88a2d98df315c2e07c8d74cccbe44320084472508d8aee839300fc4b0de541", Users: [3]float64{0x1.b090717f66f2dp-07, 0x1.bcf04b1a54335p-07, 0x1.755ec85acefb9p-12}},
	{Sum: "d858179b71437b7f43426e3870ee3d8ada4ee30115ba9865dbcc1d7009ec3e1e", Users: [3]float64{0x1.ec2faff8d355bp-07, 0x1.f12996432e2e4p-07, 0x1.293bfd3ae0f6ep-10}},
	{Sum: "bba09652d60246040323bf3a0ad2e63b4998a0307ae6e8c38616b101881b63b9", Users: [3]float64{0x1.ed788c042e277p-07, 0x1.ccad147bc5165p-07, 0x1.a07cf9518753fp-12}},
	{Sum: "fd276a773f0aef8c92a6064bbf05ea6d0a64bdc684d4da4eb82831ee6d5e6180", Users: [3]float64{0x1.e3ccd9a71da9fp-02, 0x1.dbacbd0697c2p-03, 0x1.1bc51e548563dp-02}},
	{Sum: "9b9e35875e0ddec71ecea12595ab02a26bd0958f217e11d4fcabf5bcd28515e1", Users: [3]float64{0x1.cc905c8e69d0cp-04, 0x1.41bfd0bcc18a4p-06, 0x1.285ba2ab5d86ap-08}},
}

// pinLosses32OpenBLAS holds the pins of this build with float32 cross products
// (PredictPrecision = PrecisionFloat32), one per pinThetas entry.
var pinLosses32OpenBLAS = []pin.Losses{
	{Sum: "218dfaa11e69d845523d1d38dd9f1a009089c83ce6c5f04ace21b1c072c04d80", Users: [3]float64{0x1.b0909dd68f297p-07, 0x1.bcf15038d32ep-07, 0x1.755be71eb6e2dp-12}},
	{Sum: "211af756fe034c572dd89de66ffe196dd0488390515551e128dc7ee04930ef7c", Users: [3]float64{0x1.ec2fdf6adc166p-07, 0x1.f129998870753p-07, 0x1.2939952b6e041p-10}},
	{Sum: "de3cb111a0d7ecef8fc7872cdc148930db41c35e5c262b0a4d82db6fb302f90e", Users: [3]float64{0x1.ed789d5d6adafp-07, 0x1.ccacf8fbbc4b6p-07, 0x1.a0808da0ae325p-12}},
	{Sum: "658db4ab670e38da6fb51c6539f0807087f161820d55e47481765a044d6cb72a", Users: [3]float64{0x1.e3ccdff8b724cp-02, 0x1.dbacbc52fec97p-03, 0x1.1bc51bb13b0d5p-02}},
	{Sum: "9e010a456678a96d37f274b3c1b14d32d58671ff86f50a312b3e663fc85e9811", Users: [3]float64{0x1.cc8f661e026dcp-04, 0x1.41c708f32db48p-06, 0x1.2854741d1e34ep-08}},
}
