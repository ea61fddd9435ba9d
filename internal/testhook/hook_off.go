//go:build !testhooks

// Package testhook holds the hooks the command-line tests of experiments compile in with the
// build tag testhooks (hook_on.go); without it they do nothing.
package testhook

// Hold is the command-line tests' hook (hook_on.go); without the build tag testhooks it
// does nothing.
func Hold() {}
