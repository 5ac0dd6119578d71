#!/usr/bin/env node
// Runs the `navi` CLI: the bundle `npm run build` writes, when it is newer than every source file
// (a checkout being edited never runs stale code), otherwise the TypeScript sources through tsx.
// CommonJS, as the bundle's launcher is: an ES module entry costs every command its module loader.
'use strict'
const { readdirSync, statSync } = require('node:fs')
const { join } = require('node:path')
const { pathToFileURL } = require('node:url')

const root = join(__dirname, '..')
const bundle = join(root, 'out', 'cli', 'navi.cjs')

function newestSource(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path))
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

function bundleIsFresh() {
  try {
    const built = statSync(bundle).mtimeMs
    return ['electron', 'shared'].every((dir) => newestSource(join(root, dir)) <= built)
  } catch {
    return false
  }
}

if (bundleIsFresh()) {
  require(bundle)
} else {
  void (async () => {
    const { register } = await import('tsx/esm/api')
    register()
    await import(pathToFileURL(join(root, 'electron', 'cli', 'navi.ts')).href)
  })()
}
