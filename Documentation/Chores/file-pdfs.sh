#!/bin/sh
# File PDFs: each PDF that lands in ~/Downloads goes into ~/Documents, in a folder for the month.
inotifywait -m -q -e close_write -e moved_to --format '%w%f' ~/Downloads | while read -r file; do
  case "$file" in *.pdf) ;; *) continue ;; esac
  month=$(date +%Y-%m)
  mkdir -p ~/Documents/"$month"
  mv --backup=numbered "$file" ~/Documents/"$month"/
  echo "Filed $file into ~/Documents/$month."
done
