/**
 * The input recorder (electron/runtime/answer-cache/input-recorder.ts): every way the engine's code reads a
 * path is seen with the path's stamp, every write and every call it does not know makes the run unfit,
 * pids asked about are remembered, and stopping puts every function back.
 */
import fs, { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { readdir, readFile, open, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  startRecordingInputs,
  type InputRecorder,
} from '../../electron/runtime/answer-cache/input-recorder.ts'
import { opensToRead } from '../../electron/runtime/answer-cache/fs-call-kinds.ts'
import { sameStamp, stampOf } from '../../electron/runtime/answer-cache/path-stamp.ts'

let dir: string
let recorder: InputRecorder | null = null

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'navi-recorder-'))
  writeFileSync(join(dir, 'a.txt'), 'a')
  writeFileSync(join(dir, 'b.txt'), 'b')
})
afterEach(() => {
  recorder?.stop()
  recorder = null
  rmSync(dir, { recursive: true, force: true })
})

const record = () => (recorder = startRecordingInputs())
/** What was recorded; the test runner's own child_process and worker_threads set aside. */
const stop = () => {
  const recording = recorder?.stop()
  recorder = null
  if (!recording) throw new Error('not recording')
  return {
    ...recording,
    unfit: recording.unfit.filter((u) => !u.endsWith('loaded before recording')),
  }
}

