package gpreg

import "dpgibo/internal/pin"

// pinLossesGo holds the pins of the pure-Go build on amd64, one per pinThetas entry.
var pinLossesGo = []pin.Losses{
	{Sum: "43dbe9cbb7e24352bbd625c7db70af35669ce1eed1db17ba54449e6e6dc16346", Users: [3]float64{0x1.6ab681ed20215p-06, 0x1.6509fd166a94cp-09, 0x1.078a3644f98abp-09}},
	{Sum: "c0a036d1a2f0f7cc4f15ee086bb31cf754fd2d28d78927b98eebca87ffd7e694", Users: [3]float64{0x1.82d1c67363858p-06, 0x1.903127adb2455p-07, 0x1.b21f4adbab331p-05}},
	{Sum: "dc96c0321a9e262b6212188e0d536d8acaf7d08737c0955f17d108ccef4b65ca", Users: [3]float64{0x1.03095ba089f0ap-10, 0x1.e7ab82c703a97p-06, 0x1.336fa184351c7p-01}},
	{Sum: "7b2a32b719a9b145d81228bb8f8b4653da186f05a785530d32e84cfee6a5a47d", Users: [3]float64{0x1.4b716c05c87e5p-01, 0x1.492b45180c6c5p-03, 0x1.2f113ee0cf52p+00}},
	{Sum: "0ebab1fd929343a724ba7f8cd1d3e680143bdfd6189edb61620fa2a75c60544b", Users: [3]float64{0x1.4b60715da50d8p-04, 0x1.230329a69ca0bp-03, 0x1.90688c9c8df76p-06}},
}
