#!/usr/bin/env node
/**
 * Electronegativity over the Electron sources and the built renderer; fails on any finding that
 * `security/electronegativity-allow.json` does not list with a reason.
 *
 *   npx electron-vite build && node scripts/security-scan.mjs
 *
 * Why sources and not `out/main`: the bundle holds modern class syntax (private fields, from zod) that
 * the tool's parser rejects ("Unknown node type ClassPrivateProperty"), after which its global checks
 * report navigation limits and permission handlers as missing although the code sets them.
 * `out/renderer` is scanned for the built page's CSP.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const allowFile = join(root, 'security', 'electronegativity-allow.json')
const rendererDir = join(root, 'out', 'renderer')
const PINNED = '@doyensec/electronegativity@1.10.3'

if (!existsSync(join(rendererDir, 'index.html'))) {
  console.error('security-scan: out/renderer is missing; run `npx electron-vite build` first')
  process.exit(2)
}

const allow = JSON.parse(readFileSync(allowFile, 'utf8'))
const unexplained = allow.filter((entry) => !entry.check || !entry.file || !entry.reason?.trim())
if (unexplained.length > 0) {
  console.error('security-scan: every allow-list entry needs check, file and reason:', unexplained)
  process.exit(2)
}

const staging = mkdtempSync(join(tmpdir(), 'navi-eneg-'))
const report = join(staging, 'report.sarif')
// `process.exit` skips a `finally`: every exit below goes through here, so the staging copy never stays.
const finish = (code) => {
  rmSync(staging, { recursive: true, force: true })
  process.exit(code)
}
try {
  cpSync(join(root, 'electron'), join(staging, 'electron'), { recursive: true })
  cpSync(rendererDir, join(staging, 'renderer'), { recursive: true })
  const electronVersion = JSON.parse(
    readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8'),
  ).version
  const installed = join(root, 'node_modules', '.bin', 'electronegativity')
  if (!existsSync(installed)) {
    console.error(`security-scan: ${PINNED} is not installed; run npm install`)
    finish(2)
  }
  const args = ['-i', staging, '-r', '-e', electronVersion, '-o', report]
  const run = spawnSync(installed, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  if (run.status !== 0 || !existsSync(report)) {
    console.error(run.stdout, run.stderr)
    console.error(`security-scan: electronegativity failed (exit ${run.status})`)
    finish(2)
  }
  const parseErrors = `${run.stdout}\n${run.stderr}`.match(/^Error parsing .*$/gm) ?? []
  for (const line of parseErrors) console.warn(`security-scan: ${line.replace(staging, '')}`)

  const findings = JSON.parse(readFileSync(report, 'utf8')).runs[0].results.map((result) => ({
    check: result.ruleId,
    file: result.locations?.[0]?.physicalLocation?.artifactLocation?.uri ?? 'N/A',
    line: result.locations?.[0]?.physicalLocation?.region?.startLine ?? 0,
    message: result.message?.text ?? '',
  }))
  const matches = (entry, finding) =>
    entry.check === finding.check &&
    entry.file === finding.file &&
    (!entry.message || finding.message.includes(entry.message))
  const failing = findings.filter((finding) => !allow.some((entry) => matches(entry, finding)))
  const unused = allow.filter((entry) => !findings.some((finding) => matches(entry, finding)))

  for (const entry of unused)
    console.warn(`security-scan: allow-list entry no longer needed: ${entry.check} ${entry.file}`)
  console.log(
    `security-scan: ${findings.length} finding(s), ${findings.length - failing.length} allowed`,
  )
  for (const f of failing) console.error(`  ${f.check} ${f.file}:${f.line} — ${f.message}`)
  finish(failing.length > 0 || parseErrors.length > 0 ? 1 : 0)
} catch (error) {
  console.error('security-scan:', error)
  finish(2)
}
