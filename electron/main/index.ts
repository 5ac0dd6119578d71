import { join } from 'node:path'
import { app, BrowserWindow, ipcMain } from 'electron'
import { ipcContract, type IpcChannel, type IpcResult } from '../../shared/ipc-contract.ts'
import { createEngine } from '../engine/index.ts'
import { resolvePaths } from '../engine/core/paths.ts'

// The tray, popover and notifications are issue 4; this shell hosts the engine and shows its state.
const engine = createEngine({ paths: resolvePaths() })

function handle<C extends IpcChannel>(channel: C, fn: (input: unknown) => Promise<unknown>): void {
  ipcMain.handle(channel, async (_event, raw): Promise<IpcResult<unknown>> => {
    const parsed = ipcContract[channel].input.safeParse(raw)
    if (!parsed.success)
      return { ok: false, error: { code: 'bad_input', message: parsed.error.message } }
    try {
      return { ok: true, data: await fn(parsed.data) }
    } catch (error) {
      return { ok: false, error: { code: 'failed', message: String(error) } }
    }
  })
}

function createWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 420,
    height: 600,
    show: false,
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
    },
  })
  window.once('ready-to-show', () => window.show())
  if (process.env.ELECTRON_RENDERER_URL) window.loadURL(process.env.ELECTRON_RENDERER_URL)
  else window.loadFile(join(import.meta.dirname, '../renderer/index.html'))
  return window
}

app.whenReady().then(async () => {
  handle('state:get', async () => engine.getState())
  handle('events:list', async (input) => engine.listEvents(input as { sinceMs?: number }))
  await engine.start()
  const window = createWindow()
  engine.subscribe((events) => window.webContents.send('events:appended', events))
})

app.on('window-all-closed', () => {
  engine.stop().finally(() => app.quit())
})
