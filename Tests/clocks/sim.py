#!/usr/bin/env python3
"""Seeded random histories of 3 to 5 laptops sharing one trip through the built binary, with
clocks that go wrong and get fixed (issue 40), judged by an oracle:

- every value a person typed stays on every laptop as a value, a conflict or in the trash,
  unless a later write of a laptop that held it replaced it, it lived only in a home that was
  then replaced by an older copy, or a compaction removed it 90 days after its item's delete
  once every laptop had synced since;
- a restore never brings back an item compacted before that;
- a value replaced by a laptop that held it never comes back as the current value (a later
  write of a laptop wins over what it had seen, whatever its clock said);
- every command exits 0, or, while its laptop's clock is behind (a write then may break the
  24-hour bound), fails saying that the clock is behind;
- no laptop accuses another of writing two values under one rev (no home here is ever used
  twice at once, so no device ever does);
- at the end, with every clock right and time moved on, every laptop can still write, and
  after a few rounds of syncs all print one `tripsync fingerprint`.

    python3 Tests/clocks/sim.py [--seed N] [--histories K] [--steps S] [--jobs J] [--right-clocks]

A history goes on after a problem it can survive (a refusal that does not say the clock is
behind, an accusation, an early compaction, a lost value) and stops at a command failing for
no reason it expects (a laptop stuck). History i of a run uses seed N+i; a failing history
prints its seed, its first problem's step with the commands before it, the kinds of the others,
and the command that replays it (`--seed SEED --histories 1`: the same steps, on new device
ids). The closing line is `N passed, N failed`; the exit status is 1 on any failure.
"""

import argparse
import gzip
import json
import os
import random
import shutil
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from harness import CLOCK_BEHIND, DAY, HOUR, YEAR, CommandFailed, Laptops, describe_offset, require_tools

# The wrong clocks of the issue, each applied to one laptop for a few steps, then fixed.
WRONG_CLOCKS = [20 * HOUR, 2 * DAY, 10 * YEAR, -20 * HOUR, -30 * DAY, -YEAR]
# Days that pass at a "time passes" step: mostly none or a few, sometimes an absence of months.
TIME_STEPS = [0, 0, 0, 1, 1, 2, 3, 7, 20, 95, 130]
RETENTION_DAYS = 90
FIELDS = ["title", "place", "note"]


def said_line(text, word):
    """The first line of `text` holding `word` (else its last line), without the path noise."""
    lines = [line for line in text.splitlines() if word in line] or text.splitlines()[-1:]
    return lines[0].replace("tripsync: ", "")[:300] if lines else ""


class Stuck(Exception):
    """A command failed for a reason the history does not expect: the history cannot go on."""


class Typed:
    """One value a person typed: where it went and when."""

    def __init__(self, token, laptop, step, item, field):
        self.token = token
        self.laptop = laptop
        self.step = step
        self.item = item
        self.field = field


