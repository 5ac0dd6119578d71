/**
 * Pure half of PATH fixing. An app started from Finder, the Dock or a desktop launcher inherits a minimal PATH
 * (`/usr/bin:/bin…`) without Homebrew, npm or bun, so `claude`, `git`, `tmux` and `gh` go missing; the login
 * shell knows the user's real PATH.
 */

const BEGIN = '__NAVI_PATH_BEGIN__'
const END = '__NAVI_PATH_END__'

/**
 * The shell command that prints `$PATH` between the markers. Each marker is printed in two pieces, so a shell
 * that echoes the command it runs never shows a complete marker.
 */
export const LOGIN_SHELL_PATH_SCRIPT = `printf '%s%s%s%s%s' '${BEGIN.slice(0, 9)}' '${BEGIN.slice(9)}' "$PATH" '${END.slice(0, 9)}' '${END.slice(9)}'`

/**
 * The PATH from the output of `LOGIN_SHELL_PATH_SCRIPT`: whatever rc files, banners and motd print around it
 * is ignored. null when the markers are missing or enclose nothing.
 */
export function parseLoginShellPath(output: string): string | null {
  const end = output.lastIndexOf(END)
  if (end < 0) return null
  const begin = output.lastIndexOf(BEGIN, end)
  if (begin < 0) return null
  const path = output.slice(begin + BEGIN.length, end).trim()
  return path === '' || /[\r\n\0]/.test(path) ? null : path
}

/** Where package managers put binaries that a login shell may still not list (`~` is the user's home). */
export const DEFAULT_PATH_EXTRAS: readonly string[] = [
  '/opt/homebrew/bin',
  '/usr/local/bin',
  '~/.local/bin',
  '~/.npm-global/bin',
  '~/.bun/bin',
  '~/.volta/bin',
]

/** Replaces a leading `~` (alone or before `/`) with `home`. */
export function expandTilde(dir: string, home: string): string {
  if (home === '') return dir
  const base = home.replace(/\/+$/, '') || '/'
  if (dir === '~') return base
  return dir.startsWith('~/') ? `${base === '/' ? '' : base}/${dir.slice(2)}` : dir
}

/**
 * One PATH: the login shell's entries first, then the current ones, then `extras` (`~` expanded against
 * `home`). Empty entries are dropped; a directory listed twice (`/a` and `/a/` count as one) keeps its first
 * place.
 */
export function mergePath(
  current: string | undefined,
  fromShell: string | null,
  extras: readonly string[],
  delimiter: string,
  home: string,
): string {
  const seen = new Set<string>()
  const merged: string[] = []
  const entries = [
    ...(fromShell ?? '').split(delimiter),
    ...(current ?? '').split(delimiter),
    // Without a home, a `~` entry would reach PATH literally.
    ...extras.map((dir) => expandTilde(dir, home)).filter((dir) => !dir.startsWith('~')),
  ]
  for (const raw of entries) {
    const dir = raw.trim()
    if (dir === '') continue
    const key = dir.length > 1 ? dir.replace(/[\\/]+$/, '') : dir
    if (seen.has(key)) continue
    seen.add(key)
    merged.push(dir)
  }
  return merged.join(delimiter)
}
