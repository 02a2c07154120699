"""Laptops as homes in one scratch folder, each command run through `faketime` at a clock of
its own. Shared by cases.py (the scripted histories of issue 40) and sim.py (the random ones).

Python standard library only, so it runs wherever CI runs. The binary is $TRIPSYNC, else
.build/debug/tripsync of this repository.
"""

import json
import os
import re
import shutil
import subprocess
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.abspath(os.environ.get("TRIPSYNC") or os.path.join(REPO, ".build/debug/tripsync"))
FAKETIME = shutil.which("faketime")

# A refusal that tells a person their own clock is behind (issue 40: "told so, by name").
CLOCK_BEHIND = re.compile(r"clock[^\n]*\bbehind\b", re.IGNORECASE)

HOUR = 3600
DAY = 86400
YEAR = 365 * DAY


def require_tools():
    """Stops with a plain message when the binary or faketime is missing."""
    if not os.access(BINARY, os.X_OK):
        raise SystemExit(f"no tripsync binary at {BINARY}: build it (swift build --product tripsync) or set TRIPSYNC")
    if FAKETIME is None:
        raise SystemExit("faketime is not installed (apt-get install -y faketime)")


class Result:
    def __init__(self, command, status, stdout, stderr):
        self.command = command
        self.status = status
        self.stdout = stdout
        self.stderr = stderr

    @property
    def ok(self):
        return self.status == 0

    def json(self):
        return json.loads(self.stdout)

    def __str__(self):
        stdout = f"{len(self.stdout)} bytes" if isinstance(self.stdout, bytes) else self.stdout.strip()[:2000]
        return f"$ {self.command}\n  exit {self.status}\n  stdout: {stdout}\n  stderr: {self.stderr.strip()[:2000]}"


class CommandFailed(Exception):
    """A command that had to succeed did not; carries its Result."""

    def __init__(self, result):
        super().__init__(str(result))
        self.result = result


def offset_text(seconds):
    """libfaketime's relative offset: "+N" or "-N" seconds from the real clock."""
    return f"{'+' if seconds >= 0 else '-'}{abs(int(seconds))}"


def describe_offset(seconds):
    for unit, size in (("y", YEAR), ("d", DAY), ("h", HOUR)):
        if seconds and seconds % size == 0:
            return f"{seconds // size:+d}{unit}"
    return f"{seconds:+d}s"


class Laptops:
    """Homes `root/NAME` and the shared folder `root/shared`. Each laptop's wall clock is the
    real clock plus `day` (the history's own time, moving forward) plus `skew` (how wrong
    this laptop's clock is right now); both in seconds."""

    def __init__(self, keep=False):
        self.root = tempfile.mkdtemp(prefix="tripsync-clocks-")
        self.shared = os.path.join(self.root, "shared")
        os.makedirs(self.shared)
        self.keep = keep
        self.day = 0
        self.skew = {}
        self.log = []

    def home(self, name):
        return os.path.join(self.root, name)

    def now_offset(self, name):
        return self.day * DAY + self.skew.get(name, 0)

    def run(self, name, *args, offset=None, binary=False):
        """`tripsync --home root/NAME ARGS` at the laptop's clock (or `offset` seconds from the
        real clock when given). `binary`: stdout is kept as bytes (`backup -o -` writes gzip)."""
        seconds = self.now_offset(name) if offset is None else offset
        args = [self.shared if a == "SHARED" else a for a in args]
        env = dict(os.environ, TZ="UTC")
        command = [FAKETIME, "-f", offset_text(seconds), BINARY, "--home", self.home(name), *args]
        # The wrapper names its semaphore after its process id: a semaphore left behind by a
        # killed wrapper makes a later one with the same id fail before tripsync runs ("faketime:
        # sem_open: File exists"), so that one is started again. (Preloading libfaketime without
        # the wrapper is no way out: tripsync then reads no arguments.)
        for _ in range(5):
            proc = subprocess.run(command, env=env, cwd=self.root, stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
            if not proc.stderr.startswith(b"faketime: sem_open"):
                break
        shown = f"[{name} day {self.day} clock {describe_offset(seconds - self.day * DAY)}] tripsync {' '.join(args)}"
        stdout = proc.stdout if binary else proc.stdout.decode(errors="replace")
        result = Result(shown, proc.returncode, stdout, proc.stderr.decode(errors="replace"))
        self.log.append(result)
        return result

    def ok(self, name, *args, offset=None):
        result = self.run(name, *args, offset=offset)
        if not result.ok:
            raise CommandFailed(result)
        return result

    def sync(self, name):
        return self.ok(name, "sync", "SHARED")

    def rounds(self, names, count=2):
        for _ in range(count):
            for name in names:
                self.sync(name)

    def device_id(self, name):
        with open(os.path.join(self.home(name), "device.json")) as f:
            return json.load(f)["deviceId"]

    def copy_home(self, source, target):
        """`cp -a`: a backup of a home, or a home restored from one."""
        subprocess.run(["cp", "-a", self.home(source), self.home(target)], check=True)

    def restore_home(self, name, backup):
        """The home replaced by its backup copy (the backup stays for another restore)."""
        shutil.rmtree(self.home(name))
        self.copy_home(backup, name)

    def owned_trip(self, owner, others, role="editor", zone="Europe/Lisbon"):
        """`owner` makes an owned trip; each of `others` joins by an invite of its own; every
        laptop syncs until all are members. Returns the trip id."""
        self.ok(owner, "init", "--device-name", f"Laptop {owner}")
        trip = self.ok(owner, "new", "Lisbon 2027", "--zone", zone, "--owned").stdout.strip()
        self.sync(owner)
        for name in others:
            code = self.ok(owner, "invite", "--role", role).stdout.strip()
            self.ok(name, "init", "--device-name", f"Laptop {name}")
            self.ok(name, "join", code, "SHARED")
            self.sync(name)
            self.sync(owner)
            self.sync(name)
        return trip

    def add(self, name, title, *fields):
        return self.ok(name, "add", title, *fields).stdout.strip()

    def texts(self, name):
        """Every text this laptop holds for the trip, wherever it is: values of the itinerary,
        conflicts' values, and the deleted items (as `show --deleted` and `show ITEM` print them)."""
        parts = [self.ok(name, "show", "--json").stdout, self.ok(name, "conflicts", "--json").stdout]
        deleted = self.ok(name, "show", "--deleted", "--json")
        parts.append(deleted.stdout)
        return "\n".join(parts)

    def fingerprint(self, name):
        return self.ok(name, "fingerprint").stdout.strip()

    def transcript(self, last=None):
        entries = self.log if last is None else self.log[-last:]
        return "\n".join(str(r) for r in entries)

    def close(self):
        if not self.keep:
            shutil.rmtree(self.root, ignore_errors=True)
