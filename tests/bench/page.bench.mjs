// Page speed, measured in Debian's Chromium on the built single file:
//  * first result: from navigation start to the first rendered table (target < 300 ms), and to
//    the end of the frame that shows it (its layout and paint included);
//  * recompute: one edit of a 1,000-row ranking (target < 16 ms, one frame), timed twice: the
//    page's script (the core and the patching of the tables, the span 'ndcg:update'), and from
//    the start of that script to the end of the frame that shows it (style, layout and paint of
//    the tables included), which is what a person waits for;
//  * the control for that: the same replacement of the box's 1,000 lines before each edit, with
//    no input event, so no update, timed to its frame: what the browser itself takes to draw the
//    text box again, which every timing to the frame above includes;
//  * keystrokes typed into the 1,000-line box (an "x" at the end of line 500, then Backspace),
//    as a person types them: the browser edits the box, and the page updates in the next frame.
// Prints the figures; it asserts nothing (speed is not a test).
import { chromium } from '@playwright/test';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const URL_ = pathToFileURL(resolve('dist/ndcg-calculator.html')).href;
const RUNS = 40;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const firsts = [];
const firstsShown = [];
for (let i = 0; i < 7; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  // The page is ready in the task that rendered its first result: the next frame shows it, and
  // the timer after that frame's callbacks fires once it is painted (as for the edits below).
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.body?.dataset.ready !== 'true') return;
      observer.disconnect();
      requestAnimationFrame(() => {
        document.body.offsetHeight;
        setTimeout(() => { window.benchFirstShown = performance.now(); }, 0);
      });
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
  });
  await page.goto(URL_);
  await page.waitForFunction(() => window.benchFirstShown !== undefined);
  firsts.push(await page.evaluate(() => performance.getEntriesByName('ndcg:first-result')[0].startTime));
  firstsShown.push(await page.evaluate(() => window.benchFirstShown));
  await context.close();
}

const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
await page.goto(URL_);
await page.waitForSelector('body[data-ready="true"]');
// Two kinds of edit: renaming a document somewhere in the list (most DCG values stay), and
// changing the grade at rank 1, which changes every DCG and NDCG below it.
const measureEdits = (edit) => page.evaluate(async ({ runs, edit }) => {
  const ranking = document.getElementById('ranking');
  document.getElementById('judgments').value = Array.from({ length: 300 }, (_, i) => `d${i * 3} ${1 + (i % 3)}`).join('\n');
  const rows = Array.from({ length: 1000 }, (_, i) => `d${i}`);
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  // Called right after the input event: this animation frame callback runs after the page's own
  // (the update), so the layout it asks for is the update's, and the timer after it fires once
  // the frame is painted.
  const shown = () => new Promise((done) => requestAnimationFrame(() => {
    document.body.offsetHeight;
    setTimeout(() => done(performance.now()), 0);
  }));
  const times = [];
  const toFrame = [];
  const core = [];
  // The 1,000 rows pasted first (timed apart: building a thousand rows is not an edit of them).
  ranking.value = rows.join('\n');
  // The text box's own layout settled first, so that the time to the frame is the update's.
  document.body.offsetHeight;
  performance.clearMeasures('ndcg:update');
  ranking.dispatchEvent(new Event('input', { bubbles: true }));
  const pasteEnd = await shown();
  await frame();
  const pasted = performance.getEntriesByName('ndcg:update').at(-1);
  const paste = { script: pasted.duration, toFrame: pasteEnd - pasted.startTime };
  for (let run = 0; run < runs; run++) {
    if (edit === 'rename') rows[(run * 37) % 1000] = `d${run % 2 ? run : 1000 + run}`;
    else rows[0] = run % 2 ? 'd0' : 'unjudged';
    ranking.value = rows.join('\n');
    // The box lays out its replaced text before the edit is timed: a keystroke does not
    // replace all of it.
    document.body.offsetHeight;
    if (edit === 'box-only') {
      // Timed from the frame's start, as an update is (it runs in that frame's first callback).
      let start = 0;
      requestAnimationFrame(() => { start = performance.now(); });
      const end = await shown();
      await frame();
      toFrame.push(end - start);
      continue;
    }
    performance.clearMeasures('ndcg:update');
    performance.clearMeasures('ndcg:explain');
    ranking.dispatchEvent(new Event('input', { bubbles: true }));
    const end = await shown();
    await frame();
    const update = performance.getEntriesByName('ndcg:update').at(-1);
    times.push(update.duration);
    toFrame.push(end - update.startTime);
    core.push(performance.getEntriesByName('ndcg:explain').at(-1).duration);
  }
  return { times, toFrame, core, paste, shown: document.querySelectorAll('#steps tbody tr').length };
}, { runs: RUNS, edit });
const updates = await measureEdits('rename');
const everyRank = await measureEdits('rank-1-grade');
const boxOnly = await measureEdits('box-only');

