// axe-core (the field's accessibility engine) in Debian Chromium, on what the course shows: the report page whole, and
// the outputs of executed labs as JupyterLab draws them, in its light theme and its dark one. Prints one JSON line per
// page and theme: {page, theme, violations: [{id, impact, help, nodes: [{target, html}]}], undecided, passed}, WCAG 2.0, 2.1
// and 2.2 A and AA.
//
//   node axe.mjs report FILE.html
//   JUPYTER_TOKEN=… node axe.mjs lab BASE_URL NOTEBOOK...   (notebooks with their outputs, trusted)
// playwright-core and axe-core live where setup/setup.sh installed them: COURSE_BROWSER_TOOLS (build/tools/browser).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const tools = createRequire(`${process.env.COURSE_BROWSER_TOOLS}/`);
const { chromium } = tools('playwright-core');
const AXE = readFileSync(tools.resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];  // 2.2's AA adds target sizes
// where the course's output lies in JupyterLab: every output area (JupyterLab's own toolbar and panels are not the course's)
const OUTPUTS = '.jp-OutputArea-output';

const [mode, ...rest] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run'],
});

async function check(page, context) {
  await page.evaluate(AXE);
  const result = await page.evaluate(async ([ctx, tags]) => window.axe.run(ctx ?? document, { runOnly: { type: 'tag', values: tags } }),
    [context, TAGS]);
  return {
    violations: result.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map(n => ({ target: n.target.join(' '), html: n.html.slice(0, 200) })) })),
    // what axe could not decide (a colour over an image, say): counted by rule, for the reader of the test's output
    undecided: Object.fromEntries(result.incomplete.map(v => [v.id, v.nodes.length])),
    undecidedWhy: result.incomplete.map(v => `${v.id}: ${v.nodes[0].html.slice(0, 80)}: ${(v.nodes[0].any[0] || {}).message}`),
    passed: result.passes.reduce((sum, v) => sum + v.nodes.length, 0),
  };
}

try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  if (mode === 'report') {
    await page.goto(`file://${rest[0]}`);
    console.log(JSON.stringify({ page: rest[0], theme: 'page', ...await check(page, null) }));
  } else {
    const [base, ...notebooks] = rest;
    const token = process.env.JUPYTER_TOKEN;  // from the environment: a command line is every user's to read
    await page.goto(`${base}/lab?reset&token=${token}`);
    await page.waitForFunction(() => window.jupyterapp, null, { timeout: 120000 });
    await page.evaluate(() => window.jupyterapp.restored);  // every plugin's commands registered
    // JupyterLab's body is 0 px tall (its shell is positioned over it) and hides its overflow, which axe reads as the
    // "visually hidden" pattern and then skips every text's contrast: the body is given the window's height, which
    // changes nothing drawn
    await page.evaluate(() => { document.body.style.height = '100vh'; });
    const setTheme = async (theme) => {
      await page.evaluate(t => window.jupyterapp.commands.execute('apputils:change-theme', { theme: t }), theme);
      await page.waitForFunction(t => document.body.dataset.jpThemeName === t, theme, { timeout: 60000 });
      // JupyterLab covers the page with its splash screen while a theme loads, and takes it away a moment after: axe
      // could not see through it (once, under load, every contrast of the first notebook left undecided)
      await page.waitForFunction(() => !document.getElementById('jupyterlab-splash'), null, { timeout: 60000, polling: 100 });
      await page.waitForTimeout(300);  // its style sheet applied
    };
    // the theme changes once a notebook, the next one starting in the theme the last ended in
    let themes = ['JupyterLab Light', 'JupyterLab Dark'];
    await setTheme(themes[0]);
    for (const notebook of notebooks) {
      const id = await page.evaluate(async (path) => {
        // no kernel: the outputs are the saved run's, and nothing needs running
        const panel = await window.jupyterapp.commands.execute('docmanager:open',
          { path, factory: 'Notebook', kernelPreference: { shouldStart: false, canStart: false } });
        await panel.context.ready;
        window.jupyterapp.shell.activateById(panel.id);
        return panel.id;
      }, notebook);
      // every chart drawn (an empty chart element is one still drawing)
      await page.waitForFunction(() => {
        const charts = [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-RenderedVegaCommon5')];
        return document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output')
          && charts.every(c => c.querySelector('svg, canvas'));
      }, null, { timeout: 60000, polling: 250 });
      // a window as tall as the notebook: axe judges what is on screen, and a cell scrolled out of the notebook's own
      // pane would be left unjudged
      const tall = await page.evaluate((panelId) => document.querySelector(`#${panelId} .jp-WindowedPanel-inner`).scrollHeight, id);
      await page.setViewportSize({ width: 1400, height: Math.min(tall + 200, 32000) });
      await page.waitForTimeout(300);
      // each theme on the same drawing: the course's HTML takes the theme's colours at once, and a chart carries its
      // own (white, dark text) and is drawn on a canvas axe cannot read in either
      for (const theme of themes) {
        if (theme !== themes[0]) await setTheme(theme);
        console.log(JSON.stringify({ page: notebook, theme, ...await check(page, { include: [[`#${id} ${OUTPUTS}`]] }) }));
      }
      themes = themes.reverse();
      await page.setViewportSize({ width: 1400, height: 1000 });
      // disposed, not closed: JupyterLab marks a notebook it upgraded on opening as changed, and closing would ask
      // whether to save it, its dialog then lying over the next notebook
      await page.evaluate((panelId) => [...window.jupyterapp.shell.widgets('main')].find(w => w.id === panelId).dispose(), id);
    }
  }
} finally {
  await browser.close();
}
