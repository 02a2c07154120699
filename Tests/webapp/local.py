"""The attacks of issue 42 on one machine, against a running `tripsync open` (DESIGN.md section 8,
"One origin per home"): each check is an attack that worked before the home had an origin of its
own and a private sign-in.

- the sign-in page is a 0600 file in a 0700 folder, and the token is in no printed line;
- a used sign-in gives an HTML page (4xx) that says to run `tripsync open` or click TripSync again;
- a second `open` on the same home hands the running server a fresh sign-in (no second server,
  the first session still signed in), and the browser it starts (a fake $BROWSER that records its
  arguments and every process's /proc/PID/cmdline) never sees the token in any argument;
- a second local user (`tripsync-other`, made by .ci/run with useradd; skipped without it) cannot
  read the sign-in page, reach the control socket, or sign in, even with the home's folders
  opened to everyone;
- 64 half-open connections sending a byte now and then, then a normal request: answered quickly.

Standard library only.
"""

import os
import pwd
import socket
import stat
import subprocess
import tempfile
import time

from common import TOKEN_PATTERN, URL_PATTERN, login_token_path

OTHER_USER = "tripsync-other"


def private_sign_in(checks, server, request):
    c = checks
    mode = stat.S_IMODE(os.stat(server.login).st_mode)
    c.expect(mode == 0o600, f"the sign-in page is readable by its owner alone (mode {oct(mode)})")
    folder = os.path.dirname(server.login)
    mode = stat.S_IMODE(os.stat(folder).st_mode)
    c.expect(mode == 0o700, f"the sign-in page's folder is private (mode {oct(mode)})")
    token = server.path.split("token=")[1]
    c.expect(token not in server.url, "the printed address holds no token")
    # The page names this server's own host name; the token works once, then the page is gone.
    r = request(server, "GET", server.path)
    c.expect(r.status == 200 and r.all("Set-Cookie"), f"the sign-in page's address signs in (got {r.status})")
    c.expect(not os.path.exists(server.login), "a used sign-in page is removed")
    used = request(server, "GET", server.path)
    kind = used.header("Content-Type") or ""
    text = used.text()
    c.expect(400 <= used.status < 500 and kind.startswith("text/html"),
             f"a used sign-in answers with an HTML page and a 4xx status (got {used.status}, {kind!r})")
    c.expect("tripsync open" in text and "app menu" in text,
             f"the used-link page says what to do (run tripsync open, or click TripSync): {text[:300]!r}")
    return r


RECORDER = r"""#!/bin/sh
# A fake browser: records its arguments, then every process's command line at that moment.
printf '%s\n' "$@" > "$RECORD.args"
for f in /proc/[0-9]*/cmdline; do tr '\0' ' ' < "$f" 2>/dev/null; echo; done > "$RECORD.cmdlines"
"""


def second_open(checks, laptop, server, request, first_cookie):
    """`open` again on the same home with a fake $BROWSER: it reaches the running server."""
    c = checks
    work = tempfile.mkdtemp(prefix="tripsync-browser-")
    recorder = os.path.join(work, "browser")
    with open(recorder, "w") as handle:
        handle.write(RECORDER)
    os.chmod(recorder, 0o700)
    record = os.path.join(work, "record")
    env = dict(os.environ, BROWSER=recorder, RECORD=record)
    started = time.monotonic()
    result = subprocess.run([laptop.tripsync, "--home", laptop.home, "open"], capture_output=True, text=True, timeout=30, env=env)
    c.expect(result.returncode == 0, f"a second `open` exits 0 (got {result.returncode}: {result.stderr.strip()[-300:]})")
    c.expect(time.monotonic() - started < 10, "a second `open` returns at once (it starts no server)")
    line = result.stdout.strip()
    match = URL_PATTERN.match(line)
    if not c.expect(match is not None, f"a second `open` prints the running server's address and a sign-in page ({line!r})"):
        return
    c.expect(match.group(1) == server.url, f"a second `open` names the running server ({match.group(1)} vs {server.url})")
    c.expect("already open" in line, "a second `open` says the server was open already")
    page = match.group(4)
    for _ in range(50):
        if os.path.exists(record + ".cmdlines"):
            break
        time.sleep(0.1)
    token_path = login_token_path(page)
    token = token_path.split("token=")[1]
    with open(record + ".args") as handle:
        arguments = handle.read()
    c.expect(arguments.strip() == page, f"the browser was given the sign-in page's path, nothing else ({arguments.strip()!r})")
    with open(record + ".cmdlines", errors="replace") as handle:
        cmdlines = handle.read()
    c.expect(token not in arguments and token not in cmdlines,
             "the token is in no process's arguments (/proc/*/cmdline while the browser starts)")
    # The fresh sign-in works, and the first session is still signed in.
    r = request(server, "GET", token_path)
    c.expect(r.status == 200 and r.all("Set-Cookie"), f"the second sign-in signs in to the running server ({r.status})")
    c.expect(request(server, "GET", "/", cookie=first_cookie).status == 200, "the first session is still signed in after a second `open`")


