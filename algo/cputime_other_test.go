//go:build !unix

package algo

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
