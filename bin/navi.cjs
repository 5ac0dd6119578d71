#!/usr/bin/env node
// Runs the `navi` CLI: the bundle `npm run build` writes, when it is newer than every source file
// (a checkout being edited never runs stale code), otherwise the TypeScript sources through tsx.
// CommonJS, as the bundle's launcher is: an ES module entry costs every command its module loader.
'use strict'
const { join } = require('node:path')
const { pathToFileURL } = require('node:url')
const { bundleIsFresh, SOURCE_LIST_FILE } = require('./cli-sources.cjs')

const root = join(__dirname, '..')
const built = join(root, 'out', 'cli')
const bundle = join(built, 'navi.cjs')

if (bundleIsFresh(root, bundle, join(built, SOURCE_LIST_FILE))) {
  require(bundle)
} else {
  void (async () => {
    const { register } = await import('tsx/esm/api')
    register()
    await import(pathToFileURL(join(root, 'electron', 'cli', 'navi.ts')).href)
  })()
}
