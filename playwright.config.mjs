import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser. The tests open the built single file from
// file://, which is what people download and what course pages embed.
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  // Every wait is for a state of the page; these bounds only say how long a loaded machine may
  // take to reach it (starting a worker compiles the wasm core), so they are generous.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  workers: 2,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
