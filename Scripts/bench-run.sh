#!/usr/bin/env bash
# Run speed, measured against other tools in the same run (issue 4):
#   1. cold start: `flow run` of a one-step workflow (history on) against `just` and `go-task` running
#      one echo recipe, and `flow --version` against `just --version`: wall and CPU time of runs
#      interleaved command by command (so a busy machine slows every command alike), and instructions
#      (callgrind: the same count on every run, whatever else the machine does); then
#      `ansible-playbook` running one debug task;
#   2. a 1,000-step loop against an Ansible loop of 1,000 set_fact;
#   3. 1,000,000 trivial steps (`set`) and 100,000 action steps, as steps per second.
# Installs hyperfine and valgrind (apt) and rust-just, go-task-bin and ansible-core (PyPI, into a
# temporary virtualenv) when missing. Usage: Scripts/bench-run.sh [--dynamic]
# flow is measured as it ships: a release build with the static Swift standard library. --dynamic
# measures the dynamically linked build instead.
source "$(dirname "$0")/bench-common.sh"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q rust-just go-task-bin ansible-core >/dev/null
export PATH="$work/venv/bin:$PATH"
build_flow "${1:-}"

cd "$work"
cat > hello.yml <<'YAML'
flow: 1
name: Hello
steps:
  - show: hello
YAML
printf 'hello:\n    echo hello\n' > justfile
printf 'version: "3"\ntasks:\n  hello:\n    cmds:\n      - echo hello\n' > Taskfile.yml
printf -- '- hosts: localhost\n  connection: local\n  gather_facts: false\n  tasks:\n    - debug: msg=hello\n' > hello-playbook.yml
cat > loop.yml <<'YAML'
flow: 1
name: Loop
steps:
  - repeat: 1000
    do:
      - set: fact
        value: ${index}
YAML
printf -- '- hosts: localhost\n  connection: local\n  gather_facts: false\n  tasks:\n    - set_fact: fact={{ item }}\n      loop: "{{ range(1000) | list }}"\n' > loop-playbook.yml
sed 's/repeat: 1000$/repeat: 1000000/' loop.yml > million.yml
printf 'flow: 1\nname: Actions\nsteps:\n  - repeat: 100000\n    do:\n      - number: ${index}\n' > actions.yml
export ANSIBLE_LOCALHOST_WARNING=False ANSIBLE_INVENTORY_UNPARSED_WARNING=False

mean() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["mean"])' "$@"; }

echo "== cold start (one step)"
command -v valgrind >/dev/null || apt-get install -y -q valgrind >/dev/null
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state"
# Valgrind gives up on the debug information of a Swift binary this size: it counts a copy without it.
strip --strip-debug -o "$work/flow-stripped" "$flow"
python3 - "$flow" "$(command -v just)" "$(command -v task)" "$work/flow-stripped" <<'PY'
import os, random, statistics, subprocess, sys, time
flow, just, task, stripped = sys.argv[1:]
commands = {
    "flow run": [flow, "run", "hello.yml"], "just": [just, "hello"], "go-task": [task, "hello"],
    "flow --version": [flow, "--version"], "just --version": [just, "--version"],
}
devnull = os.open(os.devnull, os.O_WRONLY)
def once(argv):
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status, usage = os.wait4(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, argv
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime
for argv in commands.values():
    for _ in range(3): once(argv)
wall = {name: [] for name in commands}
cpu = {name: [] for name in commands}
# Each round in a new order (seeded, so that two runs of the script agree): in a fixed order a command
# always followed the same one, and the one after go-task's 100 ms found the caches cold each round.
order = random.Random(17)
for _ in range(40):
    for name in order.sample(list(commands), len(commands)):
        w, c = once(commands[name])
        wall[name].append(w); cpu[name].append(c)
def instructions(argv):
    argv = [stripped if argv[0] == flow else argv[0], *argv[1:]]
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
                         capture_output=True, text=True).stderr
    return int(next(l for l in out.splitlines() if "Collected" in l).split()[-1])
ins = {name: instructions(argv) for name, argv in commands.items() if name != "go-task"}
w = {n: statistics.median(v) for n, v in wall.items()}
c = {n: statistics.median(v) for n, v in cpu.items()}
print("                 wall (median)   CPU (median)   instructions")
for n in commands:
    print(f"{n:16} {w[n]*1000:8.2f} ms {c[n]*1000:10.2f} ms {ins[n]/1e6:12.2f} M" if n in ins else
          f"{n:16} {w[n]*1000:8.2f} ms {c[n]*1000:10.2f} ms")
print(f"flow run / just:            wall {w['flow run']/w['just']:5.2f}x  CPU {c['flow run']/c['just']:5.2f}x  "
      f"instructions {ins['flow run']/ins['just']:5.2f}x   (target <= 1.00)")
print(f"flow --version / just:      wall {w['flow --version']/w['just --version']:5.2f}x  "
      f"CPU {c['flow --version']/c['just --version']:5.2f}x  "
      f"instructions {ins['flow --version']/ins['just --version']:5.2f}x   (target <= 0.80)")
print(f"flow run / go-task:         wall {w['flow run']/w['go-task']:5.2f}x")
open("start-mean", "w").write(str(statistics.mean(wall["flow run"])))
PY
f=$(cat start-mean)
hyperfine -N --warmup 1 --runs 5 --export-json ansible.json "ansible-playbook -i localhost, hello-playbook.yml" >/dev/null
a=$(mean ansible.json 0)
python3 - "$f" "$a" <<'PY'
import sys
f, a = map(float, sys.argv[1:])
print(f"ansible    {a*1000:7.1f} ms   flow/ansible = {f/a:5.3f}x")
PY

echo "== 1,000-step loop"
hyperfine -N --warmup 1 --runs 10 --export-json loop.json "$flow run loop.yml" >/dev/null
hyperfine -N --warmup 1 --runs 3 --export-json loop-ansible.json "ansible-playbook -i localhost, loop-playbook.yml" >/dev/null
python3 - "$(mean loop.json 0)" "$(mean loop-ansible.json 0)" <<'PY'
import sys
f, a = map(float, sys.argv[1:])
print(f"flow       {f*1000:7.1f} ms")
print(f"ansible    {a*1000:7.1f} ms   flow/ansible = {f/a:6.4f}x (target <= 0.005)")
PY

echo "== steps per second"
hyperfine -N --runs 3 --export-json million.json "$flow run million.yml" "$flow run actions.yml" >/dev/null
python3 - "$(mean million.json 0)" "$(mean million.json 1)" "$f" <<'PY'
import sys
m, act, start = map(float, sys.argv[1:])
print(f"1,000,000 'set' steps:     {1_000_000/(m-start):>12,.0f} steps/s (target >= 1,000,000)")
print(f"100,000 action steps:      {100_000/(act-start):>12,.0f} steps/s")
PY