def other_user(checks, laptop, server, request):
    """A second local user tries the sign-in page, the control socket and the server."""
    c = checks
    try:
        pwd.getpwnam(OTHER_USER)
    except KeyError:
        print(f"  (skipped: no user {OTHER_USER}; .ci/run adds one with useradd)")
        return
    if os.geteuid() != 0:
        print("  (skipped: switching to another user needs root)")
        return
    # A fresh sign-in page, as a second `open` leaves it, and every folder above it opened to
    # everyone: only the home's own open/ folder and the page's mode stand in the way.
    result = subprocess.run([laptop.tripsync, "--home", laptop.home, "open", "--no-browser"], capture_output=True, text=True, timeout=30)
    page = URL_PATTERN.match(result.stdout.strip()).group(4)
    opened = []
    path = os.path.dirname(os.path.dirname(page))
    while path not in ("/", ""):
        mode = stat.S_IMODE(os.stat(path).st_mode)
        if mode & 0o005 != 0o005:
            opened.append((path, mode))
            os.chmod(path, mode | 0o005)
        path = os.path.dirname(path)
    script = f"""
import socket, sys, http.client
found = []
try:
    open({page!r}).read(); found.append("read the sign-in page")
except OSError:
    pass
try:
    s = socket.socket(socket.AF_UNIX); s.connect({os.path.join(os.path.dirname(page), "control.sock")!r}); found.append("reached the control socket: " + s.recv(400).decode())
except OSError:
    pass
c = http.client.HTTPConnection("127.0.0.1", {server.port}, timeout=10)
c.putrequest("GET", "/", skip_host=True); c.putheader("Host", {server.host + ":" + str(server.port)!r}); c.endheaders()
status = c.getresponse().status
if status == 200: found.append("opened the trips without signing in")
print("; ".join(found) or "nothing")
"""
    try:
        attempt = subprocess.run(["runuser", "-u", OTHER_USER, "--", "python3", "-c", script], capture_output=True, text=True, timeout=60)
    finally:
        for path, mode in opened:
            os.chmod(path, mode)
    c.expect(attempt.returncode == 0 and attempt.stdout.strip() == "nothing",
             f"a second local user gets nothing: {attempt.stdout.strip()} {attempt.stderr.strip()[-300:]}")


def slow_clients(checks, server, cookie, request):
    """64 half-open connections (a byte now and then), then a normal request."""
    c = checks
    sockets = []
    try:
        for _ in range(64):
            s = socket.create_connection((server.address, server.port), timeout=5)
            s.sendall(f"GET / HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n".encode())
            sockets.append(s)
        for s in sockets:
            s.sendall(b"X")
        started = time.monotonic()
        r = request(server, "GET", "/", cookie=cookie)
        took = time.monotonic() - started
        c.expect(r.status == 200, f"with 64 half-open connections the trips page still answers (got {r.status})")
        c.expect(took < 5, f"with 64 half-open connections the trips page answers quickly ({took:.1f} s)")
    finally:
        for s in sockets:
            s.close()
