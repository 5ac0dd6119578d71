/**
 * What a test of the PM through the `navi` CLI needs: the scripted API, a git repository, a claude config
 * trusting it, and a Navi environment that runs the real claude against that API. `dispose` removes it all.
 */
import { rm } from 'node:fs/promises'
import { claudeBinary, createClaudeEnv, disposeClaudeEnv } from './claude-driver.ts'
import { createNaviEnv, type NaviEnv } from './navi-cli.ts'
import { createRepoFixture, type RepoFixture } from './repo-fixture.ts'
import { startScriptedApi, type ScriptedApi } from './scripted-api.ts'

export interface PmWorld {
  api: ScriptedApi
  env: NaviEnv
  repo: RepoFixture
  dispose(): Promise<void>
}

export async function startPmWorld(prefix: string): Promise<PmWorld> {
  const api = await startScriptedApi()
  const repo = await createRepoFixture({ prefix })
  const claudeEnv = await createClaudeEnv({ apiUrl: api.url, trustedDirs: [repo.dir] })
  const env = await createNaviEnv({ ...claudeEnv, NAVI_CLAUDE_BIN: claudeBinary() })
  return {
    api,
    env,
    repo,
    async dispose() {
      await api.close()
      await disposeClaudeEnv(claudeEnv)
      await repo.cleanup()
      await rm(env.NAVI_HOME, { recursive: true, force: true })
    },
  }
}
