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
import os, pty, select, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("TRIPSYNC", ".build/debug/tripsync")
if not os.path.isabs(BINARY):
    BINARY = os.path.join(ROOT, BINARY)
TIMEOUT = 30
QUESTION = b"? [y/N] "
KEEP = b"keep me\n"
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("PASS  " + name)
    else:
        failed += 1
        print("FAIL  " + name)
        if detail:
            print("      " + detail.replace("\n", "\n      "))


def ts(home, *args):
    """tripsync --home HOME ARGS without a terminal (its own session: no /dev/tty)."""
    return subprocess.run([BINARY, "--home", home, *args], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          start_new_session=True, timeout=120)


def on_terminal(args, answer):
    """Runs tripsync ARGS on a new pty; when the question is on the screen, types ANSWER then
    Enter (None: Ctrl-D, end of input). Returns (exit status, everything the terminal showed)."""
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execv(BINARY, [BINARY] + list(args))
        finally:
            os._exit(127)
    output, answered = b"", False
    deadline = time.time() + TIMEOUT
    while time.time() < deadline:
        if not answered and output.endswith(QUESTION):
            answered = True
            os.write(fd, b"\x04" if answer is None else answer.encode() + b"\r")
        ready, _, _ = select.select([fd], [], [], 0.05)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    done, status = os.waitpid(pid, os.WNOHANG)
    if done == 0:  # still waiting for an answer past the deadline
        os.kill(pid, 9)
        _, status = os.waitpid(pid, 0)
        output += b"\n(killed after %ds: still waiting)" % TIMEOUT
    os.close(fd)
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
    return code, output.decode("utf-8", "replace").replace("\r\n", "\n")


def existing(path):
    with open(path, "wb") as f:
        f.write(KEEP)


def content(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    if not os.access(BINARY, os.X_OK):
        check("tripsync binary at " + BINARY, False, "build it first (swift build --product tripsync) or set TRIPSYNC")
        return
    tmp = tempfile.mkdtemp(prefix="tripsync-pty.")
    try:
        run(tmp)
    finally:
        if failed == 0 and not os.environ.get("KEEP_TMP"):
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print("(temp dir kept: %s)" % tmp)


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
        status, screen = on_terminal(["--home", home, "backup", "-o", backup], answer)
        check("answer %s: the question is asked" % name, question in screen, screen)
        check("answer %s: refused (exit 1), says it was not overwritten, the file keeps its bytes" % name,
              status == 1 and "exists and was not overwritten (--force writes over it without asking)" in screen and content(backup) == KEEP,
              "exit %d: %s" % (status, screen))

    existing(backup)
    status, screen = on_terminal(["--home", home, "backup", "-o", backup], "y")
    check("answer y: the question is asked, then exit 0 and 'wrote'", question in screen and status == 0 and "wrote " + backup in screen,
          "exit %d: %s" % (status, screen))
    check("answer y: the file is now a gzip backup that validates",
          content(backup)[:2] == b"\x1f\x8b" and ts(home, "validate", backup).returncode == 0, repr(content(backup)[:20]))

    ics = os.path.join(tmp, "trip.ics")
    existing(ics)
    status, screen = on_terminal(["--home", home, "export", "--ics", ics], "yes")
    check("export --ics, answer yes: written", status == 0 and content(ics).startswith(b"BEGIN:VCALENDAR"), "exit %d: %s" % (status, screen))

    existing(backup)
    status, screen = on_terminal(["--home", home, "backup", "-o", backup, "--force"], "n")
    check("--force on a terminal: no question, written", status == 0 and "[y/N]" not in screen and content(backup) != KEEP,
          "exit %d: %s" % (status, screen))


if __name__ == "__main__":
    main()
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(0 if failed == 0 else 1)
