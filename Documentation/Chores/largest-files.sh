#!/bin/sh
# Largest Files: a Markdown table of the ten largest files under ~/Documents.
echo "| Size | Path |"
echo "| ---: | --- |"
find ~/Documents -type f -printf '%s\t%p\n' | sort -rn | head -n 10 | awk -F'\t' '{ print "| " $1 " | " $2 " |" }'
