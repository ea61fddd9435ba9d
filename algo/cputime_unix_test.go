//go:build unix

package algo

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user + system) used so far by this process, all threads.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
