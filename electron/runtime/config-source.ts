/**
 * The one place a running Navi reads its configuration: `config.yaml` with the Settings overrides from
 * `settings.json` applied (adapters/config-file.ts). It re-reads when the settings store says Settings
 * changed and, with `watch`, when `config.yaml` is edited, and tells its listeners when the result differs.
 */
import pLimit from 'p-limit'
import { isDeepStrictEqual } from 'node:util'
import type { NaviConfig } from '../../shared/schemas/config.ts'
import { createDirWatchers, type DirWatchers } from '../engine/adapters/dir-watcher.ts'
import { loadConfig, type LoadedConfig } from '../engine/adapters/config-file.ts'
import { naviFiles, type EnginePaths } from '../engine/core/paths.ts'
import { basename } from 'node:path'
import type { SettingsStore } from './settings-store.ts'

const SETTLE_MS = 50

export interface ConfigSource {
  /** The configuration as last read. */
  get(): LoadedConfig
  /** Reads both files again now; listeners hear it if the configuration changed. */
  reload(): Promise<LoadedConfig>
  /** Returns the unsubscribe function. */
  onChange(listener: (config: NaviConfig) => void): () => void
  dispose(): void
}

export interface ConfigSourceOptions {
  paths: EnginePaths
  settings: SettingsStore
  /** Watch `config.yaml` for edits. @default false */
  watch?: boolean
  /** Told when a re-read failed (the last configuration stays), a listener threw, or the watch failed. */
  onError?: (message: string) => void
}

export async function createConfigSource(opts: ConfigSourceOptions): Promise<ConfigSource> {
  let current = await loadConfig(opts.paths)
  const listeners = new Set<(config: NaviConfig) => void>()
  let settle: NodeJS.Timeout | null = null
  let watchers: DirWatchers | null = null
  let disposed = false
  // One read at a time, each after the one before, so an older read never lands last.
  const queue = pLimit(1)

  const reload = (): Promise<LoadedConfig> =>
    queue(async () => {
      const loaded = await loadConfig(opts.paths)
      const changed = !isDeepStrictEqual(loaded.config, current.config)
      current = loaded
      if (changed && !disposed) {
        for (const listener of [...listeners]) {
          try {
            listener(loaded.config)
          } catch (error) {
            opts.onError?.(`a configuration listener failed: ${String(error)}`)
          }
        }
      }
      return loaded
    })
  const reloadSoon = () => {
    if (settle) clearTimeout(settle)
    settle = setTimeout(() => {
      settle = null
      reload().catch((error: unknown) =>
        opts.onError?.(`reading the configuration: ${String(error)}`),
      )
    }, SETTLE_MS)
  }

  const offSettings = opts.settings.onChange(reloadSoon)
  if (opts.watch) {
    const yaml = basename(naviFiles(opts.paths).config)
    watchers = createDirWatchers(
      [{ path: opts.paths.naviHome, recursive: false }],
      (_dir, name) => {
        if (name === null || name === yaml) reloadSoon()
      },
      opts.onError,
    )
    watchers.ensure()
  }

  return {
    get: () => current,
    reload,
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    dispose() {
      disposed = true
      offSettings()
      if (settle) clearTimeout(settle)
      watchers?.close()
      listeners.clear()
    },
  }
}
