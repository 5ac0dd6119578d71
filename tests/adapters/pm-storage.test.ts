import { mkdir, readdir, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { estimateTokens, isTrimMarker } from '../../electron/pm/core/memory-budget.ts'
import { enforceMemoryBudgets } from '../../electron/pm/enforce-memory-budgets.ts'
import {
  MemoryVersionError,
  listMemoryVersions,
  restoreMemory,
  snapshotMemory,
} from '../../electron/pm/memory-versions.ts'
import { ensurePmLayout, pmLayout, writeSystemPrompt } from '../../electron/pm/storage.ts'
import {
  LONG_TERM_TEMPLATE,
  SHORT_TERM_TEMPLATE,
  outputJsonSchema,
} from '../../electron/pm/templates.ts'
import { useTempPaths } from '../support/temp-paths.ts'

const temp = useTempPaths('navi-pm-storage-')
const layout = () => pmLayout(temp.paths)
const read = (file: string) => readFile(file, 'utf8')
const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  )

/** About `tokens` tokens of ASCII markdown: a title then numbered entries, oldest first. */
function bloated(title: string, tokens: number): string {
  let text = `# ${title}\n`
  for (let i = 1; text.length / 4 < tokens; i++) {
    text += `\n## Entry ${i}\n- observation ${i}: ${'detail '.repeat(20)}\n`
  }
  return text
}

describe('ensurePmLayout', () => {
  it('creates the memory files from templates and writes the prompt and schema', async () => {
    const l = layout()
    const result = await ensurePmLayout(temp.paths)

    expect(result.created).toEqual([l.memoryDir, l.projectsDir, l.shortTerm, l.longTerm])
    expect(result.written).toEqual([l.systemPrompt, l.outputSchema])
    expect(result.recovered).toBeNull()
    expect(await read(l.shortTerm)).toBe(SHORT_TERM_TEMPLATE)
    expect(await read(l.longTerm)).toBe(LONG_TERM_TEMPLATE)
    expect(await readdir(l.projectsDir)).toEqual([])
    const prompt = await read(l.systemPrompt)
    expect(prompt).toContain(`Write and Edit only files inside \`${l.memoryDir}\``)
    expect(prompt).toContain(join(l.memoryDir, 'short-term.md'))
    expect(JSON.parse(await read(l.outputSchema))).toEqual(outputJsonSchema())
    // No temp files left next to the memory files.
    expect((await readdir(l.memoryDir)).sort()).toEqual([
      'long-term.md',
      'projects',
      'short-term.md',
    ])
  })

  it("never overwrites the user's memory files, even an emptied one", async () => {
    const l = layout()
    await ensurePmLayout(temp.paths)
    const edited = '# Short-Term Memory\n\nThe developer prefers one-line briefings.\n'
    await writeFile(l.shortTerm, edited)
    await writeFile(l.longTerm, '')
    await writeFile(join(l.projectsDir, 'apollo.md'), '# apollo\n')

    const second = await ensurePmLayout(temp.paths)

    expect(second.created).toEqual([])
    expect(await read(l.shortTerm)).toBe(edited)
    expect(await read(l.longTerm)).toBe('')
    expect(await read(join(l.projectsDir, 'apollo.md'))).toBe('# apollo\n')
  })

  it('rewrites system-prompt.md and output-schema.json on each start', async () => {
    const l = layout()
    await ensurePmLayout(temp.paths)
    const original = await read(l.systemPrompt)
    await writeFile(l.systemPrompt, 'tampered')
    await writeFile(l.outputSchema, '{}')

    await ensurePmLayout(temp.paths)
    expect(await read(l.systemPrompt)).toBe(original)
    expect(JSON.parse(await read(l.outputSchema))).toEqual(outputJsonSchema())

    await writeSystemPrompt(temp.paths, { notes: ['short-term.md was trimmed last run'] })
    const withNote = await read(l.systemPrompt)
    expect(withNote).toContain('- short-term.md was trimmed last run')
    expect(withNote.startsWith(original.trimEnd())).toBe(true)
  })
})

