/**
 * Asks the user's login shell for its PATH, for an app started outside a terminal. The caller assigns the
 * result to `process.env.PATH` before anything looks for `claude`, `git`, `tmux` or `gh`.
 */
import { execa } from 'execa'
import {
  LOGIN_SHELL_PATH_SCRIPT,
  DEFAULT_PATH_EXTRAS,
  mergePath,
  parseLoginShellPath,
} from './fix-path-core.ts'

export interface FixPathOptions {
  env: NodeJS.ProcessEnv
  platform: NodeJS.Platform
  home: string
  /** How long the login shell may take; slow rc files must not hold up the app. @default 3000 */
  timeoutMs?: number
}

/**
 * The PATH to use: the login shell's, then the current one, then the usual install places. On Windows, or
 * if the shell fails, the current PATH (plus the install places outside Windows). Never throws.
 */
export async function fixPath({
  env,
  platform,
  home,
  timeoutMs = 3_000,
}: FixPathOptions): Promise<string | undefined> {
  if (platform === 'win32') return env.PATH
  const shell = env.SHELL || (platform === 'darwin' ? '/bin/zsh' : '/bin/sh')
  const fromShell = await readLoginShellPath(shell, env, timeoutMs)
  return mergePath(env.PATH, fromShell, DEFAULT_PATH_EXTRAS, ':', home)
}

async function readLoginShellPath(
  shell: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<string | null> {
  try {
    const subprocess = execa(shell, ['-ilc', LOGIN_SHELL_PATH_SCRIPT], {
      env: {
        ...env,
        // oh-my-zsh: no update prompt and no tmux auto-start inside this throwaway shell.
        DISABLE_AUTO_UPDATE: 'true',
        ZSH_TMUX_AUTOSTART: 'false',
      },
      extendEnv: false,
      stdin: 'ignore',
      timeout: timeoutMs,
      reject: false,
    })
    // execa's timeout kills the shell, but a background process an rc file started can keep stdout open
    // and the result pending; the app does not wait for it.
    let timer: ReturnType<typeof setTimeout> | undefined
    const giveUp = new Promise<null>((resolve) => {
      timer = setTimeout(() => {
        subprocess.kill('SIGKILL')
        resolve(null)
      }, timeoutMs + 250)
    })
    const read = subprocess.then((result) => parseLoginShellPath(String(result.stdout ?? '')))
    const path = await Promise.race([read, giveUp])
    clearTimeout(timer)
    return path
  } catch {
    return null
  }
}
