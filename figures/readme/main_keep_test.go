package main

import (
	"os"
	"testing"

	"dpgibo/internal/records"
)

// TestMain decodes each committed file once however many tests read it
// (records.KeepDecoded): they judge and render reproduction/ several times.
func TestMain(m *testing.M) {
	stop := records.KeepDecoded()
	code := m.Run()
	stop()
	os.Exit(code)
}
