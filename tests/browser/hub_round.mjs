// Drives the course hub in Debian Chromium through playwright-core, as its people use it. A learner logs in at the hub's
// login page, lands in their JupyterLab, opens the Assignments tab from the Nbgrader menu, fetches the lab, opens it,
// runs its first code cells and submits it. Then (after the test has graded) an instructor logs in and opens
// Formgrader's page of the lab's submissions, then one hand-in's page (HUB_SUBMISSION, its id), which carries script a
// learner planted: the report says whether it ran. Prints one JSON line of what the pages showed; screenshots each step.
//
//   HUB_PASSWORD=… node hub_round.mjs learner BASE_URL USER LAB CELLS SHOTS_FOLDER
//   HUB_PASSWORD=… node hub_round.mjs instructor BASE_URL USER LAB COURSE SHOTS_FOLDER
// playwright-core lives where setup/setup.sh installed it: COURSE_BROWSER_TOOLS (build/tools/browser).
import { createRequire } from 'node:module';

const { chromium } = createRequire(`${process.env.COURSE_BROWSER_TOOLS}/`)('playwright-core');

const [role, base, user, lab, extra, shots] = process.argv.slice(2);
const password = process.env.HUB_PASSWORD;  // from the environment: a command line is every user's to read
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const report = { role };
let loggingIn;  // when the login button was pressed
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
try {
  await page.goto(`${base}/hub/login`);
  await page.fill('#username_input', user);
  await page.fill('#password_input', password);
  loggingIn = Date.now();
  await page.click('#login_submit');
  if (role === 'learner') {
    await learner();
  } else {
    await instructor();
  }
} catch (e) {
  await page.screenshot({ path: `${shots}/hub-${role}-failed.png` });
  throw e;
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));

async function learner() {
  // the spawn page, then the learner's JupyterLab on their copy of lab 00
  await page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell').first().waitFor({ state: 'attached', timeout: 180000 });
  await page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator[data-status="idle"]').first()
    .waitFor({ state: 'attached', timeout: 120000 });
  report.secondsToLab = (Date.now() - loggingIn) / 1000;  // from the login button to lab 00 open, its kernel ready
  report.landed = new URL(page.url()).pathname;
  report.menus = await page.locator('#jp-MainMenu .lm-MenuBar-itemLabel').allTextContents();
  await page.locator('#jp-MainMenu .lm-MenuBar-itemLabel', { hasText: 'Nbgrader' }).click();
  report.nbgraderItems = (await page.locator('#jp-mainmenu-nbgrader .lm-Menu-itemLabel').allTextContents()).filter(t => t.trim());
  await page.locator('#jp-mainmenu-nbgrader .lm-Menu-itemLabel', { hasText: 'Assignment List' }).click();
  const released = page.locator('#released_assignments_list .list_item', { hasText: lab });
  await released.waitFor({ timeout: 60000 });
  await page.screenshot({ path: `${shots}/hub-learner-assignments.png` });
  await released.locator('button', { hasText: 'Fetch' }).click();
  const fetched = page.locator('#fetched_assignments_list .list_item', { hasText: lab });
  await fetched.first().waitFor({ timeout: 60000 });
  // the fetched copy, opened as a learner would from the file browser's path
  await page.goto(`${base}/user/${user}/lab/tree/${lab}/${lab}.ipynb`);
  const cells = page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell');
  await cells.first().waitFor({ state: 'attached', timeout: 60000 });
  await page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator[data-status="idle"]').first().waitFor({ state: 'attached', timeout: 120000 });
  report.firstCell = (await cells.first().locator('.jp-InputArea-editor').textContent()).slice(0, 60);
  await page.screenshot({ path: `${shots}/hub-learner-opened.png` });
  // into the first code cell, the lab's opening (a click while the notebook still settles can land elsewhere: checked)
  for (let tries = 0; tries < 10; tries++) {
    await cells.first().locator('.jp-InputArea-editor').click();
    await page.waitForTimeout(300);
    if (await cells.first().evaluate(cell => cell.classList.contains('jp-mod-active'))) break;
  }
  // Shift+Enter through the notebook (markdown cells render, code cells run) until its first code cells have run
  const ran = () => page.evaluate(() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt')]
    .filter(p => /^\[\d+\]:$/.test(p.textContent.trim())).length);
  const count = Number(extra);
  for (let presses = 0; presses < 40 && await ran() < count; presses++) {
    await page.keyboard.press('Shift+Enter');
    await page.waitForTimeout(300);
    await page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator[data-status="idle"]').first()
      .waitFor({ state: 'attached', timeout: 120000 });
  }
  await page.waitForFunction((n) => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt')]
    .filter(p => /^\[\d+\]:$/.test(p.textContent.trim())).length >= n, count, { timeout: 120000, polling: 500 });
  report.ran = await ran();
  report.firstRan = /^\[\d+\]:$/.test((await cells.first().locator('.jp-InputPrompt').textContent()).trim());
  report.kernel = (await page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-KernelName').first().textContent()).trim();
  // JupyterLab shows a cell's error (a compile error too) as stderr: any is counted
  report.errors = await page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"], '
    + '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]').count();
  report.outputs = (await page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output').allTextContents()).map(t => t.slice(0, 200));
  await page.keyboard.press('Control+s');
  await page.waitForTimeout(1000);
  await page.screenshot({ path: `${shots}/hub-learner-lab.png` });
  // submit from the Assignments tab
  await page.locator('#jp-MainMenu .lm-MenuBar-itemLabel', { hasText: 'Nbgrader' }).click();
  await page.locator('#jp-mainmenu-nbgrader .lm-Menu-itemLabel', { hasText: 'Assignment List' }).click();
  const row = page.locator('#fetched_assignments_list .list_item', { hasText: lab }).first();
  await row.waitFor({ timeout: 60000 });
  await row.locator('button', { hasText: 'Submit' }).click();
  await page.locator('#submitted_assignments_list .list_item', { hasText: lab }).first().waitFor({ timeout: 60000 });
  report.submitted = await page.locator('#submitted_assignments_list .list_item', { hasText: lab }).count();
  await page.screenshot({ path: `${shots}/hub-learner-submitted.png` });
}

async function instructor() {
  // an instructor's own server first (every hub user has one), then Formgrader, the course's hub service
  await page.locator('.jp-Launcher, .jp-Notebook').first().waitFor({ state: 'attached', timeout: 180000 });
  await page.goto(`${base}/services/${extra}/formgrader/manage_submissions/${lab}`);
  await page.locator('table').first().waitFor({ timeout: 60000 });
  await page.waitForTimeout(2000);  // the rows come from Formgrader's API after the page
  report.title = await page.title();
  report.rows = (await page.locator('table tbody tr').allTextContents()).map(t => t.replace(/\s+/g, ' ').trim());
  await page.screenshot({ path: `${shots}/hub-instructor-formgrader.png` });
  if (process.env.HUB_SUBMISSION) {
    // the hand-in's page: its planted script would set the title; the page's own scripts fill in the marks from the API
    await page.goto(`${base}/services/${extra}/formgrader/submissions/${process.env.HUB_SUBMISSION}/`);
    await page.locator('#notebook-container').first().waitFor({ timeout: 60000 });
    await page.waitForTimeout(3000);
    report.handInTitle = await page.title();
    report.ownScripts = await page.evaluate(() => typeof submission_id === 'string' && typeof $ === 'function');
    await page.screenshot({ path: `${shots}/hub-instructor-hand-in.png`, fullPage: true });
  }
}
