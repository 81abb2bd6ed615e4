package tables

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// TSNEReport is a TSNESweep's stored embeddings, data set by data set, method by method (nil where
// none is stored).
type TSNEReport struct {
	// Figure is FigureTSNE.
	Figure string `json:"figure"`
	Provenance
	// Datasets and Methods are the sweep's; Embeddings is [len(Datasets)][len(Methods)].
	Datasets   []string       `json:"datasets"`
	Methods    []string       `json:"methods"`
	Embeddings [][]*Embedding `json:"embeddings"`
}

// LoadTSNE reads sweep's stored embeddings under dir (a missing one is nil; an unreadable record is
// an error naming it).
func LoadTSNE(dir string, sweep TSNESweep) (*TSNEReport, error) {
	if err := sweep.Check(); err != nil {
		return nil, err
	}
	r := &TSNEReport{Figure: FigureTSNE, Provenance: newProvenance(), Datasets: sweep.Datasets, Methods: sweep.Methods}
	for _, d := range sweep.Datasets {
		row := make([]*Embedding, len(sweep.Methods))
		for j, m := range sweep.Methods {
			e, err := ReadEmbedding(TSNERecordPath(dir, d, m))
			if errors.Is(err, os.ErrNotExist) {
				continue
			} else if err != nil {
				return nil, err
			}
			row[j] = e
			r.add(e.Quick, e.Command, e.GitRevision)
		}
		r.Embeddings = append(r.Embeddings, row)
	}
	return r, nil
}

// WriteTSNEReport renders OutDir/figure-tsne.md (atomically) from sweep's stored embeddings and
// returns the report and its path.
func WriteTSNEReport(sweep TSNESweep, opts Options) (*TSNEReport, string, error) {
	opts = opts.withOutDir()
	report, err := LoadTSNE(opts.OutDir, sweep)
	if err != nil {
		return nil, "", err
	}
	report.Command = opts.Command
	path, err := writeFigureReport(opts, FigureTSNE, report.Markdown())
	return report, path, err
}

// Separation counts, on each data set with GCN's embedding stored (GCN must be the sweep's first
// method), the other methods' embeddings and those whose representations' silhouette is above
// GCN's: the paper's claim that GeoMix's representations are more discriminative.
func (r *TSNEReport) Separation() (compared, above int) {
	if len(r.Methods) == 0 || r.Methods[0] != "gcn" {
		return 0, 0
	}
	for _, row := range r.Embeddings {
		if row[0] == nil {
			continue
		}
		for _, e := range row[1:] {
			if e != nil {
				compared++
				if e.Silhouette > row[0].Silhouette {
					above++
				}
			}
		}
	}
	return compared, above
}

// Markdown renders the report: per data set and method the run's test accuracy and
// the silhouette of its representations and of their embedding, the claim's count, the notes
// (Notes(FigureTSNE)) and a folded provenance block.
func (r *TSNEReport) Markdown() string {
	var b strings.Builder
	b.WriteString("# Figures: t-SNE of the learned representations\n\nOne run per method with its preset; its final-layer output (the logits [N, C] in evaluation mode) at the selected epoch, embedded in 2-D by t-SNE. The command draws each embedding in `figure-tsne/<dataset>-<method>.html` beside its record (charts are not committed: each inlines ECharts; `--report-only` redraws them from the records).\n")
	r.Provenance.writeQuickWarning(&b)
	b.WriteString("\n| Dataset | Method | Test acc. (run 0) | Best epoch | Silhouette (representations) | Silhouette (t-SNE, 2-D) |\n|---|---|---|---|---|---|\n")
	for i, d := range r.Datasets {
		for j, m := range r.Methods {
			e := r.Embeddings[i][j]
			if e == nil {
				fmt.Fprintf(&b, "| %s | %s | not run | | | |\n", DatasetNames[d], MethodNames[m])
				continue
			}
			fmt.Fprintf(&b, "| %s | %s | %.2f | %d | %.3f | %.3f |\n", DatasetNames[d], MethodNames[m], e.TestAcc, e.BestEpoch, e.Silhouette, e.SilhouetteTSNE)
		}
	}
	var configs []string
	for _, row := range r.Embeddings {
		for _, e := range row {
			if e != nil {
				configs = appendNew(configs, fmt.Sprintf("perplexity %g, %d iterations, seed %d", e.TSNE.Perplexity, e.TSNE.Iterations, e.TSNE.Seed))
			}
		}
	}
	if len(configs) > 0 {
		fmt.Fprintf(&b, "\nt-SNE: %s.\n", strings.Join(configs, "; "))
	}
	compared, above := r.Separation()
	fmt.Fprintf(&b, "\nThe representations' silhouette is above GCN's for %d of %d GeoMix embeddings (the paper: \"the hidden representations learned with Geometric Mixup are more discriminative\").\n", above, compared)
	r.Provenance.writeFigureFooter(&b, FigureTSNE)
	return b.String()
}

// Points counts the stored embeddings.
func (r *TSNEReport) Points() int {
	n := 0
	for _, row := range r.Embeddings {
		for _, e := range row {
			if e != nil {
				n++
			}
		}
	}
	return n
}

// WriteEmbeddings writes one line per stored embedding, in key=value form (what notebooks print and
// their tests parse):
//
//	embedding cora gcn: test=81.50 epoch=120 silhouette=0.245 silhouette_tsne=0.226 nodes=2708 quick=false
func (r *TSNEReport) WriteEmbeddings(w io.Writer) error {
	for i, d := range r.Datasets {
		for j, m := range r.Methods {
			if e := r.Embeddings[i][j]; e != nil {
				if _, err := fmt.Fprintf(w, "embedding %s %s: test=%.2f epoch=%d silhouette=%.3f silhouette_tsne=%.3f nodes=%d quick=%v\n",
					d, m, e.TestAcc, e.BestEpoch, e.Silhouette, e.SilhouetteTSNE, len(e.X), e.Quick); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
