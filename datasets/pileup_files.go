package datasets

import "fmt"

// pileupFile is the Delphes ROOT file of the Pileup Mitigation sample (process gg|qq, mean pileup
// pu) published on Zenodo (record 8015774, linked from the StruRW repository). Its size and sha256
// are unknown (the files could not be obtained): a downloaded copy is not verified. Package
// datasets/pileup reads it.
func pileupFile(process string, pu int) fileSpec {
	name := fmt.Sprintf("test_%s_PU%d.root", process, pu)
	return fileSpec{Path: "pileup/" + name, URL: "https://zenodo.org/records/8015774/files/" + name}
}

// Fetch returns the absolute path of f under the data root: a present file has its size checked (and
// its sha256 too with VerifyChecksums, where known); a missing one is downloaded from f.URL unless
// Offline, verified where its checksum is known, and renamed into place. A file that is missing and
// cannot be downloaded is an error wrapping ErrMissing.
func (o Options) Fetch(f File) (string, error) {
	return o.fetch(fileSpec{Path: f.Path, URL: f.URL, SHA256: f.SHA256, Size: f.Size})
}
