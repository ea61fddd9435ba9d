package baselines

import (
	"fmt"
	"sort"
	"strings"
)

// registry maps a method's name to its constructor. Adding a method is one line here plus
// the file that defines it.
var registry = map[string]func(Options) (Method, error){
	"dpgibo":    newDPGIBO,
	"gibo":      newGIBO,
	"random":    newRandom,
	"ucb":       newUCB,
	"tpe":       newTPE,
	"cmaes":     newCMAES,
	"dp-random": newDPRandom,
	"dp-ucb":    newDPUCB,
}

// New returns the method registered under name, configured by opt. An unknown name is an
// error that lists the known ones.
func New(name string, opt Options) (Method, error) {
	ctor, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("baselines: unknown method %q (known methods: %s)", name, strings.Join(Names(), ", "))
	}
	m, err := ctor(opt)
	if err != nil {
		return nil, fmt.Errorf("baselines: method %q: %w", name, err)
	}
	return m, nil
}

// Names returns the registered method names, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for name := range registry {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
