"""What the pty tests share: PASS/FAIL bookkeeping, tripsync without a terminal, and tripsync on a
new pseudo-terminal driven as a person meets it (each answer typed once its question is on the
screen). Standard library only."""
import os, pty, select, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("TRIPSYNC", ".build/debug/tripsync")
if not os.path.isabs(BINARY):
    BINARY = os.path.join(ROOT, BINARY)
TIMEOUT = 30
counts = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    if ok:
        counts["passed"] += 1
        print("PASS  " + name)
    else:
        counts["failed"] += 1
        print("FAIL  " + name)
        if detail:
            print("      " + detail.replace("\n", "\n      "))


def ts(home, *args, **kw):
    """tripsync --home HOME ARGS without a terminal (its own session: no /dev/tty)."""
    return subprocess.run([BINARY, "--home", home, *args], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          start_new_session=True, timeout=120, **kw)


def on_terminal(args, answers, question=b": "):
    """Runs tripsync ARGS on a new pty; types each answer (then Enter; None is Ctrl-D, end of
    input) as soon as the output since the last answer ends in QUESTION. Returns (exit status,
    everything the terminal showed)."""
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execv(BINARY, [BINARY] + list(args))
        finally:
            os._exit(127)
    output, mark, pending = b"", 0, list(answers)
    deadline = time.time() + TIMEOUT
    while time.time() < deadline:
        if pending and output[mark:].endswith(question):
            mark = len(output)
            answer = pending.pop(0)
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


def main(run):
    """Runs RUN(tmp) in a new temp dir (kept when a check failed, or with KEEP_TMP), then prints
    "N passed, M failed" and exits 0 only when nothing failed."""
    if not os.access(BINARY, os.X_OK):
        check("tripsync binary at " + BINARY, False, "build it first (swift build --product tripsync) or set TRIPSYNC")
    else:
        tmp = tempfile.mkdtemp(prefix="tripsync-pty.")
        try:
            run(tmp)
        finally:
            if counts["failed"] == 0 and not os.environ.get("KEEP_TMP"):
                shutil.rmtree(tmp, ignore_errors=True)
            else:
                print("(temp dir kept: %s)" % tmp)
    print("%d passed, %d failed" % (counts["passed"], counts["failed"]))
    sys.exit(0 if counts["failed"] == 0 else 1)
