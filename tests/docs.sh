#!/usr/bin/env bash
# The documents: every relative link of every Markdown file in the tree
# names a file or folder that exists (and, with #ANCHOR, a heading of that
# file), and the top README stays under its size bound. One ok/FAIL line each.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
limit=25000

# GitHub's anchor of a heading: lower case, punctuation but - and _ dropped,
# spaces to -.
anchors() { # FILE
	sed -n 's/^#\{1,6\} \(.*\)$/\1/p' "$1" | tr 'A-Z' 'a-z' |
		sed 's/[^a-z0-9 _-]//g; s/ /-/g'
}

bad=$(git ls-files '*.md' | while read -r md; do
	dir=$(dirname "$md")
	# [text](target) links; skip absolute URLs and mail
	grep -o '\](\([^)]*\))' "$md" | sed 's/^](\(.*\))$/\1/' | while read -r t; do
		case $t in http://* | https://* | mailto:*) continue ;; esac
		path=${t%%#*} anchor=
		[[ $t == *'#'* ]] && anchor=${t#*#}
		if [ -n "$path" ]; then
			f=$dir/$path
			[ -e "$f" ] || { echo "$md: $t: no such file"; continue; }
		else
			f=$md
		fi
		if [ -n "$anchor" ] && [ -f "$f" ] && [[ $f == *.md ]]; then
			anchors "$f" | grep -qxF "$anchor" || echo "$md: $t: no such heading"
		fi
	done
done)
if [ -z "$bad" ]; then echo "ok - docs.links"; else
	echo "FAIL - docs.links"; sed 's/^/    /' <<<"$bad"; fi

size=$(stat -c %s README.md)
if [ "$size" -lt "$limit" ]; then echo "ok - docs.readme_size ($size bytes, under $limit)"; else
	echo "FAIL - docs.readme_size: README.md is $size bytes, the bound is $limit"; fi
