#!/usr/bin/env python3
"""The passphrase prompt of `tripsync owner export -o FILE` on a real pseudo-terminal (issue 16).

Runs the built binary (TRIPSYNC=path, default .build/debug/tripsync) in fresh homes under a temp
dir: laptop A owns a trip, laptop B is admitted as editor through a shared folder. Then `owner
export` is driven through pty.fork() as a person meets it: each answer is typed as soon as the
prompt is on the screen. Checks: the prompt appears, the typed passphrase is never echoed, a
mismatch on the second prompt writes nothing, a short passphrase is asked again (3 tries, then
nothing is written; a short --passphrase-file is refused), a matching pair writes a
file (mode 0600) that `owner import --passphrase-file` opens on laptop B; without a terminal
the command asks for --passphrase-file (exit 2). Output: PASS/FAIL per check, then one line
"N passed, M failed"; exit 0 only when nothing failed. Standard library only.
"""
import os

from ptysession import check, main, on_terminal, ts


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

    status, screen = on_terminal(["--home", a, "owner", "export", "-o", key], ["short", "tiny", "nope"])
    check("a passphrase under 8 characters: says why and asks again, 3 tries in all",
          screen.count("Passphrase: ") == 3 and "at least 8" in screen and "try again (2 of 3)" in screen and "try again (3 of 3)" in screen,
          "exit %d: %s" % (status, screen))
    check("three short passphrases: exit 1, nothing written, none echoed",
          status == 1 and "3 tries" in screen and not os.path.exists(key)
          and not any(word in screen for word in ("short\n", "tiny", "nope")),
          "exit %d: %s" % (status, screen))

    retry_key = os.path.join(tmp, "retry.key")
    status, screen = on_terminal(["--home", a, "owner", "export", "-o", retry_key], ["short", secret, secret])
    check("a short passphrase, then a good pair: exit 0, the key is written",
          status == 0 and "try again" in screen and "wrote the owner key" in screen and os.path.exists(retry_key),
          "exit %d: %s" % (status, screen))

    short_file = os.path.join(tmp, "short.txt")
    with open(short_file, "w") as f:
        f.write("short\n")
    result = ts(a, "owner", "export", "-o", key, "--passphrase-file", short_file)
    check("a short --passphrase-file is still refused (exit 1), nothing written",
          result.returncode == 1 and "at least 8" in result.stderr and not os.path.exists(key),
          "exit %d: %s" % (result.returncode, result.stderr))

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
    main(run)
