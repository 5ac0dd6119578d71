import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import reactRefresh from 'eslint-plugin-react-refresh'
import prettier from 'eslint-config-prettier'

/** One `no-restricted-imports` rule per folder of the house: what it must never import, and why. */
function boundaries(rooms) {
  return rooms.map(({ files, ignores, why, forbid, electron }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: electron ? [{ name: 'electron', message: `${why}.` }] : [],
          patterns: [{ group: forbid, message: `${why}.` }],
        },
      ],
    },
  }))
}

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'release/**', 'bench/results/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-floating-promises': 'off',
    },
  },
  {
    // The `navi` command's entry is CommonJS (bin/navi.cjs says why).
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }],
    },
  },
  // The house's boundaries (README "Architecture"): each folder lists what it must never import. One rule
  // object per folder, since a later `no-restricted-imports` for the same file replaces an earlier one.
  ...boundaries([
    {
      files: ['electron/engine/core/**/*.ts'],
      why: 'engine/core is pure: no I/O adapters, no PM, no runtime, no faces',
      forbid: ['**/adapters/**', '**/pm/**', '**/runtime/**', '**/main/**', '**/cli/**'],
      electron: true,
    },
    {
      files: ['electron/engine/**/*.ts'],
      ignores: ['electron/engine/core/**'],
      why: 'the engine only watches: the PM, the runtime and the faces consume it, never the reverse',
      forbid: ['**/pm/**', '**/runtime/**', '**/main/**', '**/cli/**'],
      electron: true,
    },
    {
      files: ['electron/pm/core/**/*.ts'],
      why: "pm/core is pure: not the PM's shell (../*.ts), no adapters, no runtime, no faces",
      forbid: ['../*.ts', '**/adapters/**', '**/runtime/**', '**/main/**', '**/cli/**'],
      electron: true,
    },
    {
      files: ['electron/pm/**/*.ts'],
      ignores: ['electron/pm/core/**'],
      why: 'the PM consumes the engine; the runtime and the faces compose it, never the reverse',
      forbid: ['**/runtime/**', '**/main/**', '**/cli/**'],
      electron: true,
    },
    {
      files: ['electron/tasks/core/**/*.ts'],
      why: "tasks/core is pure: not the tasks' shell (../*.ts), no adapters, no runtime, no faces",
      forbid: ['../*.ts', '**/adapters/**', '**/pm/**', '**/runtime/**', '**/main/**', '**/cli/**'],
      electron: true,
    },
    {
      files: ['electron/tasks/**/*.ts'],
      ignores: ['electron/tasks/core/**'],
      why: 'delegated tasks use the engine and the PM; the runtime and the faces compose them',
      forbid: ['**/runtime/**', '**/main/**', '**/cli/**'],
      electron: true,
    },
    {
      files: ['electron/runtime/**/*.ts'],
      why: 'the runtime composes the parts for the faces and knows none of them; it runs in plain Node',
      forbid: ['**/main/**', '**/cli/**'],
      electron: true,
    },
    {
      files: ['electron/cli/**/*.ts'],
      why: 'a face reaches the engine, the PM and the tasks only through the runtime (electron/runtime/)',
      forbid: ['**/engine/**', '**/pm/**', '**/tasks/**'],
      electron: true,
    },
    {
      files: ['electron/main/**/*.ts'],
      why: 'a face reaches the engine, the PM and the tasks only through the runtime (electron/runtime/)',
      forbid: ['**/engine/**', '**/pm/**', '**/tasks/**'],
      // The tray is the Electron face: electron is what it is made of.
      electron: false,
    },
    {
      files: ['renderer/**/*.{ts,tsx}'],
      why: 'the renderer is a sandboxed page: browser code and shared/ only, no Node, no electron/',
      forbid: ['node:*', '**/electron/**'],
      electron: true,
    },
    {
      files: ['shared/**/*.ts'],
      why: 'shared/ builds for Node and the browser: no node:*, no electron, nothing of electron/',
      forbid: ['node:*', '**/electron/**'],
      electron: true,
    },
  ]),
  prettier,
)