class History:
    def __init__(self, seed, steps, wrong_clocks, trace=False):
        self.seed = seed
        self.trace = trace
        self.rng = random.Random(seed)
        self.steps = steps
        self.wrong_clocks = wrong_clocks
        self.laptops = Laptops()
        count = self.rng.randint(3, 5)
        self.names = [f"L{i}" for i in range(count)]
        self.owner = self.names[0]
        self.members = []
        self.step = 0
        self.step_text = "setup"
        self.values = 0
        self.typed = {}            # token -> Typed
        self.excused = {}          # token -> why it may be missing
        self.unshared = {name: set() for name in self.names}  # tokens typed (and writes made) since that laptop's last sync
        self.replaced = {}         # token -> (item, field, laptop, step, the write that replaced it)
        self.items = []            # item ids in the order they were added (choices go by this order)
        self.deletes = {}          # item -> [(day of a delete, laptops synced since)]
        self.wrong = None          # (laptop, step at which its clock is fixed)
        self.snapshot = None       # (laptop, its unshared tokens when the copy was taken)
        self.restored = False
        self.problems = []         # (kind, where, reason)
        self.first_transcript = ""

    def problem(self, kind, reason):
        if not self.problems:
            self.first_transcript = self.laptops.transcript(last=8)
        self.problems.append((kind, f"step {self.step} ({self.step_text})", reason))

    # Running commands.

    def run(self, name, *args, binary=False):
        """A command that must succeed, or fail saying the clock is behind while this laptop's
        clock is behind. Returns the Result, or None for such an expected refusal."""
        result = self.laptops.run(name, *args, binary=binary)
        said = ("" if binary else result.stdout) + result.stderr
        if "two different values under one rev" in said:
            self.problem("accused", f"{name} accuses a device of writing two values under one rev ({said_line(said, 'two different values')})\n{result}")
        if result.ok:
            return result
        if self.laptops.skew.get(name, 0) < 0 and "clock" in result.stderr:
            if not CLOCK_BEHIND.search(result.stderr):
                self.problem("not told", f"{name}'s clock is behind, and its refusal does not say so: {said_line(result.stderr, 'error')}\n{result}")
            return None
        raise Stuck(f"{name} is stuck: {' '.join(args[:1])} failed for a reason this history does not expect: {said_line(result.stderr, 'error')}\n{result}")

    def new_token(self):
        self.values += 1
        return f"v{self.seed}-{self.values:05d}."

    def type_value(self, name, item, field, token):
        self.typed[token] = Typed(token, name, self.step, item, field)
        self.unshared[name].add(token)

    # The steps.

    def join(self, name):
        code = self.run(self.owner, "invite", "--role", "editor").stdout.strip()
        self.run(name, "init", "--device-name", f"Laptop {name}")
        self.run(name, "join", code, "SHARED")
        for who in (name, self.owner, name):
            self.sync(who)
        self.members.append(name)

    def sync(self, name):
        result = self.run(name, "sync", "SHARED")
        if result is None:
            return
        self.unshared[name].clear()
        for deletes in self.deletes.values():
            for _, synced in deletes:
                synced.add(name)

    def read(self, name):
        """The laptop's replica, or None when its clock makes it refuse (then the step does nothing)."""
        # --plain: the replica as gzip JSON even for a sealed trip (issue 43), on purpose.
        result = self.run(name, "backup", "-o", "-", "--plain", binary=True)
        return result and json.loads(gzip.decompress(result.stdout))

    def live_items(self, document):
        return [item for item in self.items if item in document.get("items", {})]

    def add(self, name):
        new = {"title": self.new_token()}
        args = ["add", f"Stop {new['title']}", "--day", f"2027-06-{self.rng.randint(1, 28):02d}"]
        for field in ("place", "note"):
            if self.rng.random() < 0.5:
                new[field] = self.new_token()
                args += [f"--{field}", f"{field} {new[field]}"]
        result = self.run(name, *args)
        if result is None:
            return
        item = result.stdout.strip()
        self.items.append(item)
        for field, token in new.items():
            self.type_value(name, item, field, token)

    def held_tokens(self, register):
        """The typed tokens in a register: its value and its conflicts."""
        text = json.dumps(register)
        return [token for token in self.typed if token in text]

    def replace(self, name, document, item, field, write, kept=None):
        """`name` wrote `write` to the register, which held in `document` what it replaced
        (all of it, but `kept`, the value a resolve wrote again)."""
        register = document["items"][item].get(field, {})
        for token in self.held_tokens(register):
            if token != kept:
                self.excused.setdefault(token, f"replaced by {name} at step {self.step}")
                self.replaced[token] = (item, field, name, self.step, write, self.counters_of(register, token))

    @staticmethod
    def counters_of(register, token):
        """The counters of the writes in `register` whose value holds `token`: a replacement
        undoes those writes only. A concurrent write of the same value (a resolve that kept it on
        a laptop that had not seen the replacement) is another write, with its own counter, that
        may win by its rev and shows the replacement as a conflict; a re-key keeps a write's
        counter under the new id, so the same write is still recognised."""
        versions = [register] + list(register.get("conflicts", []))
        return {version["rev"][0] for version in versions if "rev" in version and token in json.dumps(version.get("value"))}
    def edit(self, name):
        document = self.read(name)
        live = document and self.live_items(document)
        if not live:
            return
        item = self.rng.choice(live)
        fields = self.rng.sample(FIELDS, self.rng.randint(1, 2))
        args, new = ["edit", item], {}
        for field in fields:
            new[field] = self.new_token()
            args += [f"--{field}", f"{field} {new[field]}"]
        if self.run(name, *args) is None:
            return
        for field, token in new.items():
            self.replace(name, document, item, field, token)
            self.type_value(name, item, field, token)

    def delete(self, name):
        document = self.read(name)
        live = document and self.live_items(document)
        if not live:
            return
        item = self.rng.choice(live)
        if self.run(name, "delete", item) is None:
            return
        self.deletes.setdefault(item, []).append((self.laptops.day, set()))

    def restore(self, name):
        document = self.read(name)
        if not document:
            return
        deleted = [item for item in self.items if item in document.get("tombstones", {})]
        if not deleted:
            return
        item = self.rng.choice(deleted)
        body = document["tombstones"][item].get("item") or {}
        if self.compacted(name, document, item):
            # Whatever it held is gone from here on: said once, by `compacted`, when it was early.
            for token in self.typed.values():
                if token.item == item:
                    self.excused.setdefault(token.token, f"compacted (restored at step {self.step})")
        if self.run(name, "restore", item) is None:
            return
        # A restore writes every field again, as this laptop holds it: each current value is
        # typed anew, and may beat what another laptop wrote meanwhile.
        for field in FIELDS:
            for token in self.held_tokens(body.get(field, {})):
                self.replaced.pop(token, None)
                if token in json.dumps(body[field].get("value")):
                    self.excused.pop(token, None)
                    self.unshared[name].add(token)

    def compacted(self, name, document, item):
        """Whether the laptop holds the deleted item compacted (its body dropped). A problem
        unless some delete of the item is past the retention and every laptop synced after it
        (a compaction everybody had seen). Any delete, not the latest: a laptop that has not yet
        merged a restore, or a stale copy deleting the item again, rightly holds it compacted."""
        if "title" in (document["tombstones"][item].get("item") or {}):
            return False
        deletes = self.deletes.get(item, [])
        if not any(self.laptops.day - day >= RETENTION_DAYS and set(self.members) <= synced for day, synced in deletes):
            if deletes:
                day, synced = deletes[-1]
                missing = set(self.members) - synced
                why = (f"{self.laptops.day - day} days after its latest delete"
                       + (f", before {', '.join(sorted(missing))} synced" if missing else "") + f" (the retention is {RETENTION_DAYS} days)")
            else:
                why = "though no laptop deleted it"
            self.problem("compacted early", f"{name} holds item {item} compacted {why}")
        return True

    def resolve(self, name):
        listed = self.run(name, "conflicts", "--json")
        document = listed and self.read(name)
        if not document:
            return
        # The conflicts a person sees (two equal values are none), in the order items were added.
        shown = {(c["item"], c["field"]) for c in listed.json() if c.get("field") in FIELDS}
        open_conflicts = [(item, field) for item in self.live_items(document) for field in FIELDS if (item, field) in shown]
        if not open_conflicts:
            return
        item, field = self.rng.choice(open_conflicts)
        entry = next(c for c in listed.json() if (c["item"], c.get("field")) == (item, field))
        keep = self.rng.choice(["current", "1"])
        kept = json.dumps(entry["current"]["value"] if keep == "current" else entry["alternatives"][0]["value"])
        if self.run(name, "resolve", item, field, "--keep", keep) is None:
            return
        write = f"resolve at step {self.step}"
        self.unshared[name].add(write)
        kept = next((t for t in self.typed if t in kept), None)
        self.replace(name, document, item, field, write, kept=kept)
        if kept:
            # Written again: a value of its own from now on, whatever replaced it before.
            self.replaced.pop(kept, None)
            self.excused.pop(kept, None)
            self.unshared[name].add(kept)

    def sync_some(self, _name):
        group = self.rng.sample(self.members, self.rng.randint(1, len(self.members)))
        for name in group:
            self.sync(name)

    def time_passes(self, _name):
        self.laptops.day += self.rng.choice(TIME_STEPS)

    def clock_goes_wrong(self, name):
        if self.wrong or not self.wrong_clocks:
            return
        # A home copied for a backup goes wrong more often than the others: a home restored
        # after its clock ran ahead is the first finding.
        if self.snapshot and self.rng.random() < 0.5:
            name = self.snapshot[0]
        self.laptops.skew[name] = self.rng.choice(WRONG_CLOCKS)
        self.wrong = (name, self.step + self.rng.randint(2, 10))
        self.step_text = f"{name}'s clock goes {describe_offset(self.laptops.skew[name])} until step {self.wrong[1]} (day {self.laptops.day})"
        if self.trace:
            print(f"seed {self.seed} step {self.step}: {self.step_text}", file=sys.stderr)

    def copy_home(self, name):
        """A backup of the laptop's home folder (cp -a), restored later in the history."""
        if self.snapshot or self.restored:
            return
        self.laptops.copy_home(name, name + ".backup")
        self.snapshot = (name, set(self.unshared[name]))

    def restore_home(self, _name):
        if not self.snapshot:
            return
        name, unshared_then = self.snapshot
        self.step_text = f"restore_home on {name} (day {self.laptops.day})"
        self.laptops.restore_home(name, name + ".backup")
        shutil.rmtree(self.laptops.home(name + ".backup"))
        # What the laptop typed after the copy and never synced lived only in the home replaced.
        lost = self.unshared[name] - unshared_then
        for token in lost:
            self.excused.setdefault(token, f"typed on {name} after its home was copied and never synced before the restore")
        # So did its replacing writes: what they replaced may be current again.
        self.replaced = {token: how for token, how in self.replaced.items() if how[4] not in lost}
        self.unshared[name] = set(unshared_then)
        if self.wrong and self.wrong[0] == name:
            self.fix_clock()
        self.snapshot, self.restored = None, True

    def fix_clock(self):
        self.laptops.skew[self.wrong[0]] = 0
        self.wrong = None

    ACTIONS = [
        (add, 12), (edit, 22), (delete, 7), (restore, 5), (resolve, 5), (sync_some, 25),
        (time_passes, 8), (clock_goes_wrong, 6), (copy_home, 2), (restore_home, 2),
    ]

    def play(self):
        self.laptops.ok(self.owner, "init", "--device-name", f"Laptop {self.owner}")
        self.laptops.ok(self.owner, "new", "Lisbon 2027", "--zone", "Europe/Lisbon", "--owned")
        self.members.append(self.owner)
        self.sync(self.owner)
        to_join = self.names[1:]
        actions, weights = zip(*self.ACTIONS)
        for self.step in range(1, self.steps + 1):
            if self.wrong and self.step >= self.wrong[1]:
                self.fix_clock()
            # Laptops join early in the history, one by one, while the owner's clock is right.
            if to_join and self.rng.random() < 0.3 and not (self.wrong and self.wrong[0] == self.owner):
                name = to_join.pop(0)
                self.step_text = f"{name} joins"
                self.join(name)
                continue
            action = self.rng.choices(actions, weights)[0]
            name = self.rng.choice(self.members)
            self.step_text = f"{action.__name__} on {name} (day {self.laptops.day}, clock {describe_offset(self.laptops.skew.get(name, 0))})"
            if self.trace:
                print(f"seed {self.seed} step {self.step}: {self.step_text}", file=sys.stderr)
            action(self, name)
        self.finish(to_join)

    def finish(self, to_join):
        """Every clock right, time moved on past any future stamp a fixed clock left, everyone
        syncs; each laptop writes once more; everyone syncs; then the oracle."""
        self.step_text = "the end: clocks fixed, everyone syncs"
        if self.wrong:
            self.fix_clock()
        self.laptops.day += 3
        for name in to_join:
            self.join(name)
        for _ in range(2):
            for name in self.members:
                self.sync(name)
        self.step_text = "the end: every laptop writes once more"
        for name in self.members:
            token = self.new_token()
            item = self.run(name, "add", "Last " + token, "--day", "2027-06-30").stdout.strip()
            self.items.append(item)
            self.type_value(name, item, "title", token)
        self.step_text = "the end: everyone syncs, then the oracle"
        for _ in range(3):
            for name in self.members:
                self.sync(name)
        prints = {name: self.laptops.fingerprint(name) for name in self.members}
        for name in self.members:
            self.check_values(name)
        if len(set(prints.values())) != 1:
            self.problem("diverged", f"the laptops do not converge after 3 rounds: fingerprints {prints}")

    def check_values(self, name):
        document = self.read(name)
        held = json.dumps(document.get("items", {})) + json.dumps(document.get("tombstones", {}))
        tombstones = document.get("tombstones", {})
        compacted = {item for item in tombstones if item in self.items and self.compacted(name, document, item)}
        for token, (item, field, by, step, _, counters) in self.replaced.items():
            register = document.get("items", {}).get(item, {}).get(field, {})
            current = json.dumps(register.get("value"))
            if token in current and register.get("rev", [None])[0] in counters:
                self.problem("undone", f"{name} shows {token!r} as the current {field} of {item}, though {by} replaced it at step {step}")
        for token, typed in self.typed.items():
            if token in held or token in self.excused or typed.item in compacted:
                continue
            where = "its item is live" if typed.item in document.get("items", {}) else (
                "its item is in the trash" if typed.item in tombstones else "its item is gone")
            self.problem("lost", f"{name} lost the {typed.field} {token!r} typed on {typed.laptop} at step {typed.step} ({where})")


