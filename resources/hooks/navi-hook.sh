#!/bin/sh
# Navi's Claude Code hook handler. Claude Code runs it for every hook event Navi installed (see
# electron/engine/core/hooks-settings.ts) with the event's JSON payload on stdin:
#   /bin/sh <this file> --navi-home <dir>   # navi-hook
#
# It stores the payload, as it came (its first 256 KiB), in one new file of $NAVI_HOME/hooks/spool/,
# under a first line that names the claude process that ran it (for Navi to check it is alive), and
# leaves everything else to Navi, which turns each file into a line of its hook inbox. A file appears
# whole or not at all: it is written under a temporary name and renamed, so a payload of megabytes is as
# atomic as a small one and concurrent sessions never mix.
#
# A shell and four small commands, so a hook Claude Code waits for costs milliseconds, not a Node
# start-up. No dependency but a POSIX shell, mktemp, head, cat and mv. It prints nothing (the stdout of
# some hooks is read by Claude Code), reads all of stdin (a writer must never block on a full pipe) and
# always exits 0, whether Navi runs or not, and whatever fails: a hook must never block or fail the agent.
#
# NAVI_HOME: the environment variable, else --navi-home <dir> (baked in at install), else ~/.navi.

home=${NAVI_HOME:-}
if [ -z "$home" ] && [ "${1:-}" = "--navi-home" ]; then home=${2:-}; fi
[ -n "$home" ] || home="$HOME/.navi"
case $home in
  "~") home=$HOME ;;
  "~/"*) home="$HOME/${home#"~/"}" ;;
esac
spool="$home/hooks/spool"

give_up() {
  cat >/dev/null 2>&1
  exit 0
}

[ -d "$spool" ] || mkdir -p -m 700 "$spool" 2>/dev/null || give_up
tmp=$(mktemp "$spool/.new.XXXXXXXXXX" 2>/dev/null) || give_up

# The claude process that runs this hook: the nearest ancestor named claude, or a node (or bun) whose
# command line is the claude CLI (its npm package), found in /proc with shell builtins only (0 where there is no
# /proc, or no such ancestor). A stat's second field (the command name) may hold spaces or parentheses:
# the fields after the last ")" are the state and the parent pid. `read` drops the NULs of a command
# line, which leaves its arguments run together: enough to find the package path in it.
claude=0
pid=$PPID
depth=0
while [ "$depth" -lt 6 ] && [ "${pid:-0}" -gt 1 ] 2>/dev/null && [ -r "/proc/$pid/stat" ]; do
  comm=
  read -r comm 2>/dev/null <"/proc/$pid/comm"
  case $comm in
    claude | claude.exe) claude=$pid && break ;;
    # Node 26 names its main thread `node-MainThread` (what /proc/<pid>/comm shows); earlier Nodes: `node`.
    node | nodejs | node-* | bun | bun-*)
      cmdline=
      read -r cmdline 2>/dev/null <"/proc/$pid/cmdline"
      case $cmdline in *@anthropic-ai/claude-code/* | */bin/claude*) claude=$pid && break ;; esac
      ;;
  esac
  read -r stat 2>/dev/null <"/proc/$pid/stat" || break
  # shellcheck disable=SC2086 # split on purpose: state, parent pid, ...
  set -- ${stat##*) }
  pid=${2:-0}
  depth=$((depth + 1))
done

{
  printf 'navi-hook 1 %s\n' "$claude"
  head -c 262144
} >"$tmp" 2>/dev/null
cat >/dev/null 2>&1
mv -f "$tmp" "$spool/${tmp##*/.new.}.json" 2>/dev/null || rm -f "$tmp" 2>/dev/null
exit 0
