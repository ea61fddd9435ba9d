package runner

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"dpgibo/internal/records"
	"dpgibo/internal/runinfo"
)

// ErrOtherRun is the error (wrapped, naming what the output directory holds and the command
// that would work) of a Run that would replace outputs of another run: a figure of the same
// name that another suite, or another configuration of that figure, wrote there (its CSV,
// manifest, timings, drawings or unfinished record), or a manifest, timings or unfinished
// record that also speaks for figures this run does not make. Overwrite replaces a colliding
// figure's outputs; a record of figures this run does not make is never replaced. The command
// exits with status 2 on it.
var ErrOtherRun = errors.New("the output directory holds another run's outputs")

// otherRunError is ErrOtherRun with its message.
type otherRunError string

func (e otherRunError) Error() string        { return string(e) }
func (e otherRunError) Is(target error) bool { return target == ErrOtherRun }

// figureIdentity is what makes two runs' versions of a figure one computation: the suite,
// the figure's whole configuration (after -seeds) and, for a figure that reads
// data from outside the module, where those came from (source, as dataSource names it).
func figureIdentity(suite string, f Figure, source string) string {
	if task, _ := externalData([]Figure{f}); task == "" {
		source = ""
	}
	b, err := json.Marshal(struct {
		Suite  string
		Figure Figure
		Source string
	}{suite, f, source})
	if err != nil {
		panic(fmt.Sprintf("experiments: encoding figure %s: %v", f.Name, err))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// unfinishedRecord is the runner's unfinished record: runinfo.Unfinished (which the figures
// command reads) with each figure's identity, so that another run can tell whether it would
// replace this one's figures.
type unfinishedRecord struct {
	runinfo.Unfinished
	ConfigHash string            `json:"config_hash,omitempty"`
	Identities map[string]string `json:"identities,omitempty"`
}

// figureClaim is one record in an output directory that says which run a figure belongs to.
type figureClaim struct {
	suite    string
	identity string // "" when the record does not say (an older record, or a bare CSV)
	record   string // the file that says so
	modified time.Time
}

// runRecord is a manifest or unfinished record found in an output directory: the run it
// belongs to and the figures it speaks for.
type runRecord struct {
	file       string
	suite      string
	configHash string // "" when the record does not say
	figures    []string
	identities map[string]string
	modified   time.Time
}

// readRunRecords reads every manifest*.json and unfinished*.json of dir. A file that cannot be
// read as either is skipped: it speaks for no figure.
func readRunRecords(dir string) []runRecord {
	var out []runRecord
	manifests, _ := filepath.Glob(filepath.Join(dir, "manifest*.json"))
	for _, path := range manifests {
		info, b, ok := readRecordFile(path)
		if !ok {
			continue
		}
		// Every manifest names its suite and figures; one whose figures still decode as this
		// code's Figure also gives each figure's identity (an older one: unknown).
		var names struct {
			runinfo.Manifest
			Figures []struct {
				Name string `json:"name"`
			} `json:"figures"`
		}
		if json.Unmarshal(b, &names) != nil {
			continue
		}
		rec := runRecord{file: filepath.Base(path), suite: names.Suite, configHash: names.ConfigHash, modified: info}
		for _, f := range names.Figures {
			rec.figures = append(rec.figures, f.Name)
		}
		var m manifest
		if json.Unmarshal(b, &m) == nil {
			rec.identities = map[string]string{}
			for _, f := range m.Figures {
				rec.identities[f.Name] = figureIdentity(m.Suite, f, m.DataSource)
			}
		}
		out = append(out, rec)
	}
	unfinished, _ := filepath.Glob(filepath.Join(dir, "unfinished*.json"))
	for _, path := range unfinished {
		info, b, ok := readRecordFile(path)
		if !ok {
			continue
		}
		var u unfinishedRecord
		if json.Unmarshal(b, &u) != nil {
			continue
		}
		out = append(out, runRecord{file: filepath.Base(path), suite: u.Suite, configHash: u.ConfigHash, figures: u.Figures, identities: u.Identities, modified: info})
	}
	return out
}

// readRecordFile returns the modification time and contents of the file at path.
func readRecordFile(path string) (time.Time, []byte, bool) {
	info, err := os.Stat(path)
	if err != nil {
		return time.Time{}, nil, false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return time.Time{}, nil, false
	}
	return info.ModTime(), b, true
}

// claimsOn returns what the records of dir say about figure name, and, when none does, what
// the suite column of the figure's CSV there says.
func claimsOn(dir, name string, recs []runRecord) []figureClaim {
	var out []figureClaim
	for _, r := range recs {
		if slices.Contains(r.figures, name) {
			out = append(out, figureClaim{suite: r.suite, identity: r.identities[name], record: r.file, modified: r.modified})
		}
	}
	if len(out) > 0 {
		return out
	}
	if path, ok := records.FindCSV(dir, name); ok {
		if suite := csvSuite(path); suite != "" {
			out = append(out, figureClaim{suite: suite, record: filepath.Base(path)})
		}
	}
	return out
}

// csvSuite returns the suite column of the first row of the CSV file at path ("" when it has
// none or cannot be read).
func csvSuite(path string) string {
	r, err := records.Open(path)
	if err != nil {
		return ""
	}
	defer r.Close()
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		return ""
	}
	row, err := cr.Read()
	if err != nil {
		return ""
	}
	for i, h := range header {
		if strings.TrimSpace(h) == "suite" && i < len(row) {
			return row[i]
		}
	}
	return ""
}

// owner returns the claim that decides whose a figure is: the most recently written record
// (an -overwrite leaves the replaced run's older record behind). Records written at the same
// time that disagree (a checkout sets every file's time) are each an owner.
func owner(claims []figureClaim) []figureClaim {
	if len(claims) == 0 {
		return nil
	}
	latest := claims[0].modified
	for _, c := range claims[1:] {
		if c.modified.After(latest) {
			latest = c.modified
		}
	}
	var out []figureClaim
	for _, c := range claims {
		if c.modified.Equal(latest) {
			out = append(out, c)
		}
	}
	return out
}

// refuseOtherRuns returns ErrOtherRun when running p (of o, with dataSource's source) into o.Out
// would replace what another run wrote there: a figure of the same name that another suite,
// or another configuration, made (unless o.Overwrite), or this run's manifest, timings or
// unfinished record where another run's record speaks for figures this run does not make
// (always: replacing it would lose the record of those figures).
func refuseOtherRuns(o Options, p *runPlan, source string) error {
	recs := readRunRecords(o.Out)
	hash := configHash(o.Suite, p)
	mine := map[string]bool{}
	for _, f := range p.Figures {
		mine[f.Name] = true
	}
	// This run's own record files, replaced at its end (the manifest, with the timings beside
	// it) or at its start (the unfinished record).
	ownFiles := []string{(&manifest{Manifest: runinfo.Manifest{Only: o.Only, Shard: o.Shard.String()}}).fileName(), runinfo.UnfinishedFile(o.Only)}
	if o.Shard.N > 1 {
		// A shard's merge writes the run's manifest too.
		ownFiles = append(ownFiles, (&manifest{Manifest: runinfo.Manifest{Only: o.Only}}).fileName())
	}
	for _, r := range recs {
		if !slices.Contains(ownFiles, r.file) || (r.configHash != "" && r.configHash == hash) {
			continue
		}
		var others []string
		for _, f := range r.figures {
			if !mine[f] {
				others = append(others, f)
			}
		}
		if len(others) > 0 {
			return otherRunError(fmt.Sprintf("%s: %s is the record of suite %s's run of %s, which this run (suite %s) would replace (its timings too); run into another folder (-out, or OUT with run_all.sh), or one figure at a time with -only=NAME, which keeps a record of its own",
				o.Out, r.file, r.suite, strings.Join(others, ", "), o.Suite))
		}
	}
	if o.Overwrite {
		return nil
	}
	var held []string
	for _, f := range p.Figures {
		id := figureIdentity(o.Suite, f, source)
		for _, c := range owner(claimsOn(o.Out, f.Name, recs)) {
			if c.suite == o.Suite && (c.identity == "" || c.identity == id) {
				continue
			}
			what := fmt.Sprintf("%s of suite %s (%s)", f.Name, c.suite, c.record)
			if c.suite == o.Suite {
				what = fmt.Sprintf("%s of suite %s in another configuration (%s)", f.Name, c.suite, c.record)
			}
			held = append(held, what)
			break
		}
	}
	if len(held) == 0 {
		return nil
	}
	how := "or set Options.Overwrite to replace their outputs (nothing else)"
	if cmd := runinfo.Rerun(o.Args, "-overwrite"); cmd != "" {
		how = "or replace their outputs (nothing else) with: " + cmd
	}
	return otherRunError(fmt.Sprintf("%s holds %s, which this run (suite %s) would replace; run into another folder (-out, or OUT with run_all.sh), %s",
		o.Out, strings.Join(held, "; "), o.Suite, how))
}
