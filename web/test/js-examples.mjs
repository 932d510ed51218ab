// The JavaScript capture package's example pages (js/examples/) in headless Chromium, as a
// game developer meets them: served from js/ as `python3 -m http.server` serves it,
//
//   node web/test/js-examples.mjs COLLIDOSCOPE SITE [--shots DIR]
//
// COLLIDOSCOPE is the binary that judges what the pages wrote; SITE is web/build.sh's folder
// (collidoscope's own page, which opens the downloaded capture). Checked: the download page
// runs 120 steps and its download is a capture `diagnose` reads (every claim agreeing, the
// seam named); collidoscope's page opens that file dropped on it; the streaming page streams
// 120 steps over the browser's own WebSocket to `collidoscope diagnose --listen`, which judges
// them as the file. No console error on any page.
import { chromium } from "playwright-core";
import { createServer } from "node:http";
import { readFile, mkdir, mkdtemp } from "node:fs/promises";
import { rmSync } from "node:fs";
import { execFileSync, spawn } from "node:child_process";
import { extname, join, resolve, dirname } from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const at = args.indexOf("--shots");
const shots = at >= 0 ? args.splice(at, 2)[1] : null;
if (args.length !== 2) {
  console.error("usage: node web/test/js-examples.mjs COLLIDOSCOPE SITE [--shots DIR]");
  process.exit(2);
}
const [binary, site] = args.map((a) => resolve(a));
const repository = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const folder = join(repository, "js");
if (shots) await mkdir(shots, { recursive: true });
const scratch = await mkdtemp(join(tmpdir(), "collidoscope-js-examples-"));
// The examples' captures go with the run, however it ends.
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));

const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
function serve(root) {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, "http://x").pathname);
    const file = join(root, path.endsWith("/") ? `${path}index.html` : path);
    if (!file.startsWith(root)) return response.writeHead(403).end();
    try {
      const body = await readFile(file);
      response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done(server)));
}
const servers = [await serve(folder), await serve(site)];
const [examples, web] = servers.map((s) => `http://127.0.0.1:${s.address().port}/`);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-background-networking", "--no-first-run"],
});
let failures = 0;
let passes = 0;
function check(ok, what, detail = "") {
  if (ok) {
    passes += 1;
    console.log(`ok   ${what}`);
  } else {
    failures += 1;
    console.log(`FAIL ${what}${detail ? `: ${detail}` : ""}`);
  }
}
async function open(url, { width = 1280, height = 800 } = {}) {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width, height }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  return { page, context, errors };
}
function diagnose(file) {
  try {
    return JSON.parse(execFileSync(binary, ["diagnose", "--json", file]).toString());
  } catch (e) {
    return JSON.parse(e.stdout.toString());
  }
}

// The download page: 120 steps, then a capture to download.
{
  const { page, context, errors } = await open(`${examples}examples/matter-download.html?steps=120`);
  await page.waitForSelector("body[data-done=true]", { timeout: 60_000 });
  check((await page.textContent("#status")) === "120 steps captured", "download page: 120 steps run and captured");
  if (shots) await page.screenshot({ path: join(shots, "matter-download-1280x800.png") });
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
  const file = join(scratch, download.suggestedFilename());
  await download.saveAs(file);
  check(download.suggestedFilename() === "matter-tiles.capture.jsonl", "download page: the file is named as a capture", download.suggestedFilename());
  const report = diagnose(file);
  check(report.frames?.length === 120 && report.engine?.name === "matter-js", "download page: diagnose reads the download, 120 frames of matter-js", JSON.stringify(report).slice(0, 300));
  check(report.claims > 0 && report.agreeing === report.claims, "download page: every claim agrees", `${report.agreeing} of ${report.claims}`);
  check((report.events ?? []).some((e) => e.kind === "seam" && e.caught), "download page: the crate caught on a seam is named");
  check(errors.length === 0, "download page: no console error", errors.join(" | "));
  await context.close();

  // collidoscope's own page opens the downloaded capture, dropped on it.
  const opened = await open(web);
  await opened.page.waitForFunction(() => (document.getElementById("collidoscope-state")?.textContent ?? "").length > 0, null, { timeout: 90_000 });
  const bytes = [...(await readFile(file))];
  await opened.page.evaluate(async ([name, data]) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(data)], name));
    const canvas = document.querySelector("canvas");
    for (const type of ["dragenter", "dragover", "drop"]) {
      canvas.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
  }, [download.suggestedFilename(), bytes]);
  // The capture lab opened on it: what it says is the page's state.
  const said = await opened.page
    .waitForFunction(() => {
      const m = document.getElementById("collidoscope-state")?.textContent ?? "";
      return /matter-tiles\.capture\.jsonl: 120 frames/.test(m) ? m : null;
    }, null, { timeout: 30_000 })
    .then((h) => h.jsonValue())
    .catch(() => opened.page.textContent("#collidoscope-state"));
  check(/matter-tiles\.capture\.jsonl: 120 frames, \d+ claims: (\d+) agree, 0 disagree/.test(String(said)), "collidoscope's page opens the downloaded capture, dropped on it, in the capture lab", `state: ${said}`);
  await opened.page.waitForTimeout(800);
  if (shots) await opened.page.screenshot({ path: join(shots, "web-opens-matter-capture-1280x800.png") });
  check(opened.errors.length === 0, "collidoscope's page: no console error", opened.errors.join(" | "));
  await opened.context.close();
}

// The streaming page: the browser's own WebSocket to diagnose --listen.
{
  const listening = spawn(binary, ["diagnose", "--listen", "0", "--json", "--idle", "60"]);
  let stdout = "";
  let stderr = "";
  listening.stdout.on("data", (d) => (stdout += d));
  const port = await new Promise((done, fail) => {
    listening.stderr.on("data", (d) => {
      stderr += d;
      const m = stderr.match(/127\.0\.0\.1:(\d+)/);
      if (m) done(Number(m[1]));
    });
    listening.on("exit", () => fail(new Error(stderr)));
  });
  const ended = new Promise((done) => listening.on("exit", done));
  const { page, context, errors } = await open(`${examples}examples/matter-stream.html?port=${port}&steps=120`);
  await page.waitForSelector("body[data-done]", { timeout: 60_000 });
  check((await page.getAttribute("body", "data-done")) === "true", "stream page: 120 steps streamed", await page.textContent("#status"));
  const status = await Promise.race([ended, new Promise((done) => setTimeout(() => done("timeout"), 30_000))]);
  const summary = stdout.trim() ? JSON.parse(stdout.trim().split("\n").at(-1)) : {};
  check(status === 1 && summary.engine?.name === "matter-js" && summary.claims > 0, "stream page: diagnose --listen judged the stream and ended with it", `status ${status}, ${stdout.slice(-300)} ${stderr}`);
  check(summary.agreeing === summary.claims && (summary.events ?? []).some((e) => e.kind === "seam"), "stream page: every claim agrees, the seam named", `${summary.agreeing} of ${summary.claims}`);
  check(/matter-js 0\.20\.0 connected/.test(stderr), "stream page: the listener says who connected", stderr);
  check(errors.length === 0, "stream page: no console error", errors.join(" | "));
  await context.close();
  listening.kill();
}

await browser.close();
for (const s of servers) s.close();
console.log(`js example checks: ${passes} passed, ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
