import { loadExeca } from '../../runtime/index.ts'

/** The command that opens a URL in the default browser (pure). */
export function openCommand(
  url: string,
  platform: NodeJS.Platform = process.platform,
): { file: string; args: string[] } {
  if (platform === 'darwin') return { file: 'open', args: [url] }
  // Not `cmd /c start`: cmd would interpret the URL's characters; rundll32 takes it as one argument.
  if (platform === 'win32') return { file: 'rundll32', args: ['url.dll,FileProtocolHandler', url] }
  return { file: 'xdg-open', args: [url] }
}

/** Opens `url` without waiting for the browser; resolves with an error message, or null when launched. */
export async function openUrl(url: string): Promise<string | null> {
  const { file, args } = openCommand(url)
  try {
    const { execa } = await loadExeca()
    const child = execa(file, args, { detached: true, stdio: 'ignore', reject: false })
    const spawned = await new Promise<string | null>((resolve) => {
      child.once('spawn', () => resolve(null))
      child.once('error', (error) => resolve(error.message))
    })
    child.unref()
    // Launched is all we report; how the opener exits later is the browser's business.
    child.catch(() => undefined)
    return spawned
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}