def play(seed, steps, wrong_clocks, trace):
    """Plays one history; returns it (with the problems found) and the time it took."""
    history = History(seed, steps, wrong_clocks, trace)
    started = time.monotonic()
    try:
        history.play()
    except Stuck as stuck:
        history.problem("stuck", str(stuck))
    except CommandFailed as failure:
        history.problem("stuck", f"a command failed:\n{failure.result}")
    history.laptops.close()
    return history, time.monotonic() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1, help="the first history's seed (history i uses seed+i)")
    parser.add_argument("--histories", type=int, default=24)
    parser.add_argument("--steps", type=int, default=150, help="random steps per history before the end")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="histories played at once")
    parser.add_argument("--right-clocks", action="store_true", help="no clock ever goes wrong (checks the oracle itself)")
    parser.add_argument("--trace", action="store_true", help="print each step on stderr as it is played (for a replay)")
    options = parser.parse_args()
    require_tools()
    seeds = [options.seed + i for i in range(options.histories)]
    passed = failed = 0
    kinds = Counter()
    with ThreadPoolExecutor(max_workers=options.jobs) as pool:
        for history, seconds in pool.map(lambda s: play(s, options.steps, not options.right_clocks, options.trace), seeds):
            summary = (f"seed {history.seed}: {len(history.names)} laptops, {history.step} steps, {len(history.laptops.log)} commands, "
                       f"{len(history.typed)} values typed, {seconds:.1f} s")
            if not history.problems:
                passed += 1
                print(f"PASS {summary}")
                continue
            failed += 1
            found = Counter(kind for kind, _, _ in history.problems)
            kinds.update(found.keys())
            kind, where, reason = history.problems[0]
            print(f"FAIL {summary}: {', '.join(f'{k} {n}' for k, n in sorted(found.items()))}")
            print(f"  first, at {where} [{kind}]: {reason}".replace("\n", "\n    "))
            print("  the commands before it:\n    " + history.first_transcript.replace("\n", "\n    "))
            for kind, where, reason in history.problems[1:11]:
                print(f"  then, at {where} [{kind}]: {reason.splitlines()[0]}")
            if len(history.problems) > 11:
                print(f"  and {len(history.problems) - 11} more")
            print(f"  replay: python3 Tests/clocks/sim.py --seed {history.seed} --histories 1 --steps {options.steps}"
                  + (" --right-clocks" if options.right_clocks else ""))
            sys.stdout.flush()
    if kinds:
        print("failing histories with each kind of problem: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
