#!/usr/bin/env python3
"""The question of `tripsync forget` on a real pseudo-terminal (issue 18).

Runs the built binary (TRIPSYNC=path, default .build/debug/tripsync) in fresh homes under a temp
dir, each holding one trip that was synced into a shared folder. `forget` is driven through
pty.fork() as a person meets it (the helpers of ptysession.py): "y" forgets the trip
from the home (a backup kept, the shared folder untouched), "n" and end of input (Ctrl-D) keep
it; without a terminal it needs --yes (exit 2). Output: PASS/FAIL per check, then one line
"N passed, M failed"; exit 0 only when nothing failed. Standard library only.
"""
import os

from ptysession import check, main, on_terminal, ts
QUESTION = "Forget it from this home (y/N)? "


def listing(path):
    """Every file under path, relative, sorted (what a shared folder holds)."""
    return sorted(os.path.relpath(os.path.join(d, f), path) for d, _, files in os.walk(path) for f in files)


def one_home(tmp, name):
    """A home with one trip "Lisbon 2027", synced into its own shared folder."""
    home, folder = os.path.join(tmp, name), os.path.join(tmp, name + "-shared")
    os.mkdir(folder)
    for step in [("init", "--device-name", name), ("new", "Lisbon 2027"), ("add", "Fado night", "--day", "2027-06-08"), ("sync", folder)]:
        result = ts(home, *step)
        if result.returncode != 0:
            check("setup %s: tripsync %s" % (name, " ".join(step)), False, result.stderr)
            return None, None
    return home, folder


def has_trip(home):
    return "  Lisbon 2027  " in ts(home, "trips").stdout


def run(tmp):
    home, folder = one_home(tmp, "no-terminal")
    if home is None:
        return
    result = ts(home, "forget")
    check("without a terminal: forget needs --yes (exit 2) and removes nothing",
          result.returncode == 2 and "--yes" in result.stderr and has_trip(home), "exit %d: %s" % (result.returncode, result.stderr))

    for answer, forgets in [("y", True), ("n", False), (None, False)]:
        label = "Ctrl-D" if answer is None else repr(answer)
        home, folder = one_home(tmp, "answer-" + ("eof" if answer is None else answer))
        if home is None:
            return
        before = listing(folder)
        status, screen = on_terminal(["--home", home, "forget"], [answer], question=(b"? ",))
        check("%s: the question names the trip and asks y/N" % label, QUESTION in screen and "Lisbon 2027" in screen, screen)
        if forgets:
            check("%s: exit 0, says what it removed and that the folder copies remain" % label,
                  status == 0 and "removed " in screen and "copies in shared folders remain" in screen, "exit %d: %s" % (status, screen))
            check("%s: the trip is gone from the home" % label, not has_trip(home))
            backups = os.listdir(os.path.join(home, "trips", "backups"))
            check("%s: a backup of the replica is kept in trips/backups" % label, len(backups) == 1, str(backups))
        else:
            check("%s: exit 1, says nothing was removed" % label, status == 1 and "nothing was removed" in screen, "exit %d: %s" % (status, screen))
            check("%s: the trip is still in the home" % label, has_trip(home))
        check("%s: the shared folder is untouched" % label, listing(folder) == before, "%s != %s" % (listing(folder), before))


if __name__ == "__main__":
    main(run)
