/**
 * The agent CLI releases Navi's test suite runs against: the newest is the pinned dev dependency (CI runs
 * it), the oldest is what `npm run test:compat` installs (scripts/test-compat.mjs reads `oldest` from
 * this file). `navi doctor` tells a user whose CLI is outside this range.
 */
export const TESTED_CLI_VERSIONS = {
  claude: { oldest: '2.1.197', newest: '2.1.332' },
  codex: { oldest: '0.140.0', newest: '0.171.0' },
} as const

export type TestedCli = keyof typeof TESTED_CLI_VERSIONS

/** -1, 0 or 1 comparing dotted numeric versions (`2.1.197` < `2.1.330`); a missing part counts as 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((n) => Number.parseInt(n, 10) || 0)
  const pb = b.split('.').map((n) => Number.parseInt(n, 10) || 0)
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0)
    if (d !== 0) return d < 0 ? -1 : 1
  }
  return 0
}

/** `2.1.330` out of a `--version` line such as `2.1.330 (Claude Code)` or `codex-cli 0.169.0`. */
export function versionIn(text: string): string | null {
  return /(\d+\.\d+\.\d+)/.exec(text)?.[1] ?? null
}

/** How a CLI's version stands against the tested range, in words for `navi doctor`. */
export function testedRangeNote(cli: TestedCli, versionLine: string): string {
  const range = TESTED_CLI_VERSIONS[cli]
  const version = versionIn(versionLine)
  const tested = `tested ${range.oldest}–${range.newest}`
  if (version === null) return `version unknown (${tested})`
  if (compareVersions(version, range.oldest) < 0) {
    return `${version}: older than tested (${tested}); update it`
  }
  if (compareVersions(version, range.newest) > 0) {
    return `${version}: newer than tested (${tested}); if a status looks wrong, update Navi`
  }
  return `${version} (${tested})`
}
