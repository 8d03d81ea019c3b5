// Drives a running JupyterLab in Debian Chromium through playwright-core: opens a notebook, runs
// every cell (Run All Cells), waits until each code cell has run, saves it, and prints one JSON
// line about what the page shows (cells, charts with marks, error outputs). tests/test_browser.py
// starts the server, runs this, and checks the line and the saved notebook.
//
//   JUPYTER_TOKEN=… node run_lab.mjs BASE_URL NOTEBOOK SCREENSHOT [TIMEOUT_SECONDS]
// playwright-core lives where setup/setup.sh installed it: COURSE_BROWSER_TOOLS (build/tools/browser).
import { createRequire } from 'node:module';

const { chromium } = createRequire(`${process.env.COURSE_BROWSER_TOOLS}/`)('playwright-core');

const [base, notebook, screenshot, timeoutText = '600'] = process.argv.slice(2);
const token = process.env.JUPYTER_TOKEN;  // from the environment: a command line is every user's to read
const timeout = Number(timeoutText) * 1000;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  // the flags that keep a headless Chromium quiet and working in a container (TOOLCHAIN-FACTS)
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(`${base}/lab/tree/${notebook}?reset&token=${token}`);
  await page.locator('.jp-Notebook .jp-CodeCell').first().waitFor({ state: 'attached', timeout: 60000 });
  // the kernel must be ready before "Run All" (otherwise the first cells queue behind its start)
  await page.locator('.jp-Notebook-ExecutionIndicator[data-status="idle"]').first().waitFor({ state: 'attached', timeout: 120000 });
  // Run ▸ Run All Cells acts on the current notebook: wait until ours is loaded and its kernel ready,
  // make it current, then run the command (the server exposes the app: --LabApp.expose_app_in_browser)
  const started = await page.evaluate(async (path) => {
    const app = window.jupyterapp;
    const panel = [...app.shell.widgets('main')].find(w => w.context && w.context.path === path);
    if (!panel) return false;
    await panel.context.ready;
    await panel.sessionContext.ready;
    app.shell.activateById(panel.id);
    await app.commands.execute('notebook:run-all-cells');
    return true;
  }, notebook);
  if (!started) throw new Error(`${notebook} is not open in JupyterLab`);
  // done when no cell waits any more ([*]:): all have run, or the run stopped at an error ([ ]: below it)
  await page.waitForFunction(() => {
    const prompts = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')].map(p => p.textContent.trim());
    return /^\[\d+\]:$/.test(prompts[0] ?? '') && !prompts.includes('[*]:');
  }, null, { timeout, polling: 500 }).catch(async (e) => {
    await page.screenshot({ path: screenshot });  // what the page showed when it gave up
    throw e;
  });
  await page.evaluate(() => window.jupyterapp.commands.execute('docmanager:save'));
  await page.locator('.jp-Notebook .vega-embed').first().waitFor({ state: 'attached', timeout: 30000 }).catch(() => {});
  await page.waitForTimeout(2000);  // charts draw asynchronously after their element appears
  const report = await page.evaluate(() => {
    const charts = [...document.querySelectorAll('.jp-Notebook .vega-embed')];
    const withMarks = charts.filter(c => c.querySelector('svg .mark-line, svg .mark-rect, svg .mark-symbol, svg .mark-area, svg .mark-rule')
      || [...c.querySelectorAll('canvas')].some(k => k.width > 0 && k.height > 0));
    const prompts = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')].map(p => p.textContent.trim());
    return {
      codeCells: prompts.length,
      notRun: prompts.filter(p => !/^\[\d+\]:$/.test(p)).length,
      charts: charts.length,
      chartsWithMarks: withMarks.length,
      // errors and anything written to stderr render as this type
      // lab.keep()'s link, as JupyterLab resolved it
      downloads: [...document.querySelectorAll('.jp-Notebook .jp-OutputArea-output a[download]')].map(a => a.getAttribute('href')),
      stderr: [...document.querySelectorAll('.jp-Notebook .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')]
        .map(o => o.textContent.slice(0, 300)),
    };
  });
  // what a learner's JupyterLab offers: nbgrader's menu or panels (teacher tools), and the kernels in the launcher
  const menus = await page.locator('#jp-MainMenu .lm-MenuBar-itemLabel').allTextContents();
  report.menus = menus;
  report.nbgraderElements = await page.evaluate(() => document.querySelectorAll('[id*="nbgrader" i], [class*="nbgrader" i]').length);
  const launcherTab = await page.evaluate(async () => (await window.jupyterapp.commands.execute('launcher:create')).id);
  await page.locator('.jp-Launcher .jp-LauncherCard').first().waitFor({ state: 'attached', timeout: 30000 });
  report.launcherNotebooks = await page.locator('.jp-Launcher .jp-LauncherCard[data-category="Notebook"]').allTextContents();
  await page.evaluate((id) => [...window.jupyterapp.shell.widgets('main')].find(w => w.id === id)?.close(), launcherTab);
  await page.evaluate(() => {  // a chart in the picture: scroll the notebook to the first chart's cell
    const chart = document.querySelector('.jp-Notebook .vega-embed');
    const notebook = document.querySelector('.jp-WindowedPanel-outer') || document.querySelector('.jp-NotebookPanel-notebook');
    if (chart && notebook) notebook.scrollTop += chart.getBoundingClientRect().top - notebook.getBoundingClientRect().top - 100;
  });
  await page.waitForTimeout(500);
  await page.screenshot({ path: screenshot, fullPage: false });
  console.log(JSON.stringify(report));
} finally {
  await browser.close();
}