describe('enforceMemoryBudgets', () => {
  it('trims files bloated to 10× their budget, keeps the original bytes, and says so', async () => {
    const l = layout()
    await ensurePmLayout(temp.paths)
    // A stray 0xff byte: the backup must hold the original bytes, not a UTF-8 re-encoding.
    const shortOriginal = Buffer.concat([
      Buffer.from(bloated('Short-Term Memory', 20_000)),
      Buffer.from([0xff, 0x0a]),
    ])
    const longOriginal = bloated('Long-Term Memory', 30_000)
    const projectOriginal = bloated('apollo', 10_000)
    const small = '# navi\n\nPBI-29 in progress.\n'
    const withinMargin = bloated('mnemos', 1_050) // over 1,000 but within the 10 % margin
    await writeFile(l.shortTerm, shortOriginal)
    await writeFile(l.longTerm, longOriginal)
    await writeFile(join(l.projectsDir, 'apollo.md'), projectOriginal)
    await writeFile(join(l.projectsDir, 'navi.md'), small)
    await writeFile(join(l.projectsDir, 'mnemos.md'), withinMargin)
    await writeFile(join(l.projectsDir, 'notes.txt'), 'x'.repeat(50_000))

    const report = await enforceMemoryBudgets(temp.paths)

    expect(report.errors).toEqual([])
    expect(report.trimmed.map((t) => [t.file, t.budget])).toEqual([
      [l.shortTerm, 2000],
      [l.longTerm, 3000],
      [join(l.projectsDir, 'apollo.md'), 1000],
    ])
    for (const t of report.trimmed) {
      const text = await read(t.file)
      expect(estimateTokens(text)).toBeLessThanOrEqual(t.budget)
      expect(t.tokensAfter).toBe(estimateTokens(text))
      expect(text.split('\n').some(isTrimMarker)).toBe(true)
    }
    expect(report.backup?.reason).toBe('pre-trim')
    expect(await readFile(join(report.backup?.dir ?? '', 'short-term.md'))).toEqual(shortOriginal)
    expect(await read(join(report.backup?.dir ?? '', 'long-term.md'))).toBe(longOriginal)
    expect(await read(join(report.backup?.dir ?? '', 'projects', 'apollo.md'))).toBe(
      projectOriginal,
    )
    // Short-term keeps its beginning; long-term and project files keep their newest entries.
    expect(await read(l.shortTerm)).toContain('## Entry 1\n')
    expect(await read(l.longTerm)).not.toContain('## Entry 1\n')
    // Title, blank, marker, blank, then a tail of the original.
    const keptTail = (await read(l.longTerm)).split('\n').slice(4).join('\n')
    expect(keptTail.length).toBeGreaterThan(8000)
    expect(longOriginal.endsWith(keptTail)).toBe(true)
    expect(await read(join(l.projectsDir, 'navi.md'))).toBe(small)
    expect(await read(join(l.projectsDir, 'mnemos.md'))).toBe(withinMargin)
    expect(await read(join(l.projectsDir, 'notes.txt'))).toHaveLength(50_000)

    expect(report.notes).toHaveLength(3)
    expect(report.notes[0]).toContain(l.shortTerm)
    expect(report.notes[0]).toContain(join(report.backup?.dir ?? '', 'short-term.md'))
    expect(report.notes[2]).toContain(join(report.backup?.dir ?? '', 'projects', 'apollo.md'))
  })

  it('does nothing, and takes no backup, when every file is within budget', async () => {
    await ensurePmLayout(temp.paths)
    const report = await enforceMemoryBudgets(temp.paths)
    expect(report).toEqual({ trimmed: [], notes: [], backup: null, errors: [] })
    expect(await listMemoryVersions(temp.paths)).toEqual([])
  })

  it('a restore after a trim brings the untrimmed memory back', async () => {
    const l = layout()
    await ensurePmLayout(temp.paths)
    const original = bloated('Short-Term Memory', 20_000)
    await writeFile(l.shortTerm, original)
    await enforceMemoryBudgets(temp.paths)
    expect(await read(l.shortTerm)).not.toBe(original)

    await restoreMemory(temp.paths)
    expect(await read(l.shortTerm)).toBe(original)
  })
})

