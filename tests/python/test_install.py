"""cmake --install puts a package that imports and probes, outside the build tree."""

import os
import subprocess
import sys


def test_the_installed_module_imports_and_probes(tmp_path, tables):
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", os.environ["DTB_BUILD_DIR"], "--prefix", str(prefix), "--component",
                    "python"], check=True, capture_output=True, timeout=120)
    site = prefix / os.environ["DTB_PYTHON_INSTALL_DIR"]
    names = sorted(p.name for p in (site / "dtb").iterdir())
    assert len(names) == 2 and names[0] == "__init__.py" and names[1].startswith("_dtb."), names
    script = ("import dtb, sys; print(dtb.__file__); "
              "print(dtb.open_tablebase(sys.argv[1], variant='russian').probe_dtw('W:WKa1,Kc3:BKh8'))")
    env = dict(os.environ, PYTHONPATH=str(site))
    done = subprocess.run([sys.executable, "-c", script, str(tables)], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    where, value = done.stdout.splitlines()
    assert where == str(site / "dtb" / "__init__.py")
    assert value == "Value(wdl=WDL.WIN, dtw=3)"
