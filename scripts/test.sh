#!/usr/bin/env bash
# test.sh is the project's test command: the README's second quick-start command and what CI runs.
# It first fails, listing the files, when gofmt would change any Go file (build/ excluded). From a
# fresh Debian 12 machine with Go and npm it then installs what the tests need (Chromium for the
# real-browser tests; scripts/notebooks.sh installs Jupyter with the classic Notebook, the GoNB tools
# and ECharts), executes every notebook headless in quick mode, then runs go vet (also for arm64,
# whose build has no vector kernels) and every Go test,
# including the notebook output checks, the live notebook test (01-theory in the classic Notebook in
# Chromium) and the integration tests on real data when GEOMIX_DATA points at the data root.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -n "${GEOMIX_DATA:-}" ]; then # relative to where the command was started, not to the root
	GEOMIX_DATA=$(realpath -m -- "$GEOMIX_DATA")
	export GEOMIX_DATA
fi
cd "$root"

echo "== test.sh: gofmt" >&2
unformatted=$(find . -path ./build -prune -o -name '*.go' -print0 | xargs -0 -r gofmt -l)
if [ -n "$unformatted" ]; then
	echo "test.sh: gofmt would change these files (run gofmt -w on them):" >&2
	echo "$unformatted" >&2
	exit 1
fi

if [ -z "${GEOMIX_DATA:-}" ]; then
	echo "test.sh: GEOMIX_DATA is not set: tests on real data will skip (see README, 'Data')" >&2
fi

if ! command -v chromium >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ]; then
		echo "== test.sh: installing Debian's chromium for the browser test" >&2
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
	else
		echo "test.sh: chromium is missing and we are not root: the browser test will skip" >&2
	fi
fi

echo "== test.sh: executing the notebooks headless (quick mode)" >&2
GEOMIX_QUICK=1 "$root/scripts/notebooks.sh"

echo "== test.sh: go vet and go test" >&2
go vet ./...
# The vector kernels are amd64 only: the portable loops must build (and vet) for other machines.
GOARCH=arm64 go vet ./...
go test -count=1 -timeout 40m ./...
