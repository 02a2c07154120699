#!/usr/bin/env python3
"""The passphrase prompt of `tripsync owner export -o FILE` on a real pseudo-terminal (issue 16).

Runs the built binary (TRIPSYNC=path, default .build/debug/tripsync) in fresh homes under a temp
dir: laptop A owns a trip, laptop B is admitted as editor through a shared folder. Then `owner
export` is driven through pty.fork() as a person meets it: each answer is typed as soon as the
prompt is on the screen. Checks: the prompt appears, the typed passphrase is never echoed, a
mismatch on the second prompt (or a short passphrase) writes nothing, a matching pair writes a
file (mode 0600) that `owner import --passphrase-file` opens on laptop B; without a terminal
the command asks for --passphrase-file (exit 2). Output: PASS/FAIL per check, then one line
"N passed, M failed"; exit 0 only when nothing failed. Standard library only.
"""
import os, pty, select, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("TRIPSYNC", ".build/debug/tripsync")
if not os.path.isabs(BINARY):
    BINARY = os.path.join(ROOT, BINARY)
TIMEOUT = 30
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


def ts(home, *args, **kw):
    """tripsync --home HOME ARGS without a terminal (its own session: no /dev/tty)."""
    return subprocess.run([BINARY, "--home", home, *args], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          start_new_session=True, timeout=120, **kw)


def on_terminal(args, answers, prompt=(b": ",)):
    """Runs tripsync ARGS on a new pty; types each answer (then Enter) as soon as the next prompt
    (output ending in one of `prompt`) is there; a None answer is Ctrl-D (end of input).
    Returns (exit status, everything the terminal showed)."""
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execv(BINARY, [BINARY] + list(args))
        finally:
            os._exit(127)
    output, mark, pending = b"", 0, list(answers)
    deadline = time.time() + TIMEOUT
    while time.time() < deadline:
        if pending and output[mark:].endswith(prompt):
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
    a, b, folder = (os.path.join(tmp, n) for n in ("homeA", "homeB", "shared"))
    os.mkdir(folder)
    steps = [(a, "init", "--device-name", "Laptop A"), (a, "new", "Lisbon 2027", "--owned"), (a, "sync", folder),
             (b, "init", "--device-name", "Laptop B")]
    for step in steps:
        result = ts(*step)
        if result.returncode != 0:
            return check("setup: tripsync " + " ".join(step[1:]), False, result.stderr)
    code = ts(a, "invite", "--role", "editor").stdout.strip()
    for step in [(b, "join", code, folder), (b, "sync", folder), (a, "sync", folder), (b, "sync", folder)]:
        result = ts(*step)
        if result.returncode != 0:
            return check("setup: tripsync " + " ".join(step[1:3]), False, result.stderr)
    check("setup: laptop A owns the trip, laptop B is an editor", "Laptop B  editor" in ts(b, "members").stdout)

    secret, other = "correct horse battery staple", "correct horse battery stapler"
    key = os.path.join(tmp, "owner.key")

    result = ts(a, "owner", "export", "-o", key)
    check("without a terminal: owner export asks for --passphrase-file (exit 2), writes nothing",
          result.returncode == 2 and "--passphrase-file" in result.stderr and not os.path.exists(key),
          "exit %d: %s" % (result.returncode, result.stderr))

    status, screen = on_terminal(["--home", a, "owner", "export", "-o", key], [secret, other])
    check("mismatch: the prompts 'Passphrase: ' then 'Passphrase again: ' appear", "Passphrase: " in screen and "Passphrase again: " in screen, screen)
    check("mismatch: neither typed passphrase is echoed", "correct horse" not in screen, screen)
    check("mismatch: exit 1, says the two differ, and no file is written",
          status == 1 and "differ" in screen and not os.path.exists(key), "exit %d: %s" % (status, screen))

    status, screen = on_terminal(["--home", a, "owner", "export", "-o", key], ["short"])
    check("a passphrase under 8 characters is refused (exit 1), nothing written, not echoed",
          status == 1 and "at least 8" in screen and "short\n" not in screen.split("Passphrase: ", 1)[-1] and not os.path.exists(key),
          "exit %d: %s" % (status, screen))

    status, screen = on_terminal(["--home", a, "owner", "export", "-o", key], [secret, secret])
    check("matching pair: exit 0, says it wrote the key", status == 0 and "wrote the owner key" in screen, "exit %d: %s" % (status, screen))
    check("matching pair: the passphrase is not echoed", secret not in screen, screen)
    check("matching pair: the file is written, mode 0600",
          os.path.exists(key) and (os.stat(key).st_mode & 0o777) == 0o600, oct(os.stat(key).st_mode) if os.path.exists(key) else "no file")

    pass_file = os.path.join(tmp, "pass.txt")
    with open(pass_file, "w") as f:
        f.write(other + "\n")
    result = ts(b, "owner", "import", key, "--passphrase-file", pass_file)
    check("owner import with a wrong --passphrase-file is refused (exit 1)", result.returncode == 1, "exit %d: %s" % (result.returncode, result.stderr))
    with open(pass_file, "w") as f:
        f.write(secret + "\n")
    result = ts(b, "owner", "import", key, "--passphrase-file", pass_file)
    check("owner import --passphrase-file opens the file written on the terminal (exit 0)", result.returncode == 0, "exit %d: %s %s" % (result.returncode, result.stdout, result.stderr))
    listing = ts(b, "members").stdout
    check("laptop B now holds the owner key and is an owner", "(held here)" in listing and "Laptop B  owner" in listing, listing)


if __name__ == "__main__":
    main()
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(0 if failed == 0 else 1)
