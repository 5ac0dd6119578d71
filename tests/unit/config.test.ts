import { describe, expect, it } from 'vitest'
import { defaultConfig, isIgnored } from '../../electron/engine/core/config.ts'
import { parseConfig } from '../../electron/engine/core/config-yaml.ts'
import { parseDuration } from '../../shared/duration.ts'

const FILE = '/home/ada/.navi/config.yaml'
const HOME = '/home/ada'

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['1.5m', 90_000],
    ['10 s', 10_000],
    [45, 45_000],
    [0.5, 500],
  ] as const)('%s → %d ms', (input, ms) => {
    expect(parseDuration(input)).toBe(ms)
  })

  it.each(['', '30', 'thirty seconds', '5d', '-3s', 0, -1, Number.NaN] as const)(
    'rejects %s',
    (input) => {
      expect(parseDuration(input)).toBeNull()
    },
  )
})

describe('parseConfig', () => {
  it('reads a valid file, expanding ~ and converting the duration', () => {
    const text = [
      'projects:',
      '  - path: ~/workspace/apollo',
      '    name: apollo',
      '    tasks: docs/backlog.md',
      '  - path: /srv/gemini/',
      '    tasks: ~/notes/gemini.md',
      '  - path: ~/workspace/hermes',
      'ignore: [~/scratch/**, "**/node_modules/**"]',
      'poll_interval: 2m',
      '',
    ].join('\n')
    const { config, errors } = parseConfig(text, FILE, HOME)
    expect(errors).toEqual([])
    expect(config).toEqual({
      projects: [
        {
          path: '/home/ada/workspace/apollo',
          name: 'apollo',
          tasks: '/home/ada/workspace/apollo/docs/backlog.md',
        },
        { path: '/srv/gemini', tasks: '/home/ada/notes/gemini.md' },
        { path: '/home/ada/workspace/hermes' },
      ],
      ignore: ['/home/ada/scratch/**', '**/node_modules/**'],
      pollIntervalMs: 120_000,
      pm: defaultConfig().pm,
      trouble: defaultConfig().trouble,
      answering: defaultConfig().answering,
      tasks: defaultConfig().tasks,
      cli: defaultConfig().cli,
    })
  })

  it('reads the task settings: rules and default expanded, durations in ms, relative paths refused', () => {
    expect(defaultConfig().tasks).toMatchObject({
      rules: [],
      defaultDir: null,
      planKeywords: null,
      timeoutMs: 3_600_000,
      heartbeatMs: 300_000,
      maxRunning: 2,
      permissionMode: null,
    })
    const read = parseConfig(
      [
        'tasks:',
        '  rules:',
        '    - keywords: [backlog, meeting notes]',
        '      directory: ~/Notes',
        '      priority: 1',
        '  default: ~/Code',
        '  plan_keywords: [overhaul]',
        '  timeout: 30m',
        '  permission_mode: acceptEdits',
        '  allowed_tools: [Edit]',
      ].join('\n'),
      FILE,
      HOME,
    )
    expect(read.errors).toEqual([])
    expect(read.config.tasks).toMatchObject({
      rules: [{ keywords: ['backlog', 'meeting notes'], dir: `${HOME}/Notes`, priority: 1 }],
      defaultDir: `${HOME}/Code`,
      planKeywords: ['overhaul'],
      timeoutMs: 1_800_000,
      permissionMode: 'acceptEdits',
      allowedTools: ['Edit'],
    })
    const relative = parseConfig('tasks:\n  default: Code\n', FILE, HOME)
    expect(relative.errors[0]?.message).toMatch(/tasks\.default: 'Code' is relative/)
    // bypassPermissions is chosen per task, never for all of them in the config.
    const bypass = parseConfig('tasks:\n  permission_mode: bypassPermissions\n', FILE, HOME)
    expect(bypass.errors).toHaveLength(1)
  })

  it("reads the answering wait in whole seconds, within 1 s and the hook's 10 min", () => {
    expect(defaultConfig().answering).toEqual({ waitSeconds: 300 })
    const wait = (text: string) => parseConfig(`answering:\n  wait: ${text}\n`, FILE, HOME)
    expect(wait('90s').config.answering).toEqual({ waitSeconds: 90 })
    expect(wait('2h').config.answering).toEqual({ waitSeconds: 600 })
    const bad = wait('soon')
    expect(bad.errors.map((e) => e.line)).toEqual([2])
    expect(bad.config.answering).toEqual({ waitSeconds: 300 })
  })

  it('reads the trouble thresholds, and refuses a repeat count below 2', () => {
    const ok = parseConfig(
      'trouble:\n  stalled_after: 20m\n  waiting_after: 1h\n  repeats: 4\n',
      FILE,
      HOME,
    )
    expect(ok.errors).toEqual([])
    expect(ok.config.trouble).toEqual({
      stalledAfterMs: 20 * 60_000,
      waitingAfterMs: 3_600_000,
      repeats: 4,
    })
    expect(defaultConfig().trouble).toEqual({
      stalledAfterMs: 10 * 60_000,
      waitingAfterMs: 15 * 60_000,
      repeats: 3,
    })
    const bad = parseConfig('trouble:\n  repeats: 1\n', FILE, HOME)
    expect(bad.errors.map((e) => e.line)).toEqual([2])
    expect(bad.config).toEqual(defaultConfig())
  })

  it('reads the PM settings, with their own line-numbered errors', () => {
    const ok = parseConfig('pm:\n  model: opus\n  batch_window: 30s\n  resume: true\n', FILE, HOME)
    expect(ok.errors).toEqual([])
    expect(ok.config.pm).toMatchObject({ model: 'opus', batchWindowMs: 30_000, resume: true })
    const bad = parseConfig('pm:\n  model: opus\n  timeout: soon\n  modle: x\n', FILE, HOME)
    expect(bad.config).toEqual(defaultConfig())
    expect(bad.errors.map((e) => [e.line, e.message])).toEqual(
      expect.arrayContaining([
        [3, expect.stringMatching(/pm\.timeout: expected a duration/)],
        [4, expect.stringMatching(/unknown key 'modle' \(allowed: model, batch_window/)],
      ]),
    )
  })

  it('raises a poll interval below the floor to it, says so, and keeps the rest of the file', () => {
    const parsed = parseConfig('projects:\n  - path: ~/a\npoll_interval: 1ms\n', FILE, HOME)
    expect(parsed.config.pollIntervalMs).toBe(1000)
    expect(parsed.config.projects).toEqual([{ path: '/home/ada/a' }])
    expect(parsed.errors).toEqual([
      expect.objectContaining({ line: 3, message: 'poll_interval: below the 1s floor; using 1s' }),
    ])
  })

  it('takes a number as seconds', () => {
    expect(parseConfig('poll_interval: 12\n', FILE, HOME).config.pollIntervalMs).toBe(12_000)
  })

  it('gives the defaults, without error, for an empty or comment-only file', () => {
    expect(parseConfig('', FILE, HOME)).toEqual({ config: defaultConfig(), errors: [] })
    expect(parseConfig('# nothing yet\n\n', FILE, HOME)).toEqual({
      config: defaultConfig(),
      errors: [],
    })
    expect(defaultConfig()).toMatchObject({ projects: [], ignore: [], pollIntervalMs: 30_000 })
    expect(defaultConfig().pm).toMatchObject({ model: 'sonnet', batchWindowMs: 120_000 })
  })

  it('reports a YAML syntax error with its line, and uses the defaults', () => {
    const text = 'projects:\n  - path: ~/a\nignore: [~/scratch/**\npoll_interval: 10s\n'
    const { config, errors } = parseConfig(text, FILE, HOME)
    expect(config).toEqual(defaultConfig())
    expect(errors.length).toBeGreaterThan(0)
    expect(errors[0]?.file).toBe(FILE)
    expect(errors[0]?.message).toMatch(/^invalid YAML: /)
    expect(errors[0]?.line).toBeGreaterThanOrEqual(3)
    expect(errors[0]?.message).not.toContain('\n')
  })

  it('reports a duplicate key at its line', () => {
    const { errors } = parseConfig(
      'poll_interval: 10s\nignore: []\npoll_interval: 20s\n',
      FILE,
      HOME,
    )
    expect(errors).toHaveLength(1)
    expect(errors[0]?.line).toBe(3)
  })

  it('reports an unknown key at the line of that key, and applies nothing', () => {
    const text = [
      'poll_interval: 10s',
      'projects:',
      '  - path: ~/workspace/apollo',
      '  - pth: ~/workspace/hermes',
      '    name: hermes',
    ].join('\n')
    const { config, errors } = parseConfig(text, FILE, HOME)
    expect(config).toEqual(defaultConfig())
    const unknown = errors.find((e) => e.message.includes("unknown key 'pth'"))
    expect(unknown).toMatchObject({ file: FILE, line: 4 })
    expect(unknown?.message).toMatch(/^projects\[1\]: unknown key 'pth'/)
    const missing = errors.find((e) => e.message.includes("missing 'path'"))
    expect(missing?.message).toBe("projects[1]: missing 'path'")
    expect(missing?.line).toBe(4)
  })

  it('reports an unknown top-level key at its line', () => {
    const { errors } = parseConfig('ignore: []\n\npoll: 30s\n', FILE, HOME)
    expect(errors).toEqual([
      {
        file: FILE,
        line: 3,
        column: 1,
        message: "config: unknown key 'poll' (allowed: projects, ignore, poll_interval, pm)",
      },
    ])
  })

  it.each([
    ['poll_interval: soon', "'soon'"],
    ['poll_interval: -5', '-5'],
    ['poll_interval: [1, 2]', 'a list'],
    ['poll_interval: true', 'true'],
  ])('reports a wrong poll_interval (%s) at its line', (line, got) => {
    const text = `projects: []\nignore: []\n${line}\n`
    const { config, errors } = parseConfig(text, FILE, HOME)
    expect(config).toEqual(defaultConfig())
    expect(errors).toHaveLength(1)
    expect(errors[0]?.line).toBe(3)
    expect(errors[0]?.message).toBe(
      `poll_interval: expected a duration such as 500ms, 30s, 2m or 1h, got ${got}`,
    )
  })

  it('describes wrong types in plain words', () => {
    const { errors } = parseConfig('projects:\n  - path: 42\nignore: ~/scratch\n', FILE, HOME)
    expect(errors.map((e) => [e.line, e.message])).toEqual([
      [2, 'projects[0].path: expected a string, got 42'],
      [3, "ignore: expected a list, got '~/scratch'"],
    ])
  })

  it('rejects a top-level list', () => {
    const { errors } = parseConfig('- path: ~/a\n', FILE, HOME)
    expect(errors[0]?.message).toBe('config: expected a mapping (key: value), got a list')
    expect(errors[0]?.line).toBe(1)
  })

  it('rejects a relative project path at its line', () => {
    const { config, errors } = parseConfig('projects:\n  - path: ~/a\n  - path: b/c\n', FILE, HOME)
    expect(config).toEqual(defaultConfig())
    expect(errors).toHaveLength(1)
    expect(errors[0]?.line).toBe(3)
    expect(errors[0]?.message).toContain("projects[1].path: 'b/c' is relative")
  })

  it('reports an empty path', () => {
    const { errors } = parseConfig('projects:\n  - path: ""\n', FILE, HOME)
    expect(errors.map((e) => [e.line, e.message])).toEqual([
      [2, 'projects[0].path: must not be empty'],
    ])
  })

  it('does not crash on an unresolved alias', () => {
    const { config, errors } = parseConfig('ignore: [*nowhere]\n', FILE, HOME)
    expect(config).toEqual(defaultConfig())
    expect(errors.length).toBeGreaterThan(0)
  })
})

describe('isIgnored', () => {
  const globs = ['/home/ada/scratch/**', '**/node_modules/**']

  it.each([
    ['/home/ada/scratch', true],
    ['/home/ada/scratch/', true],
    ['/home/ada/scratch/tmp/x', true],
    ['/home/ada/scratch/.hidden/repo', true],
    ['/home/ada/work/app/node_modules/pkg', true],
    ['/home/ada/scratchpad', false],
    ['/home/ada/work/app', false],
  ])('%s → %s', (path, expected) => {
    expect(isIgnored(path, globs)).toBe(expected)
  })

  it('ignores nothing without globs', () => {
    expect(isIgnored('/anything', [])).toBe(false)
  })

  it('works with a config read from YAML (~ expanded)', () => {
    const { config } = parseConfig('ignore: [~/scratch/**]\n', FILE, HOME)
    expect(isIgnored('/home/ada/scratch/project', config.ignore)).toBe(true)
  })
})
