import { chmod, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixPath } from '../../electron/main/fix-path.ts'
import { useTempPaths } from '../support/temp-paths.ts'

const temp = useTempPaths('navi-fix-path-')

/** A stand-in login shell: prints a banner, sets its own PATH as an rc file would, runs the command. */
async function fakeShell(body: string): Promise<string> {
  const file = join(temp.root, 'fake-shell')
  await writeFile(file, `#!/bin/sh\n${body}\n`)
  await chmod(file, 0o755)
  return file
}

const env = (shell: string) => ({ SHELL: shell, PATH: '/usr/bin:/bin', HOME: '/home/u' })

describe('fixPath', () => {
  it('puts the login shell PATH first, ignoring what rc files print', async () => {
    const shell = await fakeShell(
      'echo "Welcome, $USER"\nPATH=/opt/rc/bin:/usr/bin\nexport PATH\nexec /bin/sh -c "$2"',
    )
    const path = await fixPath({ env: env(shell), platform: 'linux', home: '/home/u' })
    expect(path?.split(':').slice(0, 3)).toEqual(['/opt/rc/bin', '/usr/bin', '/bin'])
    expect(path).toContain('/home/u/.local/bin')
  })

  it('falls back to the current PATH when the shell is missing or too slow', async () => {
    // A background child keeps stdout open after the shell is killed: fixPath must not wait for it.
    const slow = await fakeShell('sleep 20')
    const started = Date.now()
    for (const shell of [join(temp.root, 'no-such-shell'), slow]) {
      const path = await fixPath({
        env: env(shell),
        platform: 'linux',
        home: '/home/u',
        timeoutMs: 300,
      })
      expect(path?.split(':').slice(0, 2)).toEqual(['/usr/bin', '/bin'])
    }
    // Below the 20 s it would have waited, far above two 300 ms timeouts on a loaded machine.
    expect(Date.now() - started).toBeLessThan(15_000)
  })

  it('does nothing on Windows', async () => {
    expect(await fixPath({ env: { PATH: 'C:\\x' }, platform: 'win32', home: 'C:\\u' })).toBe(
      'C:\\x',
    )
  })
})
