/**
 * Vitest's global setup: the whole run writes its temp folders under one folder of its own, removed when
 * the run ends. Tests, and the claude, codex, git and navi processes they start, take their temp folders
 * from TMPDIR (`os.tmpdir()`), and many do not remove theirs (a test's `navi` environment, a driver's home):
 * without this, every run left hundreds of folders in /tmp on a shared machine.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export default function setup(): () => void {
  const runDir = mkdtempSync(join(tmpdir(), 'navi-test-run-'))
  // Like /tmp itself: tests that act as another user (git's ownership check) make folders they share.
  chmodSync(runDir, 0o1777)
  const before = process.env.TMPDIR
  // Set before the workers start: they, and every process they spawn, inherit it.
  process.env.TMPDIR = runDir
  return () => {
    if (before === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = before
    rmSync(runDir, { recursive: true, force: true, maxRetries: 3 })
  }
}
