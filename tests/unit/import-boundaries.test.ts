/**
 * The import boundaries of eslint.config.mjs bite: a forbidden import planted in each folder is an error
 * (and `npm run lint`, which CI runs, passes on the tree, so the tree has none).
 */
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const eslint = new ESLint({ cwd: root })

/** The `no-restricted-imports` messages ESLint gives `code` as if it were the file at `path`. */
async function boundaryErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nvoid imported\n`, { filePath: `${root}${path}` })
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message)
}

const planted: [string, string, RegExp][] = [
  ['electron/engine/core/planted.ts', "import imported from '../adapters/git.ts'", /pure/],
  ['electron/engine/core/planted.ts', "import imported from 'electron'", /pure/],
  [
    'electron/engine/adapters/planted.ts',
    "import imported from '../../pm/index.ts'",
    /only watches/,
  ],
  ['electron/pm/core/planted.ts', "import imported from '../invoke.ts'", /shell/],
  ['electron/pm/planted.ts', "import imported from '../runtime/index.ts'", /consumes the engine/],
  ['electron/runtime/planted.ts', "import imported from '../main/app.ts'", /composes/],
  ['electron/cli/planted.ts', "import imported from '../engine/index.ts'", /through the runtime/],
  ['electron/main/planted.ts', "import imported from '../pm/index.ts'", /through the runtime/],
  ['shared/planted.ts', "import imported from 'node:fs'", /no node/],
  ['renderer/src/planted.ts', "import imported from '../../electron/engine/index.ts'", /sandboxed/],
]

const allowed: [string, string][] = [
  ['electron/cli/planted.ts', "import imported from '../runtime/index.ts'"],
  ['electron/main/planted.ts', "import imported from 'electron'"],
  ['electron/pm/core/planted.ts', "import imported from '../../../shared/duration.ts'"],
  ['electron/pm/planted.ts', "import imported from '../engine/index.ts'"],
  ['electron/runtime/planted.ts', "import imported from '../pm/index.ts'"],
  ['renderer/src/planted.ts', "import imported from '../../shared/text.ts'"],
]

describe('import boundaries (eslint.config.mjs)', () => {
  it.each(planted)('%s: `%s` is refused', async (path, code, why) => {
    const errors = await boundaryErrors(path, code)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(why)
  })

  it.each(allowed)('%s: `%s` is allowed', async (path, code) => {
    expect(await boundaryErrors(path, code)).toEqual([])
  })
})