describe('memory versions', () => {
  it('snapshot → change → restore brings back the previous version, and the restore can be undone', async () => {
    const l = layout()
    await ensurePmLayout(temp.paths)
    await writeFile(join(l.projectsDir, 'apollo.md'), '# apollo\n\nv1\n')
    const before = await snapshotMemory(temp.paths, { now: new Date('2025-06-02T12:00:00Z') })
    expect(before?.id).toBe('2025-06-02T12-00-00.000Z_pre-run')

    await writeFile(l.shortTerm, '# Short-Term Memory\n\nA bad run wrote this.\n')
    await writeFile(join(l.projectsDir, 'apollo.md'), '# apollo\n\nv2\n')
    await writeFile(join(l.projectsDir, 'new.md'), '# new\n')

    const result = await restoreMemory(temp.paths)

    expect(result.restored.id).toBe(before?.id)
    expect(await read(l.shortTerm)).toBe(SHORT_TERM_TEMPLATE)
    expect(await read(join(l.projectsDir, 'apollo.md'))).toBe('# apollo\n\nv1\n')
    expect(await exists(join(l.projectsDir, 'new.md'))).toBe(false)
    expect(result.undo?.reason).toBe('pre-restore')
    expect((await readdir(l.pmDir)).filter((n) => n.startsWith('.memory-'))).toEqual([])

    // Restoring the pre-restore snapshot undoes the restore.
    await restoreMemory(temp.paths, { version: result.undo?.id })
    expect(await read(l.shortTerm)).toBe('# Short-Term Memory\n\nA bad run wrote this.\n')
    expect(await read(join(l.projectsDir, 'new.md'))).toBe('# new\n')
  })

  it('restores a chosen older version by id', async () => {
    const l = layout()
    await ensurePmLayout(temp.paths)
    const ids: string[] = []
    for (const n of [1, 2, 3]) {
      await writeFile(l.longTerm, `# Long-Term Memory\n\nversion ${n}\n`)
      ids.push((await snapshotMemory(temp.paths))?.id ?? '')
    }
    await restoreMemory(temp.paths, { version: ids[0] })
    expect(await read(l.longTerm)).toBe('# Long-Term Memory\n\nversion 1\n')
  })

  it('prunes to the newest N, keeping ids in creation order even within one millisecond', async () => {
    const l = layout()
    await ensurePmLayout(temp.paths)
    const now = new Date('2025-06-02T12:00:00Z')
    const ids: string[] = []
    for (const n of [1, 2, 3, 4, 5]) {
      await writeFile(l.shortTerm, `# Short-Term Memory\n\nrun ${n}\n`)
      ids.push((await snapshotMemory(temp.paths, { keep: 3, now }))?.id ?? '')
    }
    const versions = await listMemoryVersions(temp.paths)
    expect(versions.map((v) => v.id)).toEqual(ids.slice(2))
    expect(ids[4]).toBe('2025-06-02T12-00-00.004Z_pre-run')
    expect(await read(join(versions[0]?.dir ?? '', 'short-term.md'))).toContain('run 3')
    expect(await readdir(l.versionsDir)).toHaveLength(3)
  })

  it('ignores stray entries and skips symlinks when copying', async () => {
    const l = layout()
    await ensurePmLayout(temp.paths)
    const outside = join(temp.root, 'secret.txt')
    await writeFile(outside, 'not memory')
    await symlink(outside, join(l.memoryDir, 'link.md'))
    await mkdir(join(l.versionsDir, 'not-a-version'), { recursive: true })
    await writeFile(join(l.versionsDir, 'README'), 'hi')

    const version = await snapshotMemory(temp.paths)

    expect((await listMemoryVersions(temp.paths)).map((v) => v.id)).toEqual([version?.id])
    expect((await readdir(version?.dir ?? '')).sort()).toEqual([
      'long-term.md',
      'projects',
      'short-term.md',
    ])
  })

  it('refuses an unknown version and an empty history without touching memory', async () => {
    const l = layout()
    await ensurePmLayout(temp.paths)
    await expect(restoreMemory(temp.paths)).rejects.toThrow(MemoryVersionError)
    await snapshotMemory(temp.paths)
    await expect(restoreMemory(temp.paths, { version: 'nope' })).rejects.toThrow(
      'no memory version nope',
    )
    expect(await read(l.shortTerm)).toBe(SHORT_TERM_TEMPLATE)
    expect(await listMemoryVersions(temp.paths)).toHaveLength(1)
  })

  it('returns null when there is no memory dir to snapshot', async () => {
    expect(await snapshotMemory(temp.paths)).toBeNull()
  })

  it('puts the memory back when a restore was interrupted between its two renames', async () => {
    const l = layout()
    await ensurePmLayout(temp.paths)
    await writeFile(l.shortTerm, '# Short-Term Memory\n\nuser notes\n')
    await rename(l.memoryDir, join(l.pmDir, '.memory-old-abc123'))
    await mkdir(join(l.pmDir, '.memory-restore-abc123'))

    const result = await ensurePmLayout(temp.paths)

    expect(result.recovered).toBe(join(l.pmDir, '.memory-old-abc123'))
    expect(result.created).toEqual([])
    expect(await read(l.shortTerm)).toBe('# Short-Term Memory\n\nuser notes\n')
    expect((await readdir(l.pmDir)).filter((n) => n.startsWith('.memory-'))).toEqual([])
  })
})
