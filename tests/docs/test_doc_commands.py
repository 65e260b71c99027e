"""Every command shown in README.md and the manual (docs/*.md) runs as written.

Run by ctest as docs_commands_test (tests/docs/CMakeLists.txt), which names
the program (DTB_BINARY), the build tree (DTB_BUILD_DIR) and the tables to
run on (DTB_DOC_TABLES); the tests of the rules below, which need no build,
also run alone: python3 -m pytest tests/docs -k "not command_runs".

Which lines are commands. In a code block (a block indented by four spaces
after a blank line, or a ``` fence with no language or sh, bash, shell or
console), a line that starts, after an optional `$ ` prompt and any
`NAME=value` assignments, with `dtb `, `build/bin/dtb `, `scripts/`,
`curl ` or `PYTHONPATH=build/python `. In a block that has `$ ` prompts only
the prompted lines are commands: the rest is output. A line that ends in
`\\` goes on on the next. A `#` outside quotes that starts a word begins a
comment, which is not part of the command. A line whose first word after
`dtb` ends in `:` is dtb's own output (`dtb serve: listening on ...`).

Which commands are synopses, not run: those with a placeholder word
(placeholder() below): a word in capitals and digits starting with a capital
(`DIR`, `N`, `SIG`, `VARIANT_LIST`), alone or as a part of a word split at
`/`, `=`, `.` and `-` (`checksums/VARIANT-PIECES.txt`, `--pieces=N`),
unless the word names a file of the repository (`BENCHMARKS.md`); a word
in angle brackets (`<dir>`), in square brackets (`[--json]`), or `...`.
The NAME=value assignments in front of a command are not looked at.

What a command must do. Its comments are the one after it on its line and
the comment lines right below it. It must exit with status 0, unless one of
its comments starts with `exit N` (or `exit status N`): then with N. Where a
comment is nothing but a number (`# 41022423`), its output (standard output
and error together) must hold that number, not as a part of a longer one;
where it is nothing but a quoted text (`# "win"`), that text. Every other
comment is prose and checks nothing.

Where commands run. Each document gets a directory of its own, in which its
commands run in the document's order, holding tablebases/ (a copy of the
tables of DTB_DOC_TABLES: Russian up to 5 pieces, international and
Brazilian up to 4), build/ (a link to the build tree) and a link to each
top-level folder of the repository (examples/, scripts/, ...). PATH starts
with the folder of DTB_BINARY (so `dtb` is the program under test), then
that of the python3 running this test (the one the module was built for);
DTB_PATH is unset; standard input is empty. A command gets TIMEOUT seconds.
`curl` commands go to a `dtb serve` started in that directory on a free
port: the documented http://127.0.0.1:8080 is rewritten to it.

SKIP names the commands not run, each a regular expression (re.search on
the command) and the reason. An entry that matches no documented command
fails the test, so the list cannot outlive what it names; so does finding
fewer than MIN_COMMANDS commands to run."""

import json
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ.get("DTB_SOURCE_DIR") or Path(__file__).resolve().parents[2])
# Seconds a command may take: a guard against one that hangs, with room for a
# loaded machine (the slowest command run, dtb gen --dtc of the Russian
# tables up to 4 pieces, takes about 24 CPU-seconds).
TIMEOUT = 120
MIN_COMMANDS = 40  # fewer found to run means the extraction is broken

SKIP = [
    (r"--pieces ([6-9]|\d\d)\b", "6 pieces or more: minutes to hours to build"),
    (r"--variant (international|brazilian)\b.*--only (?=[KMv]{6}\b)[KM]+v[KM]+\b",
     "an international or Brazilian table of 5 pieces: beyond the tables here, 20 seconds or more to build"),
    (r"^(?!.*--only)(?!.*--checksums)(?!.*--variant brazilian).*\bdtb verify\b",
     "recomputes every table of the Russian (up to 5 pieces) or international (up to 4) set: "
     "half a minute of CPU or more"),
    (r"\bdtb serve\b", "does not return (the curl commands run against a dtb serve on a free port)"),
    (r"^scripts/test\.sh\b", "the whole test suite: a build and every test, three times"),
    (r"^scripts/demo\.sh\b", "builds dtb and its tables from nothing (minutes)"),
    (r"^scripts/install-deps\.sh\b", "installs system packages, as root"),
]

PREFIX = re.compile(r"(dtb |build/bin/dtb |scripts/|curl |PYTHONPATH=build/python )")
ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=\S*\s+")
SHELL_FENCES = {"", "sh", "bash", "shell", "console", "sh-session", "shell-session", "zsh"}
CAPITALS = re.compile(r"[A-Z][A-Z0-9_]*")


