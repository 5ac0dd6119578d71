/**
 * The healthy project every bad-input case keeps beside its bad input: a real git repository with a
 * commit, and the transcript the real `claude` CLI wrote for a one-turn session in it (scripted API on
 * loopback). Made once per run; each case copies the transcript.
 */
import { rm } from 'node:fs/promises'
import {
  createClaudeEnv,
  disposeClaudeEnv,
  runClaudePrint,
  transcriptPath,
} from '../claude-driver.ts'
import { createRepoFixture } from '../repo-fixture.ts'
import { startScriptedApi, text } from '../scripted-api.ts'
import type { HealthyBase } from './context.ts'

export async function createHealthyBase(): Promise<HealthyBase & { dispose(): Promise<void> }> {
  const repo = await createRepoFixture({ prefix: 'navi-healthy-' })
  const headSha = await repo.commit('healthy work', { 'src/app.ts': 'export {}\n' })
  const api = await startScriptedApi()
  const env = await createClaudeEnv({ apiUrl: api.url, trustedDirs: [repo.dir] })
  try {
    api.enqueue(text('All good.'))
    const run = await runClaudePrint({
      cwd: repo.dir,
      env,
      prompt: 'say something healthy',
      args: ['--output-format', 'json'],
      timeoutMs: 90_000,
    })
    if (run.exitCode !== 0) throw new Error(`claude -p failed: ${run.stderr}`)
    const sessionId = (run.json as { session_id: string }).session_id
    return {
      repoDir: repo.dir,
      headSha,
      sessionId,
      transcript: transcriptPath(env.CLAUDE_CONFIG_DIR, repo.dir, sessionId),
      async dispose() {
        await disposeClaudeEnv(env)
        await repo.cleanup()
        await rm(env.CLAUDE_CONFIG_DIR, { recursive: true, force: true })
      },
    }
  } finally {
    await api.close()
  }
}
