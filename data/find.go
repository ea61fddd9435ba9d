package data

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

const (
	// EnvVar is the environment variable that may name the CT-slice file or directory.
	EnvVar = "DPGIBO_CTSLICE"
	// DefaultDir is where data/fetch.sh puts the data, relative to the repository root.
	DefaultDir = "data/ctslice"
	// ModulePath is the Go module path used to recognise the repository root.
	ModulePath = "dpgibo"
)

// Where a Found file came from.
const (
	originFlag   = "-ctslice"        // the explicit path (the runner's -ctslice flag)
	originEnv    = "$" + EnvVar      // the environment variable
	originDir    = DefaultDir        // data/ctslice/ below the working directory
	originModule = "module root"     // data/ctslice/ below the repository root
	OriginNone   = "none (stand-in)" // nothing found
	OriginSample = "embedded sample" // data.Sample, data/ctslice-sample.csv
)

// Found is the result of Find.
type Found struct {
	// Path is the file (CSV or zip) to Load; "" when nothing was found.
	Path string
	// Origin says which step of the lookup order found it (one of the origin constants:
	// "-ctslice", "$DPGIBO_CTSLICE", "data/ctslice", "module root", OriginNone or
	// OriginSample).
	Origin string
}

// Find locates the CT-slice data in this order:
//
//  1. explicit (the runner's -ctslice flag), when not empty;
//  2. the environment variable $DPGIBO_CTSLICE, when set and not empty;
//  3. data/ctslice/ relative to the working directory;
//  4. data/ctslice/ below the root of the dpgibo module (the nearest parent directory of
//     the working directory whose go.mod declares module dpgibo).
//
// Steps 1 and 2 may name a file (CSV or zip) or a directory (searched for CSVName, then a
// zip archive); a path given there that does not exist, or a directory without the data,
// is an error, never a silent fall-through. Steps 3 and 4 are skipped when the directory is absent or holds no
// data. When nothing is found, Find returns Found{Origin: OriginNone} and a nil error: the
// caller then uses the stand-in.
func Find(explicit string) (Found, error) {
	if explicit != "" {
		p, err := resolveGiven(explicit, originFlag)
		return Found{Path: p, Origin: originFlag}, err
	}
	if env := os.Getenv(EnvVar); env != "" {
		p, err := resolveGiven(env, originEnv)
		return Found{Path: p, Origin: originEnv}, err
	}
	if p, err := inDirIfPresent(DefaultDir); err != nil || p != "" {
		return Found{Path: p, Origin: originDir}, err
	}
	if root := moduleRoot(); root != "" {
		wd, _ := os.Getwd()
		if filepath.Clean(root) != filepath.Clean(wd) {
			if p, err := inDirIfPresent(filepath.Join(root, DefaultDir)); err != nil || p != "" {
				return Found{Path: p, Origin: originModule}, err
			}
		}
	}
	return Found{Origin: OriginNone}, nil
}

func resolveGiven(path, origin string) (string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("data: CT-slice path from %s: %w", origin, err)
	}
	if !info.IsDir() {
		return path, nil
	}
	p, err := findInDir(path)
	if err != nil {
		return "", err
	}
	if p == "" {
		return "", fmt.Errorf("data: directory %s (from %s) holds neither %s nor a .zip archive (run %s)", path, origin, CSVName, FetchCommand)
	}
	return p, nil
}

func inDirIfPresent(dir string) (string, error) {
	info, err := os.Stat(dir)
	if err != nil || !info.IsDir() {
		return "", nil
	}
	return findInDir(dir)
}

// moduleRoot returns the nearest directory, from the working directory upwards, whose
// go.mod declares module dpgibo; "" when there is none.
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if isModuleRoot(filepath.Join(dir, "go.mod")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func isModuleRoot(gomod string) bool {
	f, err := os.Open(gomod)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 2 && fields[0] == "module" {
			return strings.Trim(fields[1], `"`) == ModulePath
		}
	}
	return false
}
