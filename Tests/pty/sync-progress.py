#!/usr/bin/env python3
"""Sync's progress for large attachments, on a real pseudo-terminal (issue 17).

Laptop A attaches a 24 MB file and a 10 KB one to an open trip and syncs into a shared folder on
a pty (pty.fork(), as a person runs it): the terminal shows "sharing big.bin: N% of 22.9 MiB"
rising to 100%, the line is cleared before the summary, and nothing is shown for the small file
(under 1 MiB). Laptop B syncs on a pty and is shown "fetching big.bin: …"; laptop C syncs without
a terminal and its stderr holds no progress and no escape sequence. B's copy is byte-identical.
TRIPSYNC=path picks the binary (default .build/debug/tripsync). Output: PASS/FAIL per check, then
"N passed, M failed"; exit 0 only when nothing failed. Standard library only.
"""
import hashlib, os, re

from ptysession import check, main, on_terminal, ts

CLEAR = "\r\x1b[2K"


def setup(home, steps):
    for step in steps:
        result = ts(home, *step)
        if result.returncode != 0:
            check("setup: tripsync %s" % " ".join(step), False, result.stderr)
            return None
        last = result
    return last


def percents(screen, verb, name):
    return [int(p) for p in re.findall(re.escape(verb + " " + name + ": ") + r"(\d+)% of 22\.9 MiB", screen)]


def run(tmp):
    folder = os.path.join(tmp, "shared")
    os.mkdir(folder)
    big, small = os.path.join(tmp, "big.bin"), os.path.join(tmp, "small.jpg")
    with open(big, "wb") as f:
        f.write(os.urandom(24_000_000))
    with open(small, "wb") as f:
        f.write(b"\xff\xd8\xff\xe0" + os.urandom(10_000))
    a, b, c = (os.path.join(tmp, name) for name in ("homeA", "homeB", "homeC"))
    added = setup(a, [("init", "--device-name", "Laptop A"), ("new", "Lisbon 2027", "--open", "--zone", "Europe/Lisbon"),
                      ("add", "Tram 28", "--day", "2027-06-10", "--at", "10:00")])
    if added is None:
        return
    item = added.stdout.strip()
    if setup(a, [("attach", item, big), ("attach", item, small)]) is None:
        return

    status, screen = on_terminal(["--home", a, "sync", folder], [])
    shared = percents(screen, "sharing", "big.bin")
    check("A on a terminal: exit 0 and the summary line", status == 0 and "synced with " in screen, "exit %d: %s" % (status, screen[-400:]))
    check("A: 'sharing big.bin: N% of 22.9 MiB' rises to 100%",
          len(shared) >= 3 and shared == sorted(shared) and shared[-1] == 100, "%s in %r" % (shared, screen[-300:]))
    check("A: no progress for the 10 KB file", "small.jpg:" not in screen, screen[-300:])
    summary = screen.find("synced with ")
    check("A: the progress line is cleared before the summary", summary > 0 and screen.rfind(CLEAR, 0, summary) > screen.rfind("% of", 0, summary),
          repr(screen[max(0, summary - 120):summary + 20]))

    if setup(b, [("init", "--device-name", "Laptop B")]) is None:
        return
    status, screen = on_terminal(["--home", b, "sync", folder], [])
    fetched = percents(screen, "fetching", "big.bin")
    check("B on a terminal: 'fetching big.bin: N% of 22.9 MiB' rises to 100%",
          status == 0 and len(fetched) >= 3 and fetched == sorted(fetched) and fetched[-1] == 100, "exit %d, %s in %r" % (status, fetched, screen[-300:]))
    listed = ts(b, "attachments", "--json")
    check("B: both attachments are shared", listed.returncode == 0 and listed.stdout.count('"state":"shared"') == 2, listed.stdout + listed.stderr)
    out = os.path.join(tmp, "big-on-b.bin")
    attachment = re.search(r'"id":"([0-9a-f-]{36})"[^}]*"name":"big\.bin"', listed.stdout) or re.search(r'"name":"big\.bin"[^}]*"id":"([0-9a-f-]{36})"', listed.stdout)
    if attachment is None:
        check("B: big.bin is listed with its id", False, listed.stdout)
        return
    extracted = ts(b, "extract", attachment.group(1), "-o", out)
    same = extracted.returncode == 0 and os.path.exists(out) and hashlib.sha256(open(out, "rb").read()).digest() == hashlib.sha256(open(big, "rb").read()).digest()
    check("B: the extracted big.bin is byte-identical", same, extracted.stderr)

    if setup(c, [("init", "--device-name", "Laptop C")]) is None:
        return
    piped = ts(c, "sync", folder)
    check("C without a terminal: exit 0, no progress and no escape sequence on stderr",
          piped.returncode == 0 and "fetching" not in piped.stderr and "\x1b" not in piped.stderr and "\r" not in piped.stderr,
          "exit %d: %r" % (piped.returncode, piped.stderr[:300]))


if __name__ == "__main__":
    main(run)
