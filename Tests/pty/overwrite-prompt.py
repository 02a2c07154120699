#!/usr/bin/env python3
"""The overwrite question of `tripsync backup -o FILE` / `export --ics FILE` on a real pseudo-terminal (issue 18).

Runs the built binary (TRIPSYNC=path, default .build/debug/tripsync) in a fresh home under a temp
dir holding the Lisbon sample. An existing output file is written over only after a yes: driven
through pty.fork() as a person meets it, the question "overwrite FILE? [y/N] " is answered y (the
file is replaced by a valid backup), n (refused, exit 1, the file keeps its bytes), an empty line
(the default, no) and Ctrl-D (end of input: no). Without a terminal the command asks for --force
and writes nothing; --force on a terminal asks nothing. Output: PASS/FAIL per check, then one line
"N passed, M failed"; exit 0 only when nothing failed. Standard library only.
"""
import os

from ptysession import ROOT, check, main, on_terminal, ts

QUESTION = b"? [y/N] "
KEEP = b"keep me\n"


def existing(path):
    with open(path, "wb") as f:
        f.write(KEEP)


def content(path):
    with open(path, "rb") as f:
        return f.read()


def run(tmp):
    home = os.path.join(tmp, "home")
    result = ts(home, "import", os.path.join(ROOT, "samples", "lisbon-new-york.trip.json"), "--merge", "--yes")
    if result.returncode != 0:
        return check("setup: import the Lisbon sample", False, result.stderr)
    backup = os.path.join(tmp, "lisbon.trip.json.gz")
    question = "overwrite %s? [y/N] " % backup

    existing(backup)
    result = ts(home, "backup", "-o", backup)
    check("without a terminal: refused (exit 1), names --force, the file keeps its bytes",
          result.returncode == 1 and "give --force to write over it" in result.stderr and content(backup) == KEEP,
          "exit %d: %s" % (result.returncode, result.stderr))

    for name, answer in [("n", "n"), ("an empty line (the default)", ""), ("Ctrl-D (end of input)", None)]:
        existing(backup)
        status, screen = on_terminal(["--home", home, "backup", "-o", backup], [answer], QUESTION)
        check("answer %s: the question is asked" % name, question in screen, screen)
        check("answer %s: refused (exit 1), says it was not overwritten, the file keeps its bytes" % name,
              status == 1 and "exists and was not overwritten (--force writes over it without asking)" in screen and content(backup) == KEEP,
              "exit %d: %s" % (status, screen))

    existing(backup)
    status, screen = on_terminal(["--home", home, "backup", "-o", backup], ["y"], QUESTION)
    check("answer y: the question is asked, then exit 0 and 'wrote'", question in screen and status == 0 and "wrote " + backup in screen,
          "exit %d: %s" % (status, screen))
    check("answer y: the file is now a gzip backup that validates",
          content(backup)[:2] == b"\x1f\x8b" and ts(home, "validate", backup).returncode == 0, repr(content(backup)[:20]))

    ics = os.path.join(tmp, "trip.ics")
    existing(ics)
    status, screen = on_terminal(["--home", home, "export", "--ics", ics], ["yes"], QUESTION)
    check("export --ics, answer yes: written", status == 0 and content(ics).startswith(b"BEGIN:VCALENDAR"), "exit %d: %s" % (status, screen))

    existing(backup)
    status, screen = on_terminal(["--home", home, "backup", "-o", backup, "--force"], ["n"], QUESTION)
    check("--force on a terminal: no question, written", status == 0 and "[y/N]" not in screen and content(backup) != KEEP,
          "exit %d: %s" % (status, screen))


if __name__ == "__main__":
    main(run)