@dataclass
class Command:
    doc: str  # e.g. "README.md", "docs/CLI.md"
    line: int  # 1-based line of its first line
    text: str  # as run: continuation lines joined, comment removed
    comments: list = field(default_factory=list)  # its trailing comment and the comment lines below it

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


# --- Reading the documents -------------------------------------------------


def code_blocks(text: str):
    """(language, [(line number, line)]) of each code block of a Markdown text: fenced
    (language: the fence's first word, lower case) and indented (language None)."""
    lines = text.split("\n")
    i, previous_blank = 0, True
    while i < len(lines):
        line = lines[i]
        fence = re.match(r"( {0,3})(`{3,}|~{3,})\s*([^\s`]*)", line)
        if fence:
            indent, marks, language = len(fence.group(1)), fence.group(2), fence.group(3).lower()
            close = re.compile(rf" {{0,3}}{re.escape(marks[0])}{{{len(marks)},}}\s*$")
            body, i = [], i + 1
            while i < len(lines) and not close.match(lines[i]):
                content = lines[i]
                body.append((i + 1, content[min(indent, len(content) - len(content.lstrip(" "))):]))
                i += 1
            yield language, body
            i, previous_blank = i + 1, False
            continue
        if previous_blank and line.startswith("    ") and line.strip():
            base = len(line) - len(line.lstrip(" "))
            body = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith("    ")):
                content = lines[i]
                cut = min(base, len(content) - len(content.lstrip(" ")))
                body.append((i + 1, content[cut:]))
                i += 1
            while body and not body[-1][1].strip():
                body.pop()
            yield None, body
            previous_blank = False
            continue
        previous_blank = not line.strip()
        i += 1


def split_comment(line: str):
    """(command, comment): the comment is what follows a # outside quotes that starts a word."""
    quote, escaped = None, False
    for i, c in enumerate(line):
        if escaped:
            escaped = False
        elif c == "\\" and quote != "'":
            escaped = True
        elif quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1:].strip()
    return line.rstrip(), None


def is_command(line: str) -> bool:
    rest = line
    while True:
        if PREFIX.match(rest):
            break
        assignment = ASSIGNMENT.match(rest)
        if not assignment:
            return False
        rest = rest[assignment.end():]
    # dtb's own messages ("dtb serve: listening on ...") are output.
    words = rest.split()
    return not (words[0] in ("dtb", "build/bin/dtb") and len(words) > 1 and words[1].endswith(":"))


def commands_of(doc: str, text: str) -> list:
    """The commands of one Markdown text, in order."""
    found = []
    for language, body in code_blocks(text):
        if language is not None and language not in SHELL_FENCES:
            continue
        prompted = any(line.lstrip().startswith("$ ") for _, line in body)
        i, last = 0, None
        while i < len(body):
            number, line = body[i]
            stripped = line.strip()
            i += 1
            if stripped.startswith("#"):
                if last is not None:
                    last.comments.append(stripped[1:].strip())
                continue
            last = None
            if prompted:
                if not stripped.startswith("$ "):
                    continue
                stripped = stripped[2:].lstrip()
            while stripped.endswith("\\") and i < len(body):
                stripped = stripped[:-1] + " " + body[i][1].strip()
                i += 1
            if not is_command(stripped):
                continue
            command, comment = split_comment(stripped)
            last = Command(doc, number, command, [comment] if comment else [])
            found.append(last)
    return found


def documents(source_dir: Path) -> list:
    """README.md, then the manual's pages in name order."""
    return [source_dir / "README.md"] + sorted((source_dir / "docs").glob("*.md"))


def all_commands(source_dir: Path) -> list:
    found = []
    for path in documents(source_dir):
        found += commands_of(path.relative_to(source_dir).as_posix(), path.read_text(encoding="utf-8"))
    return found


# --- Deciding what runs and what it must do --------------------------------


def _words(command: str) -> list:
    try:
        words = shlex.split(command)
    except ValueError:  # unbalanced quotes: the run will say so
        words = command.split()
    while words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[0]):
        words.pop(0)
    return words


def placeholder(command: str, source_dir: Path = SOURCE_DIR):
    """The first placeholder word of a synopsis, or None for a command to run."""
    for word in _words(command):
        if word == "..." or re.fullmatch(r"<[^<>]+>|\[[^\[\]]+\]", word):
            return word
        for part in re.split(r"[/=.\-]", word):
            if CAPITALS.fullmatch(part) and not (source_dir / word).exists():
                return part
    return None


def skip_reason(command: str):
    for pattern, reason in SKIP:
        if re.search(pattern, command):
            return reason
    return None


