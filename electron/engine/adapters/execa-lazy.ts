/**
 * execa, imported on first use. It and its dependencies are a good part of the CLI's start-up, and most
 * commands never start a process (`navi status` on a machine with no tmux session, no live agent, no
 * repository); the ones that do pay the import once.
 */
type ExecaModule = typeof import('execa')

let loading: Promise<ExecaModule> | null = null

export function loadExeca(): Promise<ExecaModule> {
  loading ??= import('execa')
  return loading
}
