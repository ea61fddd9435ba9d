package gpreg

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
	{Sum: "433e4ad8c94839902c9dc469b58188670b128f5afd344b6e96682315dd915fd6", Users: [3]float64{0x1.6ab681ed206b2p-06, 0x1.6509fd166871cp-09, 0x1.078a3644f5091p-09}},
	{Sum: "6d9840fb3d1efcddd8b66f247780cb26b6d15ed3bcc7976e8547c7e7bfc55160", Users: [3]float64{0x1.82d1c67363b43p-06, 0x1.903127adb670ep-07, 0x1.b21f4adbab168p-05}},
	{Sum: "65ee206516ce8d544ad997e577aec997c44be64460831b1fd5598e3c6f58689e", Users: [3]float64{0x1.03095ba08a99ap-10, 0x1.e7ab82c700e25p-06, 0x1.336fa184350bbp-01}},
	{Sum: "bf7da994d6ded6bd7c9dfe4a95fd7371af5416eba4070037c21d2128a05845a5", Users: [3]float64{0x1.4b716c05c8913p-01, 0x1.492b45180d07cp-03, 0x1.2f113ee0cf3ebp+00}},
	{Sum: "78c0c697c755af78e7afa47d14c7f279b8b10c5cd8d37d20558b5fb3fc9d381e", Users: [3]float64{0x1.4b60715da6664p-04, 0x1.230329a69a2c1p-03, 0x1.90688c9c88452p-06}},
}