def expectations(comments: list):
    """(exit status, [texts the output must hold]) from a command's comments."""
    status, texts = 0, []
    for comment in comments:
        exit_status = re.match(r"exit(?: status)? (\d+)\b", comment)
        if exit_status:
            status = int(exit_status.group(1))
        elif re.fullmatch(r"-?\d+(\.\d+)?", comment):
            texts.append(comment)
        elif re.fullmatch(r"\"[^\"]+\"|'[^']+'", comment):
            texts.append(comment[1:-1])
    return status, texts


def holds(output: str, text: str) -> bool:
    if re.fullmatch(r"-?\d+(\.\d+)?", text):
        return re.search(rf"(?<![\d.]){re.escape(text)}(?![\d]|\.\d)", output) is not None
    return text in output


# --- The tests of these rules (no build needed) ----------------------------

SAMPLE = """\
# Title

    dtb perft --variant russian --depth 6   # 37986
    # "White wins"
    dtb probe --fen "W:WKa1 # not a comment" --dir DIR
    dtb serve: listening on http://127.0.0.1:8080/
    scripts/index-sizes.py russian 5 \\
      --check tablebases
    OMP_NUM_THREADS=1 dtb gen --pieces 3   # exit 2: a usage error

Prose that mentions dtb probe, not a command:
    dtb probe --lazy-continuation

```pycon
>>> dtb probe
dtb probe --in-a-python-block
```

```console
$ dtb moves --variant russian --fen W:Wc3:Bd4   # comment
dtb moves: output, not a command
dtb perft --output-line
```

```
curl 'http://127.0.0.1:8080/api/v1'
```
"""


def test_the_extraction_follows_the_rules():
    found = commands_of("X.md", SAMPLE)
    assert [(c.line, c.text, c.comments) for c in found] == [
        (3, "dtb perft --variant russian --depth 6", ["37986", '"White wins"']),
        (5, 'dtb probe --fen "W:WKa1 # not a comment" --dir DIR', []),
        (7, "scripts/index-sizes.py russian 5  --check tablebases", []),
        (9, "OMP_NUM_THREADS=1 dtb gen --pieces 3", ["exit 2: a usage error"]),
        (20, "dtb moves --variant russian --fen W:Wc3:Bd4", ["comment"]),
        (26, "curl 'http://127.0.0.1:8080/api/v1'", []),
    ]


def test_a_synopsis_is_told_by_its_placeholders():
    runs = [
        "dtb probe --variant russian --fen W:WK7,K33:BK50",
        "dtb probe --variant international --fen W:W31-50:B1-20",
        "dtb gen --variant russian --pieces 5 --dir tablebases --memory 2G",
        "dtb gen --variant international --only KKKKvK",
        "DTB_PATH=$PWD/tablebases OMP_NUM_THREADS=2 dtb probe --fen W:Wc3:Bd4",
        "scripts/index-sizes.py russian 5 --check tablebases",
        "curl 'http://127.0.0.1:8080/api/v1/russian?fen=W:WKa1,c3:BKh8'",
        "dtb analyze examples/games.pdn --pdn-out BENCHMARKS.md",  # a file of the repository
    ]
    synopses = {
        "dtb gen --variant russian --pieces N": "N",
        "dtb verify --checksums checksums/VARIANT-PIECES.txt tablebases": "VARIANT",
        "dtb gen --pieces=N": "N",
        "scripts/bench-gen.sh russian 6 DIR": "DIR",
        "dtb probe --dir <dir>": "<dir>",
        "dtb probe [--json]": "[--json]",
        "dtb probe --dir A --dir B ...": "A",
        "dtb analyze GAMES.pdn": "GAMES",
    }
    assert [placeholder(c) for c in runs] == [None] * len(runs)
    assert {c: placeholder(c) for c in synopses} == synopses


def test_comments_say_what_the_output_holds():
    assert expectations(["41022423"]) == (0, ["41022423"])
    assert expectations(['"win"', "'Best move: f8-g7'"]) == (0, ["win", "Best move: f8-g7"])
    assert expectations(["exit 2: no such table"]) == (2, [])
    assert expectations(["exit status 1"]) == (1, [])
    assert expectations(["prints: 5 tables", "one JSON object per line", "e1:d4 only", "1 2"]) == (0, [])
    assert holds("nodes 41022423\n", "41022423")
    assert not holds("410224231", "41022423") and not holds("141022423", "41022423")
    assert not holds("3.14", "14")


def test_every_skip_entry_names_a_documented_command():
    texts = [c.text for c in all_commands(SOURCE_DIR)]
    stale = [pattern for pattern, _ in SKIP if not any(re.search(pattern, t) for t in texts)]
    assert not stale, f"skip entries that match no command of README.md or docs/*.md: {stale}"


def test_enough_commands_are_found_to_run():
    runnable = [c for c in all_commands(SOURCE_DIR) if not placeholder(c.text) and not skip_reason(c.text)]
    assert len(runnable) >= MIN_COMMANDS, f"only {len(runnable)} commands to run: is the extraction broken?"


