#!/usr/bin/env bash
# The Python package (crates/turnspec-py, docs/python.md).
#
#   bash scripts/python.sh install   # venv in target/py-venv, pinned tools, build and install the wheel
#   bash scripts/python.sh test      # pytest, mypy (and stubtest) on the package, stubs and tests, the walkthrough
#   bash scripts/python.sh           # both (what .ci/run runs)
#
# Needs CPython 3.11 or later with venv and pip (`python3`, or $PYTHON) and
# the Rust toolchain. Installs nothing outside target/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=$root/target/py-venv
crate=$root/crates/turnspec-py
what=${1:-all}

install() {
  if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv"
  fi
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$crate/requirements.txt"
  rm -rf "$root/target/wheels"
  # The wheel, built against Cargo.lock of the crate (--locked) into the
  # root target/ so the turnspec crates' release artefacts are shared.
  (cd "$crate" && "$venv/bin/maturin" build --quiet --release --locked \
      --target-dir "$root/target" --out "$root/target/wheels" \
      --interpreter "$venv/bin/python")
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
      --force-reinstall --no-deps "$root"/target/wheels/turnspec-*.whl
  echo "installed turnspec into $venv (activate: source target/py-venv/bin/activate)"
}

run_tests() {
  # From the repository root, so the tests find games/; the package is the
  # installed wheel, not the source folder.
  (cd "$root" && "$venv/bin/python" -m pytest -q -p no:cacheprovider "$crate/tests")
  (cd "$crate" && "$venv/bin/python" -m mypy --strict --cache-dir "$root/target/mypy-cache" \
      python/turnspec tests bench "$root/docs/examples/python_walkthrough.py")
  # The stub of the native module against the module as built.
  (cd "$crate" && "$venv/bin/python" -m mypy.stubtest turnspec._core \
      --mypy-config-file pyproject.toml --allowlist stubtest-allowlist.txt)
  (cd "$root/target" && "$venv/bin/python" "$root/docs/examples/python_walkthrough.py" > /dev/null)
  echo "walkthrough ran (10,000 games per edition)"
}

case "$what" in
  install) install ;;
  test) run_tests ;;
  all) install; run_tests ;;
  *) echo "usage: bash scripts/python.sh [install|test|all]" >&2; exit 2 ;;
esac