// Keystrokes: each timed, as the edits above, from the start of the page's update to the end of
// the frame that shows it, and the update's script alone.
await page.evaluate(() => {
  const ranking = document.getElementById('ranking');
  const at = ranking.value.indexOf('\nd500\n') + 5;
  ranking.focus();
  ranking.setSelectionRange(at, at);
  window.keystrokes = [];
  ranking.addEventListener('input', () => requestAnimationFrame(() => {
    document.body.offsetHeight;
    setTimeout(() => {
      const update = performance.getEntriesByName('ndcg:update').at(-1);
      window.keystrokes.push({ script: update.duration, toFrame: performance.now() - update.startTime });
    }, 0);
  }));
});
// The caret is brought into view first, as it is for a person who clicked there: placed by
// setSelectionRange, it stays where the box was scrolled (its end), and the first keystroke
// would scroll the box by 10,000 pixels besides editing it. Arrow keys edit nothing.
await page.keyboard.press('ArrowRight');
await page.keyboard.press('ArrowLeft');
await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0)))));
for (let run = 0; run < RUNS; run++) {
  await page.keyboard.press(run % 2 ? 'Backspace' : 'x');
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0)))));
}
const keystrokes = await page.evaluate(() => window.keystrokes);

const spread = (xs) => ({ median: median(xs), max: Math.max(...xs), over16: xs.filter((t) => t > 16).length, all: xs.map((t) => Math.round(t * 10) / 10) });
const result = {
  firstResultMs: { median: median(firsts), runs: firsts.map((x) => Math.round(x)) },
  firstResultToFrameMs: { median: median(firstsShown), runs: firstsShown.map((x) => Math.round(x)), note: 'to the end of the frame that shows the first result' },
  paste1000RowsMs: { ...updates.paste, note: 'the 1,000 rows pasted over a short ranking, before the edits: the script, and to the frame that shows them' },
  recompute1000RowsMs: { ...spread(updates.times), runs: RUNS, rowsRendered: updates.shown },
  recompute1000RowsToFrameMs: { ...spread(updates.toFrame), runs: RUNS },
  recompute1000RowsEveryValueChangesMs: { ...spread(everyRank.times), runs: RUNS },
  recompute1000RowsEveryValueChangesToFrameMs: { ...spread(everyRank.toFrame), runs: RUNS },
  explain1000RowsMs: { median: median(everyRank.core), note: 'reading the input and calc.explain, inside the recompute' },
  boxOnlyToFrameMs: { ...spread(boxOnly.toFrame), runs: RUNS, note: 'the box\'s 1,000 lines replaced as before each edit, with no update: the browser drawing the box again' },
  keystroke1000RowsMs: { ...spread(keystrokes.map((k) => k.script)), runs: keystrokes.length, note: 'an x typed at line 500 of the box, then Backspace: the update\'s script' },
  keystroke1000RowsToFrameMs: { ...spread(keystrokes.map((k) => k.toFrame)), runs: keystrokes.length },
};
console.log(JSON.stringify(result, null, 2));
console.log(`first result: ${result.firstResultMs.median.toFixed(0)} ms (target < 300), ` +
  `${result.firstResultToFrameMs.median.toFixed(0)} ms to the frame that shows it; ` +
  `1,000-row recompute: ${result.recompute1000RowsMs.median.toFixed(1)} ms median, ` +
  `${result.recompute1000RowsEveryValueChangesMs.median.toFixed(1)} ms when every DCG changes (target < 16), ` +
  `of which the core ${result.explain1000RowsMs.median.toFixed(1)} ms; to the frame that shows it: ` +
  `${result.recompute1000RowsToFrameMs.median.toFixed(1)} ms (max ${result.recompute1000RowsToFrameMs.max.toFixed(1)}), ` +
  `${result.recompute1000RowsEveryValueChangesToFrameMs.median.toFixed(1)} ms when every DCG changes (max ${result.recompute1000RowsEveryValueChangesToFrameMs.max.toFixed(1)}); ` +
  `the box's text replaced with no update, to its frame: ${result.boxOnlyToFrameMs.median.toFixed(1)} ms (max ${result.boxOnlyToFrameMs.max.toFixed(1)}); ` +
  `a keystroke: ${result.keystroke1000RowsMs.median.toFixed(1)} ms of script (max ${result.keystroke1000RowsMs.max.toFixed(1)}), ` +
  `${result.keystroke1000RowsToFrameMs.median.toFixed(1)} ms to its frame (max ${result.keystroke1000RowsToFrameMs.max.toFixed(1)})`);
await browser.close();
