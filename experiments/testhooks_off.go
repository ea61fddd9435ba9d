//go:build !testhooks

package main

// testHold is the command-line tests' hook (testhooks_on.go); without the build tag
// testhooks it does nothing.
func testHold() {}