# --- Running the commands ---------------------------------------------------


def _env_path(name: str) -> Path:
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set: run these tests through ctest (docs_commands_test)", pytrace=False)
    return Path(value)


class Place:
    """A document's directory: tablebases/, build/, the repository's folders, and a server once curl needs one."""

    def __init__(self, root: Path, build_dir: Path, bin_dir: Path, tables: Path):
        self.root = root
        root.mkdir(parents=True)
        # A copy, so that what the commands write (dtb gen --dtc ...) stays in this directory.
        shutil.copytree(tables, root / "tablebases",
                        ignore=shutil.ignore_patterns("*.raw", "*.stamp", ".dtb-work"))
        (root / "build").symlink_to(build_dir)
        for entry in SOURCE_DIR.iterdir():
            if entry.is_dir() and not entry.name.startswith((".", "build")) and entry.name != "tablebases":
                (root / entry.name).symlink_to(entry)
        self.env = dict(os.environ)
        for name in ("DTB_PATH", "PYTHONPATH", "DTB_BINARY", "DTB_BUILD_DIR", "DTB_DOC_TABLES", "DTB_SOURCE_DIR"):
            self.env.pop(name, None)
        self.env["PATH"] = os.pathsep.join([str(bin_dir), os.path.dirname(sys.executable),
                                            os.environ.get("PATH", "")])
        self.server = None
        self.url = None

    def serve(self) -> str:
        """The URL of a dtb serve on this directory's tables, started on a free port."""
        if self.url is None:
            self.server = subprocess.Popen(["dtb", "serve", "--port", "0", "--json"], cwd=self.root, env=self.env,
                                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                           start_new_session=True)
            ready, _, _ = select.select([self.server.stdout], [], [], 30)
            line = self.server.stdout.readline() if ready else ""
            try:
                self.url = json.loads(line)["url"].rstrip("/")
            except (ValueError, KeyError):
                pytest.fail(f"dtb serve --port 0 --json did not say where it listens: {line!r}", pytrace=False)
        return self.url

    def close(self):
        if self.server is not None:
            os.killpg(self.server.pid, signal.SIGTERM)
            self.server.wait(timeout=10)


@pytest.fixture(scope="session")
def places(tmp_path_factory):
    build_dir = _env_path("DTB_BUILD_DIR")
    bin_dir = _env_path("DTB_BINARY").parent
    tables = _env_path("DTB_DOC_TABLES")
    made = {}

    def place(doc: str) -> Place:
        if doc not in made:
            made[doc] = Place(tmp_path_factory.mktemp("docs") / doc.replace("/", "-"), build_dir, bin_dir, tables)
        return made[doc]

    yield place
    for p in made.values():
        p.close()
        shutil.rmtree(p.root / "tablebases", ignore_errors=True)  # the bulk; what the commands wrote stays to be looked at


def _run(command: str, place: Place):
    """(exit status or None when it ran out of time, output, seconds)."""
    start = time.monotonic()
    process = subprocess.Popen(["bash", "-c", command], cwd=place.root, env=place.env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=TIMEOUT)
        status = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        status = None
    return status, output.decode("utf-8", "replace"), time.monotonic() - start


COMMANDS = all_commands(SOURCE_DIR)


@pytest.mark.parametrize("command", COMMANDS, ids=[c.where for c in COMMANDS])
def test_the_documented_command_runs(command, places):
    word = placeholder(command.text)
    if word:
        pytest.skip(f"{command.where}: a synopsis ({word} is a placeholder)")
    reason = skip_reason(command.text)
    if reason:
        pytest.skip(f"{command.where}: {reason}")
    place = places(command.doc)
    text = command.text
    if text.startswith("curl "):
        if not shutil.which("curl"):
            pytest.skip("curl is not installed")
        text = re.sub(r"http://(127\.0\.0\.1|localhost):8080", place.serve(), text)
    if "PYTHONPATH=build/python" in text and not (place.root / "build/python/dtb/__init__.py").exists():
        pytest.skip("this build has no Python module")
    status, texts = expectations(command.comments)
    got, output, seconds = _run(text, place)
    problems = []
    if got is None:
        problems.append(f"ran out of time ({TIMEOUT} s)")
    elif got != status:
        problems.append(f"exit status {got}, expected {status}")
    problems += [f"the output does not hold {t!r}" for t in texts if not holds(output, t)]
    if problems:
        tail = "\n".join("    " + line for line in output.rstrip("\n").split("\n")[-15:])
        pytest.fail(f"{command.where}: {command.text}\n  {'; '.join(problems)} after {seconds:.1f} s; "
                    f"the output's last lines:\n{tail}", pytrace=False)
