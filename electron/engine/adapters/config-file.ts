import { readFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { defaultConfig, parseConfig, type ConfigError } from '../core/config.ts'
import { naviFiles, type EnginePaths } from '../core/paths.ts'
import type { NaviConfig } from '../../../shared/schemas/config.ts'

export interface LoadedConfig {
  config: NaviConfig
  errors: ConfigError[]
  /** False when there is no `config.yaml`: the defaults apply and that is not an error. */
  exists: boolean
}

/**
 * Read `$NAVI_HOME/config.yaml`. Only ever reads: the user's file is never created, fixed or rewritten.
 * A missing file gives the defaults; an unreadable or invalid one gives the defaults plus errors.
 */
export async function loadConfig(paths: EnginePaths, home = homedir()): Promise<LoadedConfig> {
  const file = naviFiles(paths).config
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return { config: defaultConfig(), errors: [], exists: false }
    const reason = err instanceof Error ? err.message : String(err)
    return {
      config: defaultConfig(),
      errors: [{ file, line: 0, message: `cannot read the file: ${reason}` }],
      exists: true,
    }
  }
  return { ...parseConfig(text, file, home), exists: true }
}
