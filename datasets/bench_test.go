package datasets

import (
	"errors"
	"testing"
)

// BenchmarkLoadAll loads every registered data set present under $GEOMIX_DATA (offline).
func BenchmarkLoadAll(b *testing.B) {
	root := coreDataRoot(b)
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			opts := Options{Root: root, Offline: true}
			if _, err := Load(name, opts); errors.Is(err, ErrMissing) {
				b.Skipf("%s not present: %v", name, err)
			} else if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := Load(name, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
