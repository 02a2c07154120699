"""What the browser checks and the raw HTTP checks share: a laptop (one home and the `tripsync`
binary), its `tripsync open` server (started, its one printed line read, stopped with SIGTERM),
and a list of failures that lets later independent checks run after one fails.

Standard library only.
"""

import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
# `tripsync open` prints the home's own address and the private page that signs the browser in.
URL_PATTERN = re.compile(r"^(http://([a-z0-9]{20}\.localhost):(\d+)/) \((?:already open; )?sign in through (/\S+\.html)\)$")
TOKEN_PATTERN = re.compile(r'url=(http://[a-z0-9]{20}\.localhost:\d+(/\?token=[0-9a-f]{64}))"')


def login_token_path(page):
    """The `/?token=...` path a sign-in page sends the browser to."""
    with open(page, encoding="utf-8") as handle:
        match = TOKEN_PATTERN.search(handle.read())
    if not match:
        raise RuntimeError(f"the sign-in page {page} names no token address")
    return match.group(2)


class Failures:
    """Collects failed expectations; `step` runs one independent part and records what stopped it."""

    def __init__(self):
        self.failures = []
        self.passed = 0

    def expect(self, condition, message):
        if condition:
            self.passed += 1
        else:
            self.failures.append(message)
            print(f"  FAIL {message}", flush=True)
        return condition

    def step(self, name, body, *arguments):
        print(f"- {name}", flush=True)
        try:
            body(*arguments)
        except Exception as error:  # one broken step must not hide the others' results
            detail = "".join(traceback.format_exception_only(type(error), error)).strip().split("\nStacktrace:")[0]
            ours = [f for f in traceback.extract_tb(error.__traceback__) if os.path.dirname(os.path.abspath(f.filename)) == HERE]
            if ours:
                detail += f" (at {os.path.basename(ours[-1].filename)}:{ours[-1].lineno})"
            self.failures.append(f"{name}: stopped by {detail}")
            print(f"  FAIL {name}: stopped by {detail}", flush=True)
            if os.environ.get("WEBAPP_TRACE"):
                traceback.print_exc()

    def finish(self, what):
        if self.failures:
            print(f"\n{what}: {len(self.failures)} failure(s), {self.passed} checks passed:")
            for failure in self.failures:
                print(f"  - {failure}")
            return 1
        print(f"\n{what}: all {self.passed} checks passed")
        return 0


class Laptop:
    """One home: the CLI run in it, and its `tripsync open` server."""

    def __init__(self, name, tripsync, home):
        self.name, self.tripsync, self.home = name, tripsync, home
        self.server = None

    def cli(self, *arguments, check=True):
        result = subprocess.run([self.tripsync, "--home", self.home, *arguments],
                                capture_output=True, text=True, timeout=120)
        if check and result.returncode != 0:
            raise RuntimeError(f"{self.name}: tripsync {' '.join(arguments)} exited {result.returncode}: "
                               f"{result.stderr.strip()[-600:]}")
        return result.stdout

    def fingerprint(self):
        return self.cli("fingerprint").strip()

    def show(self):
        return json.loads(self.cli("show", "--json"))

    def deleted(self):
        return json.loads(self.cli("show", "--deleted", "--json"))

    def titles(self):
        show = self.show()
        titles = [item["title"] for day in show["days"] for item in day["items"]]
        return titles + [item["title"] for item in show["unscheduled"]]

    def item(self, title):
        show = self.show()
        for item in [i for day in show["days"] for i in day["items"]] + show["unscheduled"]:
            if item["title"] == title:
                return item
        return None

    def open(self, port=None):
        """Starts `tripsync open --no-browser` and returns the file:// URL of the sign-in page it
        wrote (what a browser is given)."""
        self.server = Server(self, port)
        return "file://" + self.server.login

    def close(self):
        if self.server:
            server, self.server = self.server, None
            return server.stop()
        return None


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """A running `tripsync open --no-browser [--port N]` in one laptop's home."""

    def __init__(self, laptop, port):
        self.laptop = laptop
        arguments = [laptop.tripsync, "--home", laptop.home, "open", "--no-browser"]
        if port is not None:
            arguments += ["--port", str(port)]
        self.log_path = os.path.join(os.environ.get("WEBAPP_OUT", "/tmp"), f"server-{laptop.name}-{time.time_ns()}.log")
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=self.log, stdin=subprocess.DEVNULL)
        self.stdout = b""
        line = self._first_line(timeout=20)
        match = URL_PATTERN.match(line)
        if not match:
            self.stop()
            raise RuntimeError(f"{laptop.name}: `tripsync open` printed {line!r}, not the home's address and its sign-in page "
                               f"(http://LABEL.localhost:PORT/ (sign in through /path.html)); its stderr is in {self.log_path}")
        self.url, self.host, self.port, self.login = match.group(1), match.group(2), int(match.group(3)), match.group(4)
        # Connections go to loopback (as the browser resolves *.localhost); the Host header names the home.
        self.address = "127.0.0.1"
        self.path = login_token_path(self.login)
        if port is not None and self.port != port:
            raise RuntimeError(f"{laptop.name}: asked for --port {port}, the URL names port {self.port}")
        self.origin = f"http://{self.host}:{self.port}"
        self.host_header = f"{self.host}:{self.port}"

    def _first_line(self, timeout):
        deadline = time.monotonic() + timeout
        fd = self.process.stdout.fileno()
        while b"\n" not in self.stdout:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise RuntimeError(f"{self.laptop.name}: `tripsync open` printed no line within {timeout} s "
                                   f"(stderr in {self.log_path})")
            ready, _, _ = select.select([fd], [], [], remaining)
            if ready:
                chunk = os.read(fd, 4096)
                if not chunk:
                    code = self.process.wait(timeout=5)
                    with open(self.log_path, "rb") as log:
                        stderr = log.read().decode(errors="replace").strip()[-800:]
                    raise RuntimeError(f"{self.laptop.name}: `tripsync open` exited {code} before printing its URL: {stderr}")
                self.stdout += chunk
        return self.stdout.split(b"\n", 1)[0].decode().strip()

    def stop(self):
        """SIGTERM; returns (exit status, seconds it took, everything it printed on stdout)."""
        started = time.monotonic()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
            code = f"still running 10 s after SIGTERM (killed, {code})"
        rest = self.process.stdout.read() if self.process.stdout else b""
        self.stdout += rest or b""
        self.process.stdout.close()
        self.log.close()
        return code, time.monotonic() - started, self.stdout.decode(errors="replace")


def die(message, code=1):
    print(message, file=sys.stderr)
    sys.exit(code)