describe('startRecordingInputs', () => {
  it('sees sync, callback and promise reads (named imports too) with the stamp each path had', async () => {
    const missing = join(dir, 'missing')
    record()
    readFileSync(join(dir, 'a.txt'))
    await readFile(join(dir, 'b.txt'))
    await readdir(dir)
    await stat(missing).catch(() => null)
    existsSync(join(dir, 'none-sync'))
    await new Promise((done) => fs.stat(join(dir, 'cb'), () => done(null)))
    const handle = await open(join(dir, 'a.txt'), 'r')
    await handle.close()
    const recording = stop()
    expect([...recording.observed.keys()].sort()).toEqual(
      [
        dir,
        join(dir, 'a.txt'),
        join(dir, 'b.txt'),
        missing,
        join(dir, 'none-sync'),
        join(dir, 'cb'),
      ].sort(),
    )
    expect(recording.observed.get(join(dir, 'a.txt'))).toEqual(stampOf(join(dir, 'a.txt')))
    expect(recording.observed.get(missing)).toBe('ENOENT')
    expect(recording.written).toEqual([])
    expect(recording.unfit).toEqual([])
  })

  it("takes a statSync's stamp from its own result, and BigInt ones by a stat of its own", () => {
    const a = join(dir, 'a.txt')
    const b = join(dir, 'b.txt')
    record()
    statSync(a)
    statSync(b, { bigint: true })
    expect(statSync(join(dir, 'none'), { throwIfNoEntry: false })).toBeUndefined()
    expect(() => statSync(join(dir, 'none2'))).toThrow()
    const recording = stop()
    expect(recording.observed.get(a)).toEqual(stampOf(a))
    expect(recording.observed.get(b)).toEqual(stampOf(b))
    expect(recording.observed.get(join(dir, 'none'))).toBe('ENOENT')
    expect(recording.observed.get(join(dir, 'none2'))).toBe('ENOENT')
  })

  it('learns only that a path is there from existsSync, and only what folder it is from a stat', () => {
    const file = join(dir, 'a.txt')
    const sub = join(dir, 'sub')
    fs.mkdirSync(sub)
    record()
    existsSync(file)
    statSync(sub)
    const recording = stop()
    expect(recording.observed.get(file)).toBe('exists')
    const folder = recording.observed.get(sub)
    // Its device and inode: a file made in it (its mtime moves) is the same folder.
    expect(folder).toEqual([statSync(sub).dev, statSync(sub).ino, -1, -1, -1])
    writeFileSync(join(sub, 'new'), '')
    expect(sameStamp(folder ?? '', stampOf(sub))).toBe(true)
    writeFileSync(file, 'rewritten')
    expect(sameStamp('exists', stampOf(file))).toBe(true)
    rmSync(sub, { recursive: true })
    expect(sameStamp(folder ?? '', stampOf(sub))).toBe(false)
    fs.mkdirSync(sub)
    // Made again: another inode (most of the time; a file system may hand the same one out again, and
    // the folder is then what it was).
    expect(sameStamp('exists', stampOf(file))).toBe(true)
  })

  it('learns all of a folder once it is listed after a stat, and refuses a run that saw it change', async () => {
    const sub = join(dir, 'sub')
    fs.mkdirSync(sub)
    record()
    statSync(sub)
    await readdir(sub)
    existsSync(join(dir, 'b.txt'))
    fs.unlinkSync(join(dir, 'b.txt'))
    readFileSync(join(dir, 'a.txt'))
    await readFile(join(dir, 'b.txt')).catch(() => null)
    const recording = stop()
    expect(recording.observed.get(sub)).toEqual(stampOf(sub))
    expect(recording.observed.get(join(dir, 'b.txt'))).toBe('ENOENT')
    expect(recording.unfit).toEqual([`read twice, changed between: ${join(dir, 'b.txt')}`])
  })

  it('keeps the first stamp of a path that changes after its first read', () => {
    const file = join(dir, 'a.txt')
    const before = stampOf(file)
    record()
    statSync(file)
    writeFileSync(file, 'longer now')
    statSync(file)
    const recording = stop()
    expect(recording.observed.get(file)).toEqual(before)
    expect(recording.written).toEqual([file])
  })

  it('counts writes of every kind, and an open to write', async () => {
    record()
    await writeFile(join(dir, 'w1'), 'x')
    fs.renameSync(join(dir, 'w1'), join(dir, 'w2'))
    const handle = await open(join(dir, 'w3'), 'a')
    await handle.close()
    fs.mkdirSync(join(dir, 'd'))
    // Output (stdout, stderr) is no file it reads.
    fs.writeSync(1, '')
    fs.writeSync(2, '')
    const recording = stop()
    expect(recording.written).toEqual([
      join(dir, 'w1'),
      join(dir, 'w1'),
      join(dir, 'w3'),
      join(dir, 'd'),
    ])
  })

  it('makes a run unfit for a call it does not know, a relative path or a signal', () => {
    record()
    const watcher = fs.watch(dir)
    watcher.close()
    fs.existsSync('relative.txt')
    const recording = stop()
    expect(recording.unfit).toEqual(['fs.watch', 'a relative path read: relative.txt'])
  })

  it('remembers whether each pid asked about was alive', () => {
    record()
    process.kill(process.pid, 0)
    expect(() => process.kill(2 ** 22 + 12345, 0)).toThrow()
    const recording = stop()
    expect([...recording.pids]).toEqual([
      [process.pid, true],
      [2 ** 22 + 12345, false],
    ])
  })

  it('puts every function back when it stops, and refuses a second recorder meanwhile', () => {
    const before = { readFile: fs.readFile, stat: fs.promises.stat, kill: process.kill }
    record()
    expect(fs.readFile).not.toBe(before.readFile)
    expect(() => startRecordingInputs()).toThrow(/already/)
    stop()
    expect({ readFile: fs.readFile, stat: fs.promises.stat, kill: process.kill }).toEqual(before)
  })

  it('makes a run unfit when a module that starts processes was loaded before it began', () => {
    const loaded = (process as unknown as { moduleLoadList: string[] }).moduleLoadList
    // The test runner has it loaded; a `navi status` does not (the answer cache's tests run one).
    expect(loaded).toContain('NativeModule child_process')
    record()
    expect(recorder?.stop().unfit).toContain('child_process loaded before recording')
    recorder = null
  })

  it('tells open flags that only read', () => {
    expect([undefined, 'r', 'rs', fs.constants.O_RDONLY].map(opensToRead)).toEqual([
      true,
      true,
      true,
      true,
    ])
    expect(
      ['w', 'a', 'r+', fs.constants.O_WRONLY, fs.constants.O_RDONLY | fs.constants.O_CREAT].map(
        opensToRead,
      ),
    ).toEqual([false, false, false, false, false])
  })
})
