#!/usr/bin/env node
// The compatibility matrix: the integration suite against the oldest Claude Code Navi supports and the
// pinned (newest) one. CI runs the newest only (`npm test`); this runs both and prints a table.
//
//   npm run test:compat                 # oldest + pinned
//   npm run test:compat -- 2.1.250      # other versions too
//
// Each other version is installed once into .cache/compat/claude-<version> (npm, no global install) and
// run through NAVI_TEST_CLAUDE_BIN, which tests/support/claude-env.ts honours. Results:
// test-results/compat-<version>.json (vitest's JSON) and test-results/compat.json (the table).
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
/** The oldest release Navi is tested against, from shared/tested-cli-versions.ts (the one place it lives). */
const CLAUDE_OLDEST_SUPPORTED = /claude: \{ oldest: '([\d.]+)'/.exec(
  readFileSync(join(root, 'shared/tested-cli-versions.ts'), 'utf8'),
)?.[1]
if (!CLAUDE_OLDEST_SUPPORTED) throw new Error('no claude.oldest in shared/tested-cli-versions.ts')
const pinned = JSON.parse(
  readFileSync(join(root, 'node_modules/@anthropic-ai/claude-code/package.json'), 'utf8'),
).version
const versions = [...new Set([CLAUDE_OLDEST_SUPPORTED, ...process.argv.slice(2), pinned])]
const env = { ...process.env, DISABLE_AUTOUPDATER: '1' }

function binaryFor(version) {
  if (version === pinned) return join(root, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe')
  const prefix = join(root, '.cache/compat', `claude-${version}`)
  const bin = join(prefix, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe')
  if (!existsSync(bin)) {
    mkdirSync(prefix, { recursive: true })
    console.log(`installing @anthropic-ai/claude-code@${version} into ${prefix}`)
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-audit',
        '--no-fund',
        `@anthropic-ai/claude-code@${version}`,
      ],
      { stdio: 'inherit', env },
    )
  }
  return bin
}

const rows = []
for (const version of versions) {
  const bin = binaryFor(version)
  const out = join(root, 'test-results', `compat-${version}.json`)
  const started = Date.now()
  spawnSync(
    'npx',
    [
      'vitest',
      'run',
      'tests/integration',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
    ],
    { stdio: 'inherit', env: { ...env, NAVI_TEST_CLAUDE_BIN: bin }, cwd: root },
  )
  const report = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : null
  rows.push({
    version,
    passed: report?.numPassedTests ?? 0,
    failed: report?.numFailedTests ?? -1,
    skipped: report?.numPendingTests ?? 0,
    seconds: Math.round((Date.now() - started) / 1000),
  })
}
writeFileSync(join(root, 'test-results', 'compat.json'), `${JSON.stringify(rows, null, 2)}\n`)
console.log('\nclaude     passed failed skipped  seconds')
for (const r of rows) {
  console.log(
    `${r.version.padEnd(10)} ${String(r.passed).padStart(6)} ${String(r.failed).padStart(6)} ${String(r.skipped).padStart(7)} ${String(r.seconds).padStart(8)}`,
  )
}
process.exit(rows.every((r) => r.failed === 0) ? 0 : 1)
