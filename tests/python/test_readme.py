"""The examples of python/README.md and docs/PYTHON.md (and of README.md,
where it shows the module) work as written: each ```pycon block runs as a
doctest in a directory where tablebases/ holds the small tables, and each
shell line with an expected "# output" prints it."""

import doctest
import os
import re
import subprocess
import sys

import pytest

FENCE = re.compile(r"^```pycon\n(.*?)^```", re.S | re.M)
SHELL = re.compile(r"^ {4}(PYTHONPATH=build/python .*?)\s+# (\S+)$", re.M)


def _texts(source_dir):
    """The files whose examples run: python/README.md and docs/PYTHON.md always, README.md where it shows
    the module."""
    texts = [source_dir / "python" / "README.md", source_dir / "docs" / "PYTHON.md"]
    readme = source_dir / "README.md"
    if ">>> import dtb" in readme.read_text():
        texts.append(readme)
    return texts


@pytest.fixture
def workdir(tmp_path, tables, monkeypatch):
    (tmp_path / "tablebases").symlink_to(tables)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("name", ["python/README.md", "docs/PYTHON.md"])
def test_the_python_pages_have_examples(name, source_dir):
    text = (source_dir / name).read_text()
    assert len(FENCE.findall(text)) >= 1 and len(SHELL.findall(text)) >= 1


@pytest.mark.parametrize("name", ["python/README.md", "docs/PYTHON.md", "README.md"])
def test_the_pycon_examples_run_as_written(name, source_dir, workdir):
    path = source_dir / name
    if path not in _texts(source_dir):
        pytest.skip(f"{name} shows no example of the module")
    blocks = FENCE.findall(path.read_text())
    assert blocks, name
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(verbose=False)
    globs = {}  # shared by the blocks of one file, in order
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"{name} block {i + 1}", str(path), 0)
        runner.run(test, out=lambda text: pytest.fail(f"{name} block {i + 1}:\n{text}"))
    assert runner.summarize(verbose=False).attempted > 10


def test_the_shell_examples_print_what_they_say(source_dir, workdir):
    (workdir / "build").symlink_to(os.environ["DTB_BUILD_DIR"])
    # "python3" is the interpreter the module was built for, these tests' own.
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    env.pop("PYTHONPATH", None)
    for path in _texts(source_dir):
        for command, expected in SHELL.findall(path.read_text()):
            done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=60, env=env)
            assert (done.returncode, done.stdout.strip()) == (0, expected), command


def test_the_python_readme_names_every_public_call(source_dir):
    import dtb

    text = (source_dir / "python" / "README.md").read_text()
    for name in dir(dtb.Tablebase):
        if not name.startswith("_"):
            assert f"`tb.{name}" in text, name
    for name in dtb.__all__:
        assert re.search(rf"\b{name}\b", text), name
