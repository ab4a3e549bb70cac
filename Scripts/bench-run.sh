#!/usr/bin/env bash
# Run speed, measured against other tools in the same run (issue 4):
#   1. cold start: `flow run` of a one-step workflow against `just` and `go-task` running one echo
#      recipe and `ansible-playbook` running one debug task;
#   2. a 1,000-step loop against an Ansible loop of 1,000 set_fact;
#   3. 1,000,000 trivial steps (`set`) and 100,000 action steps, as steps per second.
# Installs hyperfine (apt) and rust-just, go-task-bin and ansible-core (PyPI, into a temporary
# virtualenv) when missing. Usage: Scripts/bench-run.sh [--dynamic]
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
hyperfine -N --warmup 3 --runs 30 --export-json start.json \
  "$flow run hello.yml" "just hello" "task hello" >/dev/null
hyperfine -N --warmup 1 --runs 5 --export-json ansible.json "ansible-playbook -i localhost, hello-playbook.yml" >/dev/null
f=$(mean start.json 0); j=$(mean start.json 1); t=$(mean start.json 2); a=$(mean ansible.json 0)
python3 - "$f" "$j" "$t" "$a" <<'PY'
import sys
f, j, t, a = map(float, sys.argv[1:])
print(f"flow run   {f*1000:7.1f} ms")
print(f"just       {j*1000:7.1f} ms   flow/just    = {f/j:5.2f}x (target <= 1.00)")
print(f"go-task    {t*1000:7.1f} ms   flow/go-task = {f/t:5.2f}x")
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
