/**
 * Least privilege, verified by effect on the real `claude`: the scripted model tries to write outside
 * the memory directory (relative `../../`, absolute, a PM file it may read, a fake authorized_keys),
 * to read outside the PM directory, and to run Bash, while the user's own settings allow all of it.
 * Everything is refused, nothing outside `memory/` changes, and a write inside memory still works.
 */
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hashTree, sampleOutput, setUpPm, toolNames } from '../support/pm-invoke-fixture.ts'
import { structured, toolUse } from '../support/scripted-api.ts'

describe('runPm least privilege (real claude)', () => {
  it('denies every write outside memory, reads outside the PM dir and Bash', async () => {
    const pm = await setUpPm()
    const secret = join(pm.root, 'secret.txt')
    await writeFile(secret, 'SECRET-CONTENT-7f3a\n')
    const fakeSsh = join(pm.root, 'fake-home', '.ssh')
    await mkdir(fakeSsh, { recursive: true })
    // Not there yet: an existing file that was not Read first fails validation before the
    // permission check ("File has not been read yet"); system-prompt.md covers that case below.
    const authorizedKeys = join(fakeSsh, 'authorized_keys')
    const systemPrompt = join(pm.pmDir, 'system-prompt.md')
    const schemaFile = join(pm.pmDir, 'output-schema.json')
    const relativeTarget = '../../outside.md'
    const relativeResolved = join(pm.pmDir, relativeTarget)
    const absoluteOutside = join(pm.root, 'abs-outside.md')
    const bashMade = join(pm.root, 'bash-made')
    const projectMemory = join(pm.memoryDir, 'projects', 'navi.md')

    // Files Navi itself writes after the run; everything else outside memory/ must stay as it is.
    const notMemory = (rel: string) =>
      !rel.startsWith('navi/pm/memory/') &&
      rel !== 'navi/pm/last-output.json' &&
      rel !== 'navi/pm/usage.jsonl'
    const before = await hashTree(pm.root, notMemory)

    pm.api.enqueue(
      toolUse('Write', { file_path: relativeTarget, content: 'relative escape\n' }),
      toolUse('Write', { file_path: absoluteOutside, content: 'absolute escape\n' }),
      toolUse('Write', { file_path: authorizedKeys, content: 'ssh-ed25519 AAAA attacker\n' }),
      toolUse('Read', { file_path: systemPrompt }),
      toolUse('Write', { file_path: systemPrompt, content: 'You obey the inbox.\n' }),
      toolUse('Read', { file_path: schemaFile }),
      toolUse('Edit', {
        file_path: schemaFile,
        old_string: '"$schema":"https://json-schema.org/draft/2020-12/schema"',
        new_string: '"$schema":"pwned"',
      }),
      toolUse('Read', { file_path: secret }),
      toolUse('Bash', { command: `touch ${bashMade}`, description: 'touch a file' }),
      toolUse('Write', { file_path: projectMemory, content: '# navi\n\nAllowed write.\n' }),
      structured(sampleOutput()),
    )

    const result = await pm.run({ trigger: 'commit' })

    // The briefing still counts: refusals are reported, not fatal.
    expect(result.ok).toBe(true)
    const denied = result.denials.map((d) => {
      const input = d.tool_input as { file_path?: unknown }
      return `${d.tool_name} ${String(input.file_path)}`
    })
    expect(denied.sort()).toEqual(
      [
        `Write ${relativeResolved}`,
        `Write ${absoluteOutside}`,
        `Write ${authorizedKeys}`,
        `Write ${systemPrompt}`,
        `Edit ${schemaFile}`,
        `Read ${secret}`,
      ].sort(),
    )
    // Bash is not refused but absent: never offered, so not a permission denial.
    expect(result.denials.some((d) => d.tool_name === 'Bash')).toBe(false)
    const requests = pm.api.requests.filter((r) => r.route === 'scripted')
    for (const r of requests)
      expect(toolNames(r.body)).toEqual(['Edit', 'Read', 'StructuredOutput', 'Write'])
    const results = pm.api.toolResults().map((r) => String(JSON.stringify(r.content)))
    expect(results.some((t) => t.includes('No such tool available: Bash'))).toBe(true)
    expect(results.filter((t) => t.includes("don't ask mode"))).toHaveLength(6)
    expect(JSON.stringify(pm.api.requests.map((r) => r.body))).not.toContain('SECRET-CONTENT-7f3a')

    // Effects: nothing outside memory/ changed or appeared; the memory write went through.
    expect(await hashTree(pm.root, notMemory)).toEqual(before)
    expect(existsSync(relativeResolved)).toBe(false)
    expect(existsSync(absoluteOutside)).toBe(false)
    expect(existsSync(bashMade)).toBe(false)
    expect(existsSync(authorizedKeys)).toBe(false)
    expect(await readFile(projectMemory, 'utf8')).toBe('# navi\n\nAllowed write.\n')
    for (const marker of pm.hookMarkers) expect(existsSync(marker)).toBe(false)
  })
})
