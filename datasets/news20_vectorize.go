package datasets

import (
	_ "embed"
	"math"
	"slices"
	"strings"
	"unicode"
)

// news20StopWordsText is scikit-learn 1.2.1's ENGLISH_STOP_WORDS (318 words, one a line), copied
// from sklearn/feature_extraction/_stop_words.py of Debian's python3-sklearn 1.2.1+dfsg-1.
//
//go:embed news20_stopwords.txt
var news20StopWordsText string

// news20StopWords is the set of news20StopWordsText.
var news20StopWords = func() map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(news20StopWordsText) {
		set[w] = true
	}
	return set
}()

// isWordRune is Python's Unicode \w: letters, numbers (Nd, Nl, No) and the underscore.
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// countTokens is scikit-learn's CountVectorizer analyzer on one latin-1 document, with
// lowercase=True, token_pattern (?u)\b\w\w+\b and stop_words='english': it lowercases the text,
// takes every maximal run of two or more word characters and drops the stop words. It returns the
// count of each remaining token.
func countTokens(latin1 []byte) map[string]int32 {
	counts := map[string]int32{}
	var run []rune
	flush := func() {
		if len(run) >= 2 {
			if tok := string(run); !news20StopWords[tok] {
				counts[tok]++
			}
		}
		run = run[:0]
	}
	for _, b := range latin1 {
		r := unicode.ToLower(rune(b)) // latin-1 bytes are the code points U+0000..U+00FF.
		if isWordRune(r) {
			run = append(run, r)
		} else {
			flush()
		}
	}
	flush()
	return counts
}

// tfidfMatrix is scikit-learn's CountVectorizer(min_df=minDF) followed by
// TfidfTransformer(smooth_idf=False, sublinear_tf=False, norm='l2') over the token counts of every
// document: the vocabulary is every token found in at least minDF*len(docs) documents, sorted; a
// document's row is count * (ln(n/df) + 1), scaled to unit L2 norm (an all-zero row stays zero).
// It returns the [len(docs), len(vocabulary)] matrix and the vocabulary.
func tfidfMatrix(docs []map[string]int32, minDF float64) (*CSR, []string) {
	df := map[string]int{}
	for _, counts := range docs {
		for tok := range counts {
			df[tok]++
		}
	}
	minCount := minDF * float64(len(docs))
	var vocab []string
	for tok, d := range df {
		if float64(d) >= minCount {
			vocab = append(vocab, tok)
		}
	}
	slices.Sort(vocab)
	idf := make([]float64, len(vocab))
	for j, tok := range vocab {
		idf[j] = math.Log(float64(len(docs))/float64(df[tok])) + 1
	}
	m := &CSR{NumRows: len(docs), NumCols: len(vocab), RowPtr: make([]int64, len(docs)+1)}
	row := make([]float64, 0, len(vocab))
	for i, counts := range docs {
		row = row[:0]
		var sq float64
		for j, tok := range vocab {
			if c := counts[tok]; c > 0 {
				v := float64(c) * idf[j]
				row = append(row, v)
				sq += v * v
				m.ColIdx = append(m.ColIdx, int32(j))
			}
		}
		norm := math.Sqrt(sq)
		for _, v := range row {
			if norm > 0 {
				v /= norm
			}
			m.Values = append(m.Values, float32(v))
		}
		m.RowPtr[i+1] = int64(len(m.ColIdx))
	}
	return m, vocab
}
