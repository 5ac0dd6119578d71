#!/usr/bin/env node
// The compatibility matrix: the integration suite against the oldest Claude Code Navi supports and the
// pinned (newest) one, and the Codex tests against the oldest Codex it supports (the pinned Codex runs in
// the pinned row). CI runs the pinned CLIs only (`npm test`); this runs the matrix and prints a table.
//
//   npm run test:compat                          # the matrix
//   npm run test:compat -- claude@2.1.250        # other releases too (claude@… or codex@…)
//
// Each other release is installed once into .cache/compat/<cli>-<version> (npm, no global install) and run
// through NAVI_TEST_CLAUDE_BIN / NAVI_TEST_CODEX_BIN, which tests/support honours. Results:
// test-results/compat-<cli>-<version>.json (vitest's JSON) and test-results/compat.json (the table).
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const env = { ...process.env, DISABLE_AUTOUPDATER: '1' }

const CLIS = {
  claude: {
    pkg: '@anthropic-ai/claude-code',
    bin: 'node_modules/@anthropic-ai/claude-code/bin/claude.exe',
    envVar: 'NAVI_TEST_CLAUDE_BIN',
    tests: ['tests/integration'],
  },
  codex: {
    pkg: '@openai/codex',
    bin: 'node_modules/.bin/codex',
    envVar: 'NAVI_TEST_CODEX_BIN',
    tests: [
      'tests/integration/codex-format-probe.test.ts',
      'tests/integration/codex-session.test.ts',
    ],
  },
}

/** The oldest release of each CLI, from shared/tested-cli-versions.ts (the one place it lives). */
function oldestSupported(cli) {
  const source = readFileSync(join(root, 'shared/tested-cli-versions.ts'), 'utf8')
  const version = new RegExp(`${cli}: \\{ oldest: '([\\d.]+)'`).exec(source)?.[1]
  if (!version) throw new Error(`no ${cli}.oldest in shared/tested-cli-versions.ts`)
  return version
}

const pinned = (cli) =>
  JSON.parse(readFileSync(join(root, 'node_modules', CLIS[cli].pkg, 'package.json'), 'utf8'))
    .version

function binaryFor(cli, version) {
  if (version === pinned(cli)) return join(root, CLIS[cli].bin)
  const prefix = join(root, '.cache/compat', `${cli}-${version}`)
  const bin = join(prefix, CLIS[cli].bin)
  if (!existsSync(bin)) {
    mkdirSync(prefix, { recursive: true })
    console.log(`installing ${CLIS[cli].pkg}@${version} into ${prefix}`)
    const args = ['install', '--prefix', prefix, '--no-audit', '--no-fund']
    execFileSync('npm', [...args, `${CLIS[cli].pkg}@${version}`], { stdio: 'inherit', env })
  }
  return bin
}

const extra = process.argv.slice(2).map((arg) => {
  const [cli, version] = arg.split('@')
  if (!(cli in CLIS) || !version)
    throw new Error(`expected claude@<version> or codex@<version>: ${arg}`)
  return { cli, version }
})
const matrix = [
  { cli: 'claude', version: oldestSupported('claude') },
  ...extra,
  { cli: 'claude', version: pinned('claude') },
]
if (oldestSupported('codex') !== pinned('codex')) {
  matrix.push({ cli: 'codex', version: oldestSupported('codex') })
}
const seen = new Set()
const rows = []
for (const { cli, version } of matrix) {
  if (seen.has(`${cli}@${version}`)) continue
  seen.add(`${cli}@${version}`)
  const out = join(root, 'test-results', `compat-${cli}-${version}.json`)
  const started = Date.now()
  const args = ['vitest', 'run', ...CLIS[cli].tests, '--reporter=default', '--reporter=json']
  spawnSync('npx', [...args, `--outputFile.json=${out}`], {
    stdio: 'inherit',
    env: { ...env, [CLIS[cli].envVar]: binaryFor(cli, version) },
    cwd: root,
  })
  const report = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : null
  rows.push({
    cli,
    version,
    suite: CLIS[cli].tests.length === 1 ? 'integration' : 'codex tests',
    passed: report?.numPassedTests ?? 0,
    failed: report?.numFailedTests ?? -1,
    skipped: report?.numPendingTests ?? 0,
    seconds: Math.round((Date.now() - started) / 1000),
  })
}
writeFileSync(join(root, 'test-results', 'compat.json'), `${JSON.stringify(rows, null, 2)}\n`)
console.log('\ncli     version    suite         passed failed skipped  seconds')
for (const r of rows) {
  console.log(
    `${r.cli.padEnd(7)} ${r.version.padEnd(10)} ${r.suite.padEnd(12)} ${String(r.passed).padStart(6)} ${String(r.failed).padStart(6)} ${String(r.skipped).padStart(7)} ${String(r.seconds).padStart(8)}`,
  )
}
process.exit(rows.every((r) => r.failed === 0) ? 0 : 1)
