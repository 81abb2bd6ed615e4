//go:build !amd64

package rowops

// withPortableLoops runs fn: without vector kernels, the portable loops always run.
func withPortableLoops(fn func()) { fn() }
