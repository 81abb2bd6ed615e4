#!/usr/bin/env bash
# notebooks.sh executes every notebooks/*.ipynb headless with the GoNB kernel and writes the executed
# notebooks and standalone HTML exports to build/notebooks/. It exits non-zero on any cell error.
#
# From a fresh Debian 12 machine with Go and npm it:
#   1. builds gonb + goimports (go.mod `tool` directives) and gopls (tools/gopls) into build/bin/;
#   2. installs Debian's Jupyter packages when missing (as root; otherwise it says what to install,
#      or to use environment.yml and point JUPYTER at that environment's jupyter);
#   3. installs echarts@5.4.3 with npm into <user cache>/geomix/echarts-5.4.3 (viz inlines it), and
#      mathjax@3.2.2 into <user cache>/geomix/mathjax-3.2.2 (the HTML exports load it from a copy
#      beside them, build/notebooks/mathjax/, configured by scripts/mathjax/config.js);
#   4. registers the GoNB kernel in a private JUPYTER_DATA_DIR (build/jupyter);
#   5. runs `jupyter nbconvert --execute` on each notebook, with GEOMIX_HEADLESS=1, and exports HTML.
# With --setup it stops after step 4 (the live-notebook test, notebooks/live_test.go, runs it so).
# With --commit it then writes each executed notebook back to notebooks/ with its outputs, every chart
# as an image (PNG; JPEG for dense scatters; see notebooks/freeze), so GitHub shows them; run it
# without GEOMIX_QUICK. It needs chromium to draw the charts.
# Step 2 also installs Debian's classic Jupyter Notebook (`jupyter notebook`), to open the notebooks in.
#
# Environment:
#   GEOMIX_QUICK=1        notebooks shrink their work (fewer epochs) for CI.
#   GEOMIX_DATA           data root; a relative one is taken from the directory the script is started in.
#                         Notebooks fall back to synthetic data without it.
#   GEOMIX_ECHARTS        an echarts.min.js (5.4.3) to inline instead of the npm-installed one.
#   GEOMIX_NB_TIMEOUT     per-cell timeout in seconds (default 1800).
#   GEOMIX_NB_OUT         folder for the executed notebooks and HTML (default build/notebooks).
#   JUPYTER               jupyter executable (default /usr/bin/jupyter: Debian's, whatever python3 is on PATH).
#   NOTEBOOKS             space-separated notebook paths to run instead of all of notebooks/*.ipynb.
set -euo pipefail

step() { echo "== notebooks.sh: $*" >&2; }
die() { echo "notebooks.sh: $*" >&2; exit 1; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build
bin=$build/bin
out=$(realpath -m -- "${GEOMIX_NB_OUT:-$build/notebooks}")
jupyter=${JUPYTER:-/usr/bin/jupyter}
timeout=${GEOMIX_NB_TIMEOUT:-1800}
echarts_version=5.4.3
echarts_dir=${XDG_CACHE_HOME:-$HOME/.cache}/geomix/echarts-$echarts_version
echarts_js=$echarts_dir/node_modules/echarts/dist/echarts.min.js
mathjax_version=3.2.2
mathjax_dir=${XDG_CACHE_HOME:-$HOME/.cache}/geomix/mathjax-$mathjax_version
mathjax_js=$mathjax_dir/node_modules/mathjax/es5/tex-svg-full.js
mode=${1:-}
case $mode in
'' | --setup | --commit) ;;
*) die "unknown argument $mode: want none, --setup or --commit" ;;
esac
if [ "$mode" = --commit ] && [ "${GEOMIX_QUICK:-0}" = 1 ]; then
	die "--commit writes the notebooks' outputs into notebooks/: run it without GEOMIX_QUICK=1 (a full run)"
fi
if [ -n "${GEOMIX_DATA:-}" ]; then
	# The kernel runs cells in its own folder: hand it the data root as an absolute path.
	GEOMIX_DATA=$(realpath -m -- "$GEOMIX_DATA")
	export GEOMIX_DATA
fi

