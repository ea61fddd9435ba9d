package svr

import "dpgibo/internal/pin"

// pinLossesGo holds the pins of the pure-Go build on amd64, one per pinThetas entry.
var pinLossesGo = []pin.Losses{
	{Sum: "afdb53c1df0b2e78002cb2b1593e515b14b3e29100917748ae5fcc5ff78deece", Users: [3]float64{0x1.b090717f66d39p-07, 0x1.bcf04b1a546a5p-07, 0x1.755ec85acf962p-12}},
	{Sum: "e37a4308a960ce5ba19fbe5e639effdaf0b48fb47730dcf3082a6a8d5a63ad4d", Users: [3]float64{0x1.ec8332276a5b6p-07, 0x1.f0fdd4f5f246dp-07, 0x1.27f6ee260b443p-10}},
	{Sum: "6773e1bfa01e19ef30b17cd746861d23185d432576d17d9ccf260173db22cb45", Users: [3]float64{0x1.ee50df59dc19dp-07, 0x1.ce6736f9ffc8fp-07, 0x1.abed21d23d4c5p-12}},
	{Sum: "3b34cee2fd0d6f135667ca1fd9657c0455e2e84eac2349926a6e0cd3169e3a0f", Users: [3]float64{0x1.e3ccd9a71daa2p-02, 0x1.dbacbd0697c1ep-03, 0x1.1bc51e548563dp-02}},
	{Sum: "ce0d231ba0309a02b6f9bc7fd5d639174907ac57423d97436a2f883d7a6f3e48", Users: [3]float64{0x1.cc905c8e69e2dp-04, 0x1.41bfd0bcc1e87p-06, 0x1.285ba2ab5dcdap-08}},
}

// pinLosses32Go holds the pins of this build with float32 cross products
// (PredictPrecision = PrecisionFloat32), one per pinThetas entry.
var pinLosses32Go = []pin.Losses{
	{Sum: "b11be58d6e4d94698780a975937b7a0e283cd08f8261afe9b1c1c862b2483215", Users: [3]float64{0x1.b08e58708dab6p-07, 0x1.bcef2a04e223cp-07, 0x1.754c9ee680df5p-12}},
	{Sum: "e7c9aed66c8bc92d8e546a3d8e414b3d5206c26766b1954e1a02be521c7a0213", Users: [3]float64{0x1.ec7ed228718e8p-07, 0x1.f0fa8bf1e78cfp-07, 0x1.2808d9e5b1cc5p-10}},
	{Sum: "d817f8b79d52a2570613c6226128612017ff0510c1d8e3f3933bae60c1f5b546", Users: [3]float64{0x1.ee4d08cd0437ep-07, 0x1.ce66ccde5a34cp-07, 0x1.abe452b72bb2ep-12}},
	{Sum: "046446c799f71783a5231afe49e5156efdcc4c77b4dc86d01f03dd9a321c9b84", Users: [3]float64{0x1.e3ccda5d77a26p-02, 0x1.dbacbd06460f2p-03, 0x1.1bc522e4e07e4p-02}},
	{Sum: "2b6f2141ecda5af35a0aeb0b020c7b31ddc406b33f3a8685fba473ba1df6ccd2", Users: [3]float64{0x1.cc91554d899bcp-04, 0x1.41b9401ce8cccp-06, 0x1.2854d223b1f51p-08}},
}
