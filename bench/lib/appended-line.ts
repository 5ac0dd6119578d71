/**
 * The line the benchmarks append to a running session. Apart from corpus.ts, whose text pool is built
 * when it loads: a measured child that only appends must not pay for it.
 */

/**
 * A 1 KiB line (a typed prompt), as a user appends to a running session; ends with a newline.
 * `timestamp` keeps it the newest line of the file.
 */
export function appendedPromptLine(sessionId: string, cwd: string, at: Date): string {
  const line = {
    parentUuid: null,
    isSidechain: false,
    type: 'user',
    message: { role: 'user', content: '' },
    uuid: `bench-append-${at.getTime()}`,
    timestamp: at.toISOString(),
    permissionMode: 'default',
    origin: { kind: 'human' },
    promptSource: 'typed',
    userType: 'external',
    entrypoint: 'cli',
    cwd,
    sessionId,
    version: '2.1.197',
    gitBranch: 'main',
  }
  const bare = Buffer.byteLength(`${JSON.stringify(line)}\n`)
  line.message.content = 'please also update the changelog '.repeat(40).slice(0, 1024 - bare)
  return `${JSON.stringify(line)}\n`
}
