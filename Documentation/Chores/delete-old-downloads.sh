#!/bin/sh
# Delete Old Downloads: move files in ~/Downloads unchanged for 30 days to the Trash, after asking.
old=$(find ~/Downloads -maxdepth 1 -type f -mtime +30)
if [ -z "$old" ]; then echo "Nothing older than 30 days."; exit 0; fi
n=$(printf '%s\n' "$old" | wc -l)
printf 'Move %s downloads older than 30 days to the Trash? [y/N] ' "$n"
read -r answer && [ "$answer" = y ] || exit 1
printf '%s\n' "$old" | xargs -d '\n' gio trash
echo "Moved $n files to the Trash."
