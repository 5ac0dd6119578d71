import { describe, expect, it } from 'vitest'
import { schemaFingerprint } from '../support/schema-fingerprint.ts'
import {
  SNAPSHOT_SEAL_VERSION,
  sealedSnapshotText,
  unsealedSnapshot,
} from '../../electron/engine/core/snapshot-seal.ts'
import { projectSnapshotSchema, type ProjectSnapshot } from '../../shared/schemas/project.ts'
import { makeSession } from '../support/session-fixture.ts'

/** A snapshot with something in every part: git, sessions mid-request and in trouble, task lists. */
const snapshot: ProjectSnapshot = {
  name: 'api',
  project_dir: '/work/api',
  is_git: true,
  registered: true,
  session_names: ['fix login', 'Ünïcode ✓'],
  head_sha: 'abc123',
  branch: 'main',
  commits_ahead: 2,
  dirty: true,
  has_pr: false,
  activity: {
    turns_last_hour: 3,
    last_turn: {
      session: 's1',
      session_name: 'fix login',
      prompt: 'fix the "login" test',
      reply: 'Done.\nAll green.',
      ended_at: '2026-11-27T10:00:00.000Z',
    },
  },
  current_pbi: {
    id: 'PBI-8',
    title: 'Login',
    tasks: { done: 1, in_progress: 1, todo: 0, total: 2 },
  },
  session_status: 'needs_permission',
  session_status_reason: 'Bash: rm -rf build',
  last_activity: '2026-11-27T10:01:00.000Z',
  captured_at: '2026-11-27T10:02:00.000Z',
  attention: 'needs_input',
  git: {
    head_sha: 'abc123',
    branch: 'main',
    detached: false,
    commits_ahead: 2,
    commits_behind: null,
    upstream: 'origin/main',
    dirty: true,
    branch_heads: { main: 'abc123', 'feature/x': 'def456' },
    worktrees: [{ path: '/work/api-wt', branch: 'feature/x', head_sha: 'def456' }],
    recent_commits: [
      { sha: 'abc123', subject: 'Fix login', branch: 'main', author: 'dev', timestamp: 'x' },
    ],
    pr: { state: 'open', number: 7, url: 'https://example.test/pr/7' },
    error: null,
  },
  sessions: [
    makeSession({
      id: 's1',
      name: 'fix login',
      status: 'needs_permission',
      last_turn: {
        prompt: 'fix it',
        started_at: '2026-11-27T09:59:00.000Z',
        ended_at: '2026-11-27T10:00:00.000Z',
        duration_ms: 60_000,
        reply: 'ok',
      },
      recent_turn_ends: ['2026-11-27T10:00:00.000Z'],
      pending_request: {
        tool: 'Bash',
        detail: 'rm -rf build',
        description: null,
        since: '2026-11-27T10:01:00.000Z',
        request_id: 'r1',
        input_digest: 'd1',
        answer_until: null,
      },
      trouble: { kind: 'waiting_long', reason: 'waiting 20m', since: null },
      task_lists: [
        {
          id: 'l1',
          title: 'Login',
          source: 'claude_tasks',
          tasks: [{ id: '1', title: 'test', status: 'completed' }],
          moves: [{ task_id: '1', title: 'test', status: 'completed', at: 'x' }],
        },
      ],
    }),
  ],
  task_lists: [],
  errors: ['one error'],
}

describe('sealed snapshot files', () => {
  it('read back as the schema makes them, with JSON.parse alone', () => {
    const text = sealedSnapshotText(snapshot)
    const validated = projectSnapshotSchema.parse(JSON.parse(text))
    expect(unsealedSnapshot(text)).toEqual({ snapshot: validated, stamped: false })
    expect(validated).toEqual(snapshot)
  })

  it('stay one JSON object, the seal its first property, which the schema drops', () => {
    const text = sealedSnapshotText(snapshot)
    const json = JSON.parse(text) as Record<string, unknown>
    expect(Object.keys(json)[0]).toBe('$navi')
    expect(json.$navi).toMatch(new RegExp(`^${String(SNAPSHOT_SEAL_VERSION)}:[0-9a-f]{64}$`))
    const stamped = JSON.parse(sealedSnapshotText(snapshot, 1_795_000_000_123)) as { $navi: string }
    expect(stamped.$navi).toMatch(
      new RegExp(`^${String(SNAPSHOT_SEAL_VERSION)}:[0-9a-f]{64}:1795000000123$`),
    )
    expect('$navi' in projectSnapshotSchema.parse(json)).toBe(false)
  })

  it('are not believed once edited, resealed by another version, or never sealed', () => {
    const text = sealedSnapshotText(snapshot)
    expect(unsealedSnapshot(text.replace('"main"', '"mainx"'))).toBeNull()
    expect(unsealedSnapshot(text.replace(/"\$navi": "\d+:/, '"$navi": "999:'))).toBeNull()
    expect(unsealedSnapshot(text.slice(0, -1))).toBeNull()
    expect(unsealedSnapshot(`${JSON.stringify(snapshot, null, 2)}\n`)).toBeNull()
    expect(unsealedSnapshot('')).toBeNull()
  })

  it('are believed by their stamp without hashing while the file keeps it, else by their hash', () => {
    const stamp = 1_795_000_000_123
    const text = sealedSnapshotText(snapshot, stamp)
    expect(unsealedSnapshot(text, stamp)).toEqual({ snapshot, stamped: true })
    // Read back through the kernel's nanoseconds as a double, the time lands a hair off the stamp.
    expect(unsealedSnapshot(text, stamp + 0.000_4)?.stamped).toBe(true)
    expect(unsealedSnapshot(text, stamp + 1)).toEqual({ snapshot, stamped: false })
    // The stamp vouches for the text: its hash is not computed (a wrong one goes unseen)…
    const wrongDigest = text.replace(
      /"\$navi": "(\d+):[0-9a-f]{64}:/,
      '"$navi": "$1:' + '0'.repeat(64) + ':',
    )
    expect(unsealedSnapshot(wrongDigest, stamp)?.stamped).toBe(true)
    // …until the file's time moves (any edit moves it): then the hash decides.
    expect(unsealedSnapshot(wrongDigest, stamp + 1)).toBeNull()
    expect(unsealedSnapshot(text.replace('"main"', '"mainx"'), stamp + 1)).toBeNull()
    // A stamp that is not a number is no stamp: the hash decides (here it matches).
    expect(unsealedSnapshot(text.replace(/:(\d+)",/, ':x$1",'), stamp)).toEqual({
      snapshot,
      stamped: false,
    })
  })
})

describe('SNAPSHOT_SEAL_VERSION', () => {
  it('is bumped with the snapshot schema (update both pins when it changes what a file reads as)', () => {
    const fingerprint = schemaFingerprint(projectSnapshotSchema)
    expect({ version: SNAPSHOT_SEAL_VERSION, fingerprint }).toEqual({
      version: 1,
      fingerprint: '044bffb8a75a452a',
    })
  })
})
