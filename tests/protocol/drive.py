#!/usr/bin/env python3
"""Drives `turnspec play SPEC --protocol jsonl` from Python (standard
library only): docs/protocol.md.

    drive.py                 play all-pass Magic turns, legal moves, an
                             illegal move, malformed lines, snapshot/restore
    drive.py --memory N      N pass requests in a loop; fails if the peak
                             resident memory (VmHWM) grew by more than
                             --bound KiB between move 10,000 and move N
    drive.py --speed N       N round trips (one pass per request, each
                             answered before the next is sent); prints the
                             rate

The binary is $TURNSPEC_BIN, else target/release/turnspec; the spec is
$TURNSPEC_SPEC, else games/mtg.toml (paths from the repository root).
"""

import json
import os
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("TURNSPEC_BIN") or os.path.join(ROOT, "target", "release", "turnspec")
SPEC = os.environ.get("TURNSPEC_SPEC") or os.path.join(ROOT, "games", "mtg.toml")


class Turnspec:
    """One `turnspec play` process and its pipes."""

    def __init__(self):
        self.proc = subprocess.Popen(
            [BIN, "play", SPEC, "--protocol", "jsonl"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
            cwd=ROOT,
        )
        self.next_id = 0

    def line(self, text):
        """Sends one raw line; returns the parsed response."""
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()
        out = self.proc.stdout.readline()
        assert out, "turnspec closed its output: " + self.proc.stderr.read()
        return json.loads(out)

    def send(self, op, **fields):
        self.next_id += 1
        request = {"v": 1, "id": self.next_id, "op": op, **fields}
        response = self.line(json.dumps(request))
        assert response["v"] == 1, response
        assert response["id"] == self.next_id, (request, response)
        return response

    def ok(self, op, **fields):
        r = self.send(op, **fields)
        assert "ok" in r, (op, fields, r)
        return r["ok"]

    def error(self, op, **fields):
        r = self.send(op, **fields)
        assert "error" in r and "ok" not in r, (op, fields, r)
        return r["error"]

    def peak_kib(self):
        """The process's peak resident memory (VmHWM), in KiB."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        raise RuntimeError("no VmHWM in /proc/PID/status")

    def close(self):
        self.proc.stdin.close()
        code = self.proc.wait(timeout=30)
        assert code == 0, f"turnspec exited {code}: {self.proc.stderr.read()}"


def play_session():
    t = Turnspec()
    hello = t.ok("hello")
    assert hello["protocol"] == 1 and hello["snapshot_format"] == 2, hello
    assert "apply" in hello["requests"], hello

    state = t.ok("new_game", players=2)
    assert state["turn"] == 1 and state["holder"] == "P1", state

    # All-pass turns: the holder passes, after checking it may.
    passes = 0
    while state["turn"] < 3:
        legal = t.ok("legal_moves")
        assert legal["player"] == state["holder"], (legal, state)
        assert legal["moves"][0] == {"kind": "pass", "by": state["holder"]}, legal
        state = t.ok("apply", move={"kind": "pass", "by": state["holder"]})["state"]
        passes += 1
        assert passes < 100, state
    trace = t.ok("trace")
    kinds = [e["event"] for e in trace["events"]]
    assert kinds[0] == "turn_began" and kinds.count("turn_began") == 3, kinds
    assert trace["first"] == 0 and trace["next"] == len(kinds), trace

    # An illegal move: a typed error with its rule, and nothing changed.
    before = t.ok("state")
    snap = t.ok("snapshot")["snapshot"]
    other = "P1" if before["holder"] == "P2" else "P2"
    e = t.error("apply", move={"kind": "pass", "by": other})
    assert e["code"] == "rule::not_holder" and e["rule"], e
    e = t.error("apply", move={"kind": "play", "timing": "no_such_class"})
    assert e["code"] == "protocol::unknown_name", e
    assert t.ok("state") == before
    assert t.ok("snapshot")["snapshot"] == snap

    # Malformed lines: answered with typed errors, nothing changed.
    for text, code in [
        ("this is not json", "protocol::malformed_json"),
        ("[1, 2, 3]", "protocol::malformed_json"),
        ('{"op": "state"}', "protocol::unsupported_version"),
        ('{"v": 2, "op": "state"}', "protocol::unsupported_version"),
        ('{"v": 1, "op": "teleport"}', "protocol::bad_request"),
        ('{"v": 1, "op": "apply", "move": {"kind": "pass", "by": "P7"}}', "protocol::unknown_player"),
        ('{"v": 1, "op": "restore", "snapshot": "not hex"}', "protocol::bad_snapshot"),
    ]:
        r = t.line(text)
        assert r["error"]["code"] == code, (text, r)
    assert t.ok("state") == before

    # Snapshot and restore: the game plays on the same way.
    later = [t.ok("apply", move={"kind": "pass"}) for _ in range(12)]
    restored = t.ok("restore", snapshot=snap)
    assert restored == before, (restored, before)
    again = [t.ok("apply", move={"kind": "pass"}) for _ in range(12)]
    assert again == later
    t.close()
    print(f"python: ok ({passes} passes to turn 3, errors typed, snapshot round trip)")


def memory_loop(moves, bound_kib):
    t = Turnspec()
    t.ok("new_game", players=2)
    batch = 100  # requests in flight: well within the pipes' buffers
    request = json.dumps({"v": 1, "op": "apply", "move": {"kind": "pass"}}) + "\n"
    peak_at = {}
    done = 0
    while done < moves:
        n = min(batch, moves - done)
        t.proc.stdin.write(request * n)
        t.proc.stdin.flush()
        for _ in range(n):
            r = json.loads(t.proc.stdout.readline())
            assert "ok" in r, r
        done += n
        if done in (10_000, moves):
            peak_at[done] = t.peak_kib()
    turn = r["ok"]["state"]["turn"]
    t.close()
    grew = peak_at[moves] - peak_at[10_000]
    print(
        f"python memory: peak RSS {peak_at[10_000]} KiB after 10,000 moves, "
        f"{peak_at[moves]} KiB after {moves:,} moves (grew {grew} KiB, bound {bound_kib} KiB; turn {turn})"
    )
    assert grew <= bound_kib, "memory grew over the loop"


def speed(moves):
    t = Turnspec()
    t.ok("new_game", players=2)
    line = json.dumps({"v": 1, "op": "apply", "move": {"kind": "pass"}}) + "\n"
    start = time.perf_counter()
    for _ in range(moves):
        t.proc.stdin.write(line)
        t.proc.stdin.flush()
        r = t.proc.stdout.readline()
    elapsed = time.perf_counter() - start
    state = json.loads(r)["ok"]["state"]
    t.close()
    print(
        f"python speed: {moves:,} round trips (one pass each) in {elapsed:.2f} s: "
        f"{moves / elapsed:,.0f} round trips/s, {state['turn'] - 1} turns, "
        f"{(state['turn'] - 1) / elapsed:,.0f} turns/s"
    )


def main(argv):
    if len(argv) >= 2 and argv[0] == "--memory":
        bound = int(argv[3]) if len(argv) >= 4 and argv[2] == "--bound" else 1024
        memory_loop(int(argv[1]), bound)
    elif len(argv) == 2 and argv[0] == "--speed":
        speed(int(argv[1]))
    elif not argv:
        play_session()
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
