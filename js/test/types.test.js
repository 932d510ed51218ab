// The type declarations compile, and what a TypeScript game writes type-checks against them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('the .d.ts files type-check a TypeScript game that uses every export', () => {
  const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
  const usage = fileURLToPath(new URL('./types/usage.ts', import.meta.url));
  const run = spawnSync(process.execPath, [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', usage], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
});
