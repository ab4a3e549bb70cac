#!/bin/sh
# Clean Downloads: every Sunday, move temporary downloads older than a week to the Trash.
# crontab: 0 10 * * SUN sh ~/bin/clean-downloads.sh
note() { mkdir -p ~/notes && echo "$1" >> ~/notes/cleaning.md; }
trap 'status=$?; [ "$status" -eq 0 ] || note "$(date -Is): clean-downloads failed with status $status"' EXIT
old=$(find ~/Downloads -maxdepth 1 -name '*.tmp' -mtime +7)
if [ -z "$old" ]; then echo "Nothing to clean."; exit 0; fi
n=$(printf '%s\n' "$old" | wc -l)
printf '%s\n' "$old" | xargs -d '\n' gio trash
note "$(date -Is): moved $n old downloads to the Trash"
notify-send "Downloads cleaned" "Moved $n files to the Trash." || true
echo "Moved $n files to the Trash."
