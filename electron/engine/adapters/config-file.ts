import { homedir } from 'node:os'
import { defaultConfig, type ConfigError, type ParsedConfig } from '../core/config.ts'
import { naviFiles, type EnginePaths } from '../core/paths.ts'
import { applySettingsOverrides } from '../core/settings-overlay.ts'
import type { NaviConfig } from '../../../shared/schemas/config.ts'
import { readSettingsOverrides } from './navi-settings.ts'
import { readRegularText, SMALL_FILE_MAX_BYTES } from './safe-read.ts'

export interface LoadedConfig {
  config: NaviConfig
  errors: ConfigError[]
  /** False when there is no `config.yaml`: the defaults apply and that is not an error. */
  exists: boolean
}

/**
 * Read `$NAVI_HOME/config.yaml`, then apply the app's overrides from `settings.json` (poll interval, PM
 * batch window, model, claude path), which win for the keys they set. Only ever reads: neither file is
 * created, fixed or rewritten. A missing file gives the defaults; an unreadable or invalid one gives the
 * defaults plus errors. A bad settings.json only adds errors naming it; config.yaml still applies.
 */
export async function loadConfig(paths: EnginePaths, home = homedir()): Promise<LoadedConfig> {
  const [yaml, settings] = await Promise.all([
    loadConfigYaml(paths, home),
    readSettingsOverrides(paths),
  ])
  return {
    config: applySettingsOverrides(yaml.config, settings.overrides, home),
    errors: [...yaml.errors, ...settings.errors],
    exists: yaml.exists,
  }
}

async function loadConfigYaml(
  paths: EnginePaths,
  home: string,
): Promise<ParsedConfig & { exists: boolean }> {
  const file = naviFiles(paths).config
  let text: string
  try {
    text = await readRegularText(file, { maxBytes: SMALL_FILE_MAX_BYTES })
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
  return { ...(await parseOnce(text, file, home)), exists: true }
}

/**
 * The last parse, by its input: every cycle reads config.yaml (a change needs no watcher to be seen), but
 * parsing YAML was a good part of an idle poll; the same text parses to the same result. A copy is handed
 * out, so no caller can change what the next one gets.
 */
let lastParse: { text: string; file: string; home: string; parsed: ParsedConfig } | null = null

async function parseOnce(text: string, file: string, home: string): Promise<ParsedConfig> {
  if (lastParse?.text !== text || lastParse.file !== file || lastParse.home !== home) {
    // The YAML reader is loaded only when there is a file to read.
    const { parseConfig } = await import('../core/config-yaml.ts')
    lastParse = { text, file, home, parsed: parseConfig(text, file, home) }
  }
  return structuredClone(lastParse.parsed)
}
