#!/bin/sh
# Back Up Documents: when the drive labelled BACKUP is mounted, copy ~/Documents onto it.
udisksctl monitor | while read -r line; do
  case "$line" in *MountPoints:*) ;; *) continue ;; esac
  drive=$(findmnt -rno TARGET -S LABEL=BACKUP) || continue
  day=$(date +%F)
  mkdir -p "$drive/flow-backups"
  dest="$drive/flow-backups/$day" n=2
  while [ -e "$dest" ]; do dest="$drive/flow-backups/$day $n" n=$((n + 1)); done
  cp -a ~/Documents "$dest"
  notify-send "Backed up ~/Documents" "onto BACKUP, in ${dest#"$drive"/}" || true
done
