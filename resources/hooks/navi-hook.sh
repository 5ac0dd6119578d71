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
# start-up. No dependency but a POSIX shell, mktemp, head, cat and mv (and sed, date and sleep when it
# may hold a request). It prints nothing but the user's answer (the stdout of some hooks is read
# by Claude Code), reads all of stdin (a writer must never block on a full pipe) and always exits 0,
# whether Navi runs or not, and whatever fails: a hook never fails the agent, and holds it only as
# described below.
#
# NAVI_HOME: the environment variable, else --navi-home <dir> (baked in at install), else ~/.navi.
#
# With --answerable (Navi installs it on PermissionRequest only), the handler may wait for the user's
# answer from Navi (the tray, a browser, `navi answer`), and only when all of these hold: a Navi runtime
# is listening (its pid in $NAVI_HOME/answers/listener is alive), and the user opted in, for every
# session (answers/away) or for this one (answers/sessions/<session id>); the file holds the seconds to
# wait. While it waits, answers/waiting/<request id> holds its pid and deadline. Navi answers by writing
# answers/<request id>.deny or .allow (the hook's JSON output); the handler takes one by renaming it to
# .taken (deny first: deny wins over allow), prints it and exits. On the deadline, or when the agent is
# gone, it prints nothing: the agent's own dialog decides, and nothing is ever approved by default.

home=${NAVI_HOME:-}
answerable=0
if [ "${1:-}" = "--navi-home" ]; then
  [ -n "$home" ] || home=${2:-}
  [ "${3:-}" = "--answerable" ] && answerable=1
fi
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

# The agent process that runs this hook: the nearest ancestor named claude or codex, or a node (or bun)
# whose command line is the claude CLI (its npm package), found in /proc with shell builtins only (0 where
# there is no /proc, or no such ancestor). Codex's is its native binary (the npm launcher is its parent). A stat's second field (the command name) may hold spaces or parentheses:
# the fields after the last ")" are the state and the parent pid. `read` drops the NULs of a command
# line, which leaves its arguments run together: enough to find the package path in it.
agent=0
pid=$PPID
depth=0
while [ "$depth" -lt 6 ] && [ "${pid:-0}" -gt 1 ] 2>/dev/null && [ -r "/proc/$pid/stat" ]; do
  comm=
  read -r comm 2>/dev/null <"/proc/$pid/comm"
  case $comm in
    claude | claude.exe | codex) agent=$pid && break ;;
    # Node 26 names its main thread `node-MainThread` (what /proc/<pid>/comm shows); earlier Nodes: `node`.
    node | nodejs | node-* | bun | bun-*)
      cmdline=
      read -r cmdline 2>/dev/null <"/proc/$pid/cmdline"
      case $cmdline in *@anthropic-ai/claude-code/* | */bin/claude*) agent=$pid && break ;; esac
      ;;
  esac
  read -r stat 2>/dev/null <"/proc/$pid/stat" || break
  # shellcheck disable=SC2086 # split on purpose: state, parent pid, ...
  set -- ${stat##*) }
  pid=${2:-0}
  depth=$((depth + 1))
done

{
  printf 'navi-hook 1 %s\n' "$agent"
  head -c 262144
} >"$tmp" 2>/dev/null
cat >/dev/null 2>&1
id=${tmp##*/.new.}

# Seconds to wait for an answer from Navi, or nothing (see the top of this file).
answer_wait() {
  answers="$home/answers"
  listener=
  read -r listener 2>/dev/null <"$answers/listener" || return 0
  case $listener in '' | *[!0-9]*) return 0 ;; esac
  kill -0 "$listener" 2>/dev/null || return 0
  seconds=
  if [ -f "$answers/away" ]; then
    read -r seconds 2>/dev/null <"$answers/away"
  else
    # The payload's first session_id (Claude Code and Codex write it first), ids' characters only.
    sid=$(head -c 4096 "$tmp" 2>/dev/null | sed -n 's/.*"session_id" *: *"\([0-9A-Za-z_-]*\)".*/\1/p' 2>/dev/null | head -n 1)
    [ -n "$sid" ] && [ -f "$answers/sessions/$sid" ] && read -r seconds 2>/dev/null <"$answers/sessions/$sid"
  fi
  case $seconds in '' | *[!0-9]*) return 0 ;; esac
  [ "$seconds" -gt 600 ] 2>/dev/null && seconds=600
  echo "$seconds"
}

# The spool file's time orders the event among its session's others, and Navi drops a line older than
# what it already folded as late. Other hooks of this call (the permission Notification, the async
# PreToolUse) may be published while this one looks for an opt-in: its time is when it is published.
# A newline after the payload's JSON sets it with a shell builtin (`touch` would be one more process).
publish() {
  [ "$answerable" = 1 ] && echo >>"$tmp" 2>/dev/null
  mv -f "$tmp" "$spool/$id.json" 2>/dev/null
}

seconds=
[ "$answerable" = 1 ] && seconds=$(answer_wait)
if [ -z "$seconds" ] || [ "$seconds" -le 0 ] 2>/dev/null; then
  publish || rm -f "$tmp" 2>/dev/null
  exit 0
fi

answers="$home/answers"
waiting="$answers/waiting/$id"
mkdir -p -m 700 "$answers/waiting" 2>/dev/null
now=$(date +%s 2>/dev/null) || now=0
printf '%s %s\n' "$$" "$((now + seconds))" >"$waiting.tmp" 2>/dev/null && mv -f "$waiting.tmp" "$waiting" 2>/dev/null
trap 'rm -f "$waiting" "$waiting.tmp" 2>/dev/null' EXIT
trap 'exit 0' HUP INT TERM
# Navi learns of the request (with its id) once it is waited on.
publish || { rm -f "$tmp" 2>/dev/null; exit 0; }

deadline=$((now + seconds))
# Four looks a second; the tick count bounds the wait even where `sleep` takes whole seconds only.
ticks=$((seconds * 4))
while [ "$ticks" -gt 0 ]; do
  if mv "$answers/$id.deny" "$answers/$id.taken" 2>/dev/null || mv "$answers/$id.allow" "$answers/$id.taken" 2>/dev/null; then
    rm -f "$waiting" 2>/dev/null
    cat "$answers/$id.taken" 2>/dev/null
    exit 0
  fi
  # The agent is gone (answered and moved on, or quit): nothing left to answer.
  if [ "$agent" -gt 1 ] 2>/dev/null && ! kill -0 "$agent" 2>/dev/null; then break; fi
  sleep 0.25 2>/dev/null || sleep 1
  ticks=$((ticks - 1))
  # Whole seconds: past the deadline by more than a second means the wait is over whatever `sleep` did.
  [ "$now" -gt 0 ] && [ "$(date +%s 2>/dev/null || echo 0)" -gt "$deadline" ] && break
done
exit 0
