package datasets

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// twitchTargets is the content of a musae_<X>_target.csv file.
type twitchTargets struct {
	// labels is [N]: 1 when the user streams mature content, indexed by new_id.
	labels []int32
	// duplicates lists, in increasing order, the new_ids that had more than one row.
	duplicates []int
}

// readNamedCSV reads a whole CSV file with a header line that must name every column in want. It
// returns the column positions by name and the records after the header with their 1-based line
// numbers.
func readNamedCSV(path string, want []string) (cols map[string]int, records [][]string, lines []int, err error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("datasets: %w", err)
	}
	defer func() { _ = file.Close() }()
	r := csv.NewReader(file)
	r.ReuseRecord = false
	head, err := r.Read()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("datasets: %s: reading the header: %w", path, err)
	}
	cols = map[string]int{}
	for i, name := range head {
		cols[name] = i
	}
	for _, name := range want {
		if _, ok := cols[name]; !ok {
			return nil, nil, nil, fmt.Errorf("datasets: %s line 1: header %q has no column %q", path, strings.Join(head, ","), name)
		}
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return cols, records, lines, nil
		}
		if err != nil {
			return nil, nil, nil, fmt.Errorf("datasets: %s: %w (expected %d comma-separated fields)", path, err, len(head))
		}
		line, _ := r.FieldPos(0)
		records = append(records, rec)
		lines = append(lines, line)
	}
}

// parseCSVNodeID parses a node id field, which must be an integer in [0, numNodes) (numNodes < 0: no
// upper bound).
func parseCSVNodeID(path string, line int, column, field string, numNodes int) (int, error) {
	id, err := strconv.Atoi(field)
	if err != nil || id < 0 || (numNodes >= 0 && id >= numNodes) {
		if numNodes >= 0 {
			return 0, fmt.Errorf("datasets: %s line %d: %s %q, expected an integer node id in [0, %d)", path, line, column, field, numNodes)
		}
		return 0, fmt.Errorf("datasets: %s line %d: %s %q, expected a non-negative integer node id", path, line, column, field)
	}
	return id, nil
}

// parseTwitchTargets reads a target file (header id,days,mature,views,partner,new_id). The node ids
// (new_id) must be exactly 0..N-1; a new_id given on several rows is kept once (the first row) when
// the rows agree on the user (id) and the label (mature), and is an error otherwise. (FR's repeated
// rows differ by one in the views column.)
func parseTwitchTargets(path string) (*twitchTargets, error) {
	cols, records, lines, err := readNamedCSV(path, []string{"mature", "new_id"})
	if err != nil {
		return nil, err
	}
	firstLine := map[int]int{} // new_id -> index of its first record
	var labels []int32
	var dups []int
	for r, rec := range records {
		id, err := parseCSVNodeID(path, lines[r], "new_id", rec[cols["new_id"]], -1)
		if err != nil {
			return nil, err
		}
		var label int32
		switch rec[cols["mature"]] {
		case "True":
			label = 1
		case "False":
		default:
			return nil, fmt.Errorf("datasets: %s line %d: mature %q, expected True or False", path, lines[r], rec[cols["mature"]])
		}
		if prev, seen := firstLine[id]; seen {
			for _, col := range []string{"id", "mature"} {
				if c, ok := cols[col]; ok && records[prev][c] != rec[c] {
					return nil, fmt.Errorf("datasets: %s: new_id %d is on line %d and line %d with different %s (%s vs %s)",
						path, id, lines[prev], lines[r], col, strings.Join(records[prev], ","), strings.Join(rec, ","))
				}
			}
			dups = append(dups, id)
			continue
		}
		firstLine[id] = r
		if id >= len(labels) {
			labels = append(labels, make([]int32, id+1-len(labels))...)
		}
		labels[id] = label
	}
	if len(labels) == 0 {
		return nil, fmt.Errorf("datasets: %s has no data rows, expected one row per node", path)
	}
	if len(firstLine) != len(labels) {
		for id := range labels {
			if _, ok := firstLine[id]; !ok {
				return nil, fmt.Errorf("datasets: %s: no row for new_id %d, expected every id in 0..%d", path, id, len(labels)-1)
			}
		}
	}
	slices.Sort(dups)
	return &twitchTargets{labels: labels, duplicates: dups}, nil
}

// parseTwitchFeatures reads a features file, a JSON object {"<new_id>": [game id, ...]}, into a
// binary [numNodes, 3170] CSR. It returns the ids of the nodes without an entry (all-zero rows).
func parseTwitchFeatures(path string, numNodes int) (*CSR, []int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("datasets: %w", err)
	}
	var raw map[string][]json.Number
	if err := json.Unmarshal(data, &raw); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return nil, nil, fmt.Errorf("datasets: %s: invalid JSON at byte %d of %d: %v (expected an object of node id -> list of game ids)",
				path, syntax.Offset, len(data), err)
		}
		return nil, nil, fmt.Errorf("datasets: %s: %w (expected an object of node id -> list of game ids)", path, err)
	}
	rows := make([][]int32, numNodes)
	has := make([]bool, numNodes)
	for key, games := range raw {
		id, err := strconv.Atoi(key)
		if err != nil || id < 0 || id >= numNodes {
			return nil, nil, fmt.Errorf("datasets: %s: key %q, expected a node id in [0, %d)", path, key, numNodes)
		}
		row := make([]int32, len(games))
		for i, g := range games {
			v, err := strconv.Atoi(string(g))
			if err != nil || v < 0 || v >= twitchNumFeatures {
				return nil, nil, fmt.Errorf("datasets: %s: key %q item %d is %s, expected a game id in [0, %d)", path, key, i, g, twitchNumFeatures)
			}
			row[i] = int32(v)
		}
		slices.Sort(row)
		rows[id] = slices.Compact(row)
		has[id] = true
	}
	var missing []int
	m := &CSR{NumRows: numNodes, NumCols: twitchNumFeatures, RowPtr: make([]int64, numNodes+1)}
	for i, row := range rows {
		if !has[i] {
			missing = append(missing, i)
		}
		m.ColIdx = append(m.ColIdx, row...)
		m.RowPtr[i+1] = int64(len(m.ColIdx))
	}
	m.Values = make([]float32, len(m.ColIdx))
	for i := range m.Values {
		m.Values[i] = 1
	}
	return m, missing, nil
}

// parseTwitchEdges reads an edge file (header from,to; one undirected edge per line) over numNodes
// nodes into the Graph edge form (both directions, sorted, no duplicates, no self-loops).
func parseTwitchEdges(path string, numNodes int) (src, dst []int32, err error) {
	cols, records, lineNums, err := readNamedCSV(path, []string{"from", "to"})
	if err != nil {
		return nil, nil, err
	}
	from := make([]int32, len(records))
	to := make([]int32, len(records))
	for r, rec := range records {
		a, err := parseCSVNodeID(path, lineNums[r], "from", rec[cols["from"]], numNodes)
		if err != nil {
			return nil, nil, err
		}
		b, err := parseCSVNodeID(path, lineNums[r], "to", rec[cols["to"]], numNodes)
		if err != nil {
			return nil, nil, err
		}
		from[r], to[r] = int32(a), int32(b)
	}
	src, dst, err = UndirectedEdges(numNodes, from, to)
	if err != nil {
		return nil, nil, fmt.Errorf("datasets: %s: %w", path, err)
	}
	return src, dst, nil
}
