/** The `navi` command's help: its own module, so `navi --help` prints it without loading the engine. */
export const USAGE = `usage: navi <command> [options]

  status [--json]                          projects by attention, with sessions, branch, progress
  sessions [--json] [--all]                every session (--all: ended ones too)
  events [--since 2h] [--project NAME] [--json]
  watch [--json] [--no-pm]                 run the engine (and the PM), print events and briefings
  brief [--json]                           run the PM now and print its briefing
  ask "QUESTION" [--json]                  ask the PM (today's events, the projects, its memory)
  answer SESSION allow|deny [--message TEXT] [--request ID]
                                           answer the permission request SESSION waits on, through
                                           Navi's hook (when it waits: see away) or its tmux pane;
                                           deny tells TEXT
  reply SESSION "TEXT"                      type TEXT at the prompt of a session that waits (tmux)
  away on|off|status [SESSION]             let Navi's hook wait for answers from Navi (answering.wait)
                                           for every session, or for SESSION only
  serve [--port N] [--open] [--no-pm] [--json]
                                           the popover in a browser, on 127.0.0.1 (prints its URL;
                                           --port 0 or none: any free port; --open: open a browser;
                                           --json: one line {url, port, token})
  hooks install|uninstall|status           Claude Code hooks for the most accurate status
  hooks install|uninstall|status codex     Navi's hook in $CODEX_HOME/hooks.json (answer Codex from
                                           Navi; status says whether Codex trusts it)
  run "TASK" [--project NAME | --cwd DIR] [--plan | --no-plan] [--agent claude|codex] [--model M]
      [--permission-mode MODE] [--dangerously-skip-permissions] [--detach] [--json]
                                           delegate a task to a headless agent in the project the task
                                           names (or asks which); prints what it relays; Ctrl-C cancels;
                                           --detach: hand it to the running tray or navi serve
  tasks [--json]                           delegated tasks, newest first
  task ID [reply "…" | approve | reject | cancel] [--log] [--json]
                                           one task with its notes (--log: its log's last 200 lines);
                                           answer its question or its plan
  doctor [--json]                          what was found, what is missing, how to fix it
  usage [--json]                           the PM's runs, tokens and cost today and this week
  dismiss PROJECT "TITLE" [--snooze 1h]   hide an attention item or a suggestion (kept across restarts)
  memory list|restore [VERSION] [--json]   PM memory versions; restore without VERSION undoes the last run

When status, sessions or events had to compute its answer, it starts \`navi background\`: a runtime
that answers the next ones quickly and exits after cli.background (30m) without a question, or when
the tray, navi watch or navi serve starts. Off with cli.background: 0, NAVI_BACKGROUND=0, or CI set.

Environment: NAVI_HOME (~/.navi), CLAUDE_CONFIG_DIR (~/.claude), CODEX_HOME (~/.codex)`

/** `navi`, `navi -h`, `navi --help` (no command named): answered from this module alone. */
export function asksForHelp(argv: readonly string[]): boolean {
  const noCommand = argv.every((arg) => arg.startsWith('-'))
  return noCommand && (argv.length === 0 || argv.includes('--help') || argv.includes('-h'))
}