step "building gonb, goimports and gopls into $bin"
mkdir -p "$bin" "$out"
(cd "$root" && go build -o "$bin/" tool)
(cd "$root/tools/gopls" && go build -o "$bin/" tool)
export PATH=$bin:$PATH

if [ "$(id -u)" = 0 ] && [ "$jupyter" = /usr/bin/jupyter ] && ! "$jupyter" notebook --version >/dev/null 2>&1; then
	step "installing Debian's Jupyter packages and classic Notebook (about 2 minutes)"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jupyter-nbconvert python3-nbclient jupyter-client python3-ipykernel jupyter-notebook >/dev/null
fi
if ! "$jupyter" nbconvert --version >/dev/null 2>&1 || ! "$jupyter" kernelspec --version >/dev/null 2>&1; then
	die "$jupyter with nbconvert is missing. As root: apt-get install -y jupyter-nbconvert python3-nbclient jupyter-client python3-ipykernel jupyter-notebook; elsewhere: conda env create -f environment.yml && conda activate geomix, then run with JUPYTER=\$(command -v jupyter)"
fi

if [ -n "${GEOMIX_ECHARTS:-}" ]; then
	[ -f "$GEOMIX_ECHARTS" ] || die "GEOMIX_ECHARTS=$GEOMIX_ECHARTS is not a file"
	echarts_js=$GEOMIX_ECHARTS
elif [ ! -f "$echarts_js" ]; then
	command -v npm >/dev/null || die "npm is missing (apt-get install -y npm, or the nodejs of environment.yml); it fetches echarts@$echarts_version"
	step "installing echarts@$echarts_version into $echarts_dir"
	mkdir -p "$echarts_dir"
	npm install --prefix "$echarts_dir" --no-audit --no-fund --silent "echarts@$echarts_version"
fi
export GEOMIX_ECHARTS=$echarts_js
if [ ! -f "$mathjax_js" ]; then
	command -v npm >/dev/null || die "npm is missing (apt-get install -y npm, or the nodejs of environment.yml); it fetches mathjax@$mathjax_version"
	step "installing mathjax@$mathjax_version into $mathjax_dir"
	mkdir -p "$mathjax_dir"
	npm install --prefix "$mathjax_dir" --no-audit --no-fund --silent "mathjax@$mathjax_version"
fi
mkdir -p "$out/mathjax"
cp "$mathjax_js" "$root/scripts/mathjax/config.js" "$out/mathjax/"

export JUPYTER_DATA_DIR=$build/jupyter
step "registering the GoNB kernel in $JUPYTER_DATA_DIR"
gonb --install --raw_error >/dev/null
if [ "$mode" = --setup ]; then
	exit 0
fi

export GEOMIX_HEADLESS=1
if [ -n "${NOTEBOOKS:-}" ]; then
	read -r -a notebooks <<<"$NOTEBOOKS"
else
	notebooks=("$root"/notebooks/*.ipynb)
fi
[ -e "${notebooks[0]}" ] || die "no notebooks found in $root/notebooks"
for nb in "${notebooks[@]}"; do
	name=$(basename "$nb" .ipynb)
	step "executing $nb (quick=${GEOMIX_QUICK:-0})"
	start=$(date +%s)
	"$jupyter" nbconvert --to notebook --execute --ExecutePreprocessor.kernel_name=gonb \
		--ExecutePreprocessor.timeout="$timeout" --output-dir "$out" --output "$name.ipynb" "$nb"
	"$jupyter" nbconvert --to html --HTMLExporter.mathjax_url=mathjax/config.js --output-dir "$out" --output "$name.html" "$out/$name.ipynb"
	step "$name done in $(($(date +%s) - start)) s: $out/$name.ipynb, $out/$name.html"
	if [ "$mode" = --commit ]; then
		(cd "$root" && go run ./notebooks/freeze "$out/$name.ipynb" "$root/notebooks/$name.ipynb")
		step "committed outputs: notebooks/$name.ipynb ($(wc -c <"$root/notebooks/$name.ipynb") bytes)"
	fi
done
