// collidoscope's web page in headless Chromium, as a user meets it:
//
//   node web/test/page.mjs SITE [--lesson-page DIR] [--static-lesson DIR] [--shots DIR]
//
// SITE is web/build.sh's folder. It is served here on 127.0.0.1 (a port the system picks) and
// opened in Debian's Chromium (/usr/bin/chromium, or $CHROMIUM) through playwright-core. The
// window keeps the page's title and a #collidoscope-state element (what the pair says; the
// status bar's message in data-message) in sync, which is what is read here.
//
// Checked: no console error or uncaught exception on any page; the default scene drawn; a
// mouse drag of the ball changes the verdict; Right steps the SAT test; Copy link carries the
// scene, the lab, the pair and the view to a new page; every built-in lesson opens from
// ?lesson=NAME (and &slide=2), and the address follows the slide; a bad link says what is
// wrong over the default scene, and still does after a drag; ?example=NAME; a phone held upright (390x844)
// with a touch drag, and worked by a finger: a drag scrolling the panel, the shapes list a tap
// away, the presenter's buttons in place from step to step; the projector look kept across a
// reload; with --lesson-page, an interactive lesson page (a drag, then R); and, with
// --static-lesson, the page `lesson export` writes (one picture at a time; Right, or a tap on
// Next, shows the next step). Every page fetches the wasm compressed (pkg/*.wasm.gz).
// With --shots, screenshots of each at 1280x800 and 390x844.
import { chromium } from "playwright-core";
import { createServer } from "node:http";
import { readFile, readdir, mkdir } from "node:fs/promises";
import { extname, join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateRawSync } from "node:zlib";

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  if (at < 0) return null;
  const value = args[at + 1];
  args.splice(at, 2);
  return value;
};
const shots = option("--shots");
const lessonPage = option("--lesson-page");
const staticLesson = option("--static-lesson");
if (args.length !== 1) {
  console.error("usage: node web/test/page.mjs SITE [--lesson-page DIR] [--static-lesson DIR] [--shots DIR]");
  process.exit(2);
}
const site = resolve(args[0]);
const repository = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
if (shots) await mkdir(shots, { recursive: true });

// A static server for one folder, with the types a browser wants (.wasm's above all), that
// compresses nothing (as python3 -m http.server): what it sent is kept in `served`.
const served = [];
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
function serve(folder) {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, "http://x").pathname);
    const file = join(folder, path.endsWith("/") ? path + "index.html" : path);
    if (!file.startsWith(folder)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      served.push({ path, bytes: body.length });
      response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done(server)));
}

const servers = [];
async function address(folder) {
  const server = await serve(folder);
  servers.push(server);
  return `http://127.0.0.1:${server.address().port}/`;
}
const base = await address(site);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
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

// A page at `url`, once the window has drawn and said something; the errors it logs gathered.
async function open(url, { width = 1280, height = 800, touch = false, clipboard = false, downloads = false } = {}) {
  const context = await browser.newContext({
    acceptDownloads: downloads,
    viewport: { width, height },
    hasTouch: touch,
    isMobile: touch,
    deviceScaleFactor: 1,
  });
  if (clipboard) {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(url).origin });
  }
  const page = await context.newPage();
  const errors = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(
    () => (document.getElementById("collidoscope-state")?.textContent ?? "").length > 0
      || getComputedStyle(document.getElementById("collidoscope-problem")).display !== "none",
    null,
    { timeout: 90_000 },
  );
  // A few frames more: the fit, the first messages.
  await page.waitForTimeout(700);
  return { page, context, errors };
}
const state = (page) => page.textContent("#collidoscope-state");
const message = async (page) => (await page.getAttribute("#collidoscope-state", "data-message")) ?? "";
async function settled(page, before, timeout = 5000) {
  await page
    .waitForFunction((b) => document.getElementById("collidoscope-state").textContent !== b, before, { timeout })
    .catch(() => {});
  return state(page);
}
async function drag(page, from, to) {
  await page.mouse.move(...from);
  await page.mouse.down();
  for (let k = 1; k <= 12; k += 1) {
    await page.mouse.move(from[0] + ((to[0] - from[0]) * k) / 12, from[1] + ((to[1] - from[1]) * k) / 12);
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
}
async function shot(page, name) {
  if (shots) await page.screenshot({ path: join(shots, name) });
}
// A finger on a touch screen (Chromium's touch events through `cdp`): put down at `from`,
// moved to `to` in 12 steps, lifted.
function fingerOf(cdp, page) {
  const touch = (type, x, y) => cdp.send("Input.dispatchTouchEvent", { type, touchPoints: type === "touchEnd" ? [] : [{ x, y, id: 1 }] });
  return async (from, to) => {
    await touch("touchStart", ...from);
    await page.waitForTimeout(30);
    if (from[0] !== to[0] || from[1] !== to[1]) {
      for (let k = 1; k <= 12; k += 1) {
        await touch("touchMove", from[0] + ((to[0] - from[0]) * k) / 12, from[1] + ((to[1] - from[1]) * k) / 12);
        await page.waitForTimeout(16);
      }
    }
    await touch("touchEnd");
    await page.waitForTimeout(500);
  };
}
// The grey levels of `box` in a screenshot (PNG), row by row, decoded in the page.
async function grey(page, png, box) {
  return page.evaluate(async ({ data, x, y, width, height }) => {
    const image = await createImageBitmap(await (await fetch(`data:image/png;base64,${data}`)).blob());
    const canvas = new OffscreenCanvas(image.width, image.height);
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    const rgba = context.getImageData(x, y, width, height).data;
    const levels = [];
    for (let k = 0; k < rgba.length; k += 4) levels.push((rgba[k] + rgba[k + 1] + rgba[k + 2]) / 3);
    return levels;
  }, { data: png.toString("base64"), ...box });
}
// How far the picture in `box` moved up between two screenshots: the shift that lines their
// rows up best (0 when it did not move).
async function shiftUp(page, before, after, box, most = 250) {
  const [a, b] = [await grey(page, before, box), await grey(page, after, box)];
  const w = box.width;
  let best = 0;
  let least = Infinity;
  for (let dy = 0; dy <= Math.min(most, box.height - 40); dy += 1) {
    let cost = 0;
    const rows = box.height - dy;
    for (let r = 0; r < rows; r += 1) for (let c = 0; c < w; c += 2) cost += Math.abs(a[(r + dy) * w + c] - b[r * w + c]);
    if (cost / rows < least) [least, best] = [cost / rows, dy];
  }
  return best;
}
// How many pixels of `box` differ between two screenshots.
async function differing(page, one, other, box) {
  const [a, b] = [await grey(page, one, box), await grey(page, other, box)];
  return a.filter((v, k) => Math.abs(v - b[k]) > 2).length;
}
// The mean grey level of `box` in a screenshot (0 black, 255 white).
async function brightness(page, png, box) {
  const levels = await grey(page, png, box);
  return Math.round(levels.reduce((s, v) => s + v, 0) / levels.length);
}
async function close({ context, errors }, what) {
  check(errors.length === 0, `${what}: no console error`, errors.join(" | "));
  await context.close();
}

// 1. The default scene, dragged with the mouse, stepped with Right, shared by Copy link.
{
  const opened = await open(base, { clipboard: true });
  const { page } = opened;
  const verdict = await state(page);
  check(await page.title() === "untitled - collidoscope", "default: the title", await page.title());
  check(verdict.startsWith("Intersecting"), "default: the scene's pair intersects", verdict);
  const canvas = await page.locator("#collidoscope-canvas").screenshot();
  check(canvas.length > 20_000, "default: the scene is drawn", `${canvas.length} bytes of PNG`);
  await shot(page, "default-1280x800.png");
  // The ball (at 555,352 in a 1280x800 page) dragged into the empty lower left.
  await drag(page, [555, 352], [300, 690]);
  const dragged = await settled(page, verdict);
  check(dragged.startsWith("Separated"), "a mouse drag of the ball changes the verdict", dragged);
  await page.keyboard.press("ArrowRight");
  const stepped = await settled(page, dragged);
  check(/^Axis 1 of \d+: /.test(stepped), "Right steps the SAT test to axis 1", stepped);
  // egui draws its buttons on the canvas: Copy link is the file row's last button.
  await page.mouse.click(552, 35);
  await page.waitForTimeout(300);
  const link = await page.evaluate(() => navigator.clipboard.readText()).catch((e) => `(clipboard: ${e})`);
  check(link.startsWith(base + "?scene="), "Copy link puts a link with the scene on the clipboard", link.slice(0, 80));
  check((await message(page)).startsWith("copied a link"), "Copy link says so", await message(page));
  await close(opened, "default page");
  if (link.startsWith("http")) {
    const shared = await open(link);
    const again = await state(shared.page);
    check(again === dragged, "the link opens the same scene (the same verdict, to the digit)", `${again} / ${dragged}`);
    await close(shared, "a shared scene");
  }
}

// Copy link carries what the window shows: the pair zoomed on (G) and the wheel turned, in
// the pair lab; the link opens a page showing the same lab, pair and view (the same picture
// of the scene, pixel for pixel) with the same verdict.
{
  const opened = await open(base, { clipboard: true });
  const { page } = opened;
  await page.keyboard.press("g");
  await page.mouse.move(640, 420);
  await page.mouse.wheel(0, -240);
  await page.waitForTimeout(400);
  await page.mouse.click(552, 35);
  await page.waitForTimeout(300);
  const link = await page.evaluate(() => navigator.clipboard.readText()).catch((e) => `(clipboard: ${e})`);
  check(/\?scene=[^&]+&lab=pair&pair=\d+,\d+&view=[-\d.e]+,[-\d.e]+,[\d.e]+$/.test(link), "Copy link carries the lab, the pair and the view", link.slice(-60));
  const said = await state(page);
  // The scene view's middle: the same lab, pair and view draw the same picture.
  const middle = { x: 420, y: 120, width: 440, height: 520 };
  const picture = await page.screenshot({ clip: middle });
  await close(opened, "a view copied");
  if (link.startsWith("http")) {
    const shared = await open(link);
    check((await state(shared.page)) === said, "the link opens the same pair (the same verdict)", `${await state(shared.page)} / ${said}`);
    const again = await shared.page.screenshot({ clip: middle });
    check(Buffer.compare(again, picture) === 0, "the link opens the same lab and view (the scene drawn pixel for pixel the same)");
    if (shots) {
      await shot(shared.page, "link-view-1280x800.png");
    }
    await close(shared, "a view shared");
  }
}

// Every lab, from its tab (the top bar at 1280x800): drawn, and nothing stops the window (a
// lab that would need files or threads says so instead).
{
  const opened = await open(base);
  const { page } = opened;
  for (const [name, x] of [["Broad phase", 346], ["Motion lab", 425], ["Casts", 485], ["Latency lab", 544], ["Capture lab", 623], ["Pair lab", 278]]) {
    await page.mouse.click(x, 12);
    await page.waitForTimeout(800);
    const stopped = await page.textContent("#collidoscope-problem");
    check(stopped === "", `${name}: shown, the window running`, stopped);
    if (name === "Motion lab") {
      await page.keyboard.press("Space");
      await page.waitForTimeout(1000);
      await shot(page, "motion-1280x800.png");
    }
    if (name === "Capture lab") await shot(page, "capture-1280x800.png");
  }
  await close(opened, "every lab");
}

// A capture dropped on the page opens in the capture lab, read and judged in memory on the
// page's one thread.
{
  const opened = await open(base, { downloads: true });
  const { page } = opened;
  const text = await readFile(join(repository, "tests/captures/seam.capture.jsonl"), "utf8");
  await page.evaluate((text) => {
    const dropped = new DataTransfer();
    dropped.items.add(new File([text], "seam.capture.jsonl", { type: "application/json" }));
    const canvas = document.getElementById("collidoscope-canvas");
    for (const type of ["dragenter", "dragover", "drop"]) {
      canvas.dispatchEvent(new DragEvent(type, { dataTransfer: dropped, bubbles: true, cancelable: true }));
    }
  }, text);
  await page
    .waitForFunction(() => /^(opened the capture|judged every claim of) /.test(document.getElementById("collidoscope-state").getAttribute("data-message") ?? ""), null, { timeout: 15_000 })
    .catch(() => {});
  // Opened, then (read whole on the page's thread) judged: either may be the message shown.
  const said = await message(page);
  check(
    said.startsWith("opened the capture seam.capture.jsonl")
      || said.startsWith("judged every claim of seam.capture.jsonl: 4 frames, 4 claims: 3 agree, 1 disagree"),
    "a capture dropped on the page opens in the capture lab, judged",
    said,
  );
  await page.waitForTimeout(1000);
  check((await page.textContent("#collidoscope-problem")) === "", "the capture lab runs on the page's thread");
  await shot(page, "capture-dropped-1280x800.png");
  // Its frame's fixture saves as a download (the capture lab's Export fixture of this frame).
  const downloading = page.waitForEvent("download", { timeout: 10_000 }).catch(() => null);
  await page.mouse.click(995, 176);
  const download = await downloading;
  check(download?.suggestedFilename() === "seam-frame-2.json", "a frame's fixture downloads", download?.suggestedFilename() ?? "no download");
  const saved = download ? JSON.parse(await readFile(await download.path(), "utf8")) : {};
  check(saved.format === "collidoscope-shapes" && (saved.expect ?? []).length >= 1 && saved.claims?.length === 1, "the fixture pins the frame's claimed pair", `expect ${saved.expect?.length}, claims ${saved.claims?.length}`);
  // Compare with a capture... (under the export row): the page's picker gives a second run,
  // the crate 0.01 further right at frame 3, compared with the first on the page's thread.
  // (A click egui takes in the frame a download ended can go unseen: a second click, as a
  // person would give, after a pause.)
  let picker = null;
  for (let attempt = 0; attempt < 3 && picker === null; attempt += 1) {
    const picking = page.waitForEvent("filechooser", { timeout: 5_000 }).catch(() => null);
    await page.mouse.move(960, 208);
    await page.waitForTimeout(200);
    await page.mouse.click(960, 208);
    picker = await picking;
    if (picker === null) console.log(`(the picker did not open at click ${attempt + 1})`);
  }
  if (picker === null) await shot(page, "capture-no-picker-1280x800.png");
  check(picker !== null, "Compare with a capture... opens the page's picker");
  if (picker) {
    const moved = text.replace('"frame":3,"time":0.05,"shapes":[{"id":2,"position":[-0.25,0.49]}]', '"frame":3,"time":0.05,"shapes":[{"id":2,"position":[-0.24,0.49]}]');
    await picker.setFiles({ name: "seam-b.capture.jsonl", mimeType: "application/json", buffer: Buffer.from(moved) });
    await page
      .waitForFunction(() => /^compared: /.test(document.getElementById("collidoscope-state").getAttribute("data-message") ?? ""), null, { timeout: 15_000 })
      .catch(() => {});
    const compared = await message(page);
    check(compared.startsWith("compared: the runs part at frame 3"), "a second capture picked is compared with the first, and shown where they part", compared);
    check((await page.textContent("#collidoscope-problem")) === "", "comparing runs on the page's thread");
    await shot(page, "capture-compared-1280x800.png");
  }
  await close(opened, "a dropped capture");
}

// 2. Every built-in lesson from a link, at slide 1 and slide 2.
{
  const names = (await readdir(join(repository, "lessons"))).filter((n) => n.endsWith(".json")).map((n) => n.slice(0, -5));
  check(names.length >= 7, "the built-in lessons are found", names.join(", "));
  for (const name of names) {
    for (const slide of [null, 2]) {
      const query = slide ? `?lesson=${name}&slide=${slide}` : `?lesson=${name}`;
      const opened = await open(base + query);
      const title = await opened.page.title();
      check(title.includes(`: slide ${slide ?? 1} (presenting)`), `${query} opens slide ${slide ?? 1}`, title);
      if (name === "sat-polygons" && !slide) await shot(opened.page, "lesson-1280x800.png");
      await close(opened, query);
    }
  }
}

// The address follows the lesson's slide: Right past slide 1's steps puts slide=2 in it, and a
// reload opens slide 2.
{
  const opened = await open(base + "?lesson=sat-polygons");
  const { page } = opened;
  for (let k = 0; k < 30 && !(await page.title()).includes(": slide 2 "); k += 1) {
    await page.keyboard.press("ArrowRight");
    await page.waitForTimeout(150);
  }
  await page.waitForTimeout(300);
  const url = page.url();
  check(url === base + "?lesson=sat-polygons&slide=2", "presenting: Right to slide 2 puts slide=2 in the address", url);
  await page.reload();
  await page.waitForFunction(() => document.title.includes("(presenting)"), null, { timeout: 90_000 });
  check((await page.title()).includes(": slide 2 (presenting)"), "presenting: a reload opens the same slide", await page.title());
  await close(opened, "the address following a slide");
}

// 3. Bad links, and an example.
for (const [query, words] of [
  ["?lesson=nope", "not a built-in lesson"],
  ["?lesson=sat-polygons&slide=99", "the lesson has 6"],
  ["?example=nope", "not one of the built-in examples"],
  ["?scene=AAAA", "the link"],
  ["?colour=red", "`colour` is not one"],
]) {
  const opened = await open(base + query);
  const said = await message(opened.page);
  check(said.startsWith("This link could not be opened") && said.includes(words), `${query}: says what is wrong`, said);
  if (query === "?lesson=nope") {
    // The whole message, every lesson name, stays through a drag of the ball.
    await shot(opened.page, "bad-link-1280x800.png");
    const before = await state(opened.page);
    await drag(opened.page, [555, 352], [300, 690]);
    const after = await settled(opened.page, before);
    check(after !== before, "a bad link: the ball dragged", after);
    const kept = await message(opened.page);
    check(kept === said && kept.includes("sat-polygons"), "a bad link: its whole message stays after a drag", kept);
    await shot(opened.page, "bad-link-dragged-1280x800.png");
  }
  if (!query.includes("lesson")) {
    check((await state(opened.page)).startsWith("Intersecting"), `${query}: the default scene is shown`, await state(opened.page));
  }
  await close(opened, query);
}
{
  const opened = await open(base + "?example=ghost-bumps");
  const said = await message(opened.page);
  check(said.startsWith("opened the example Ghost bumps"), "?example=ghost-bumps opens it", said);
  await close(opened, "?example=ghost-bumps");
}

// 4. A phone held upright: the scene on top, the panel under it; a touch drag moves the ball.
{
  const opened = await open(base, { width: 390, height: 844, touch: true });
  const { page } = opened;
  await shot(page, "default-390x844.png");
  const before = await state(page);
  const cdp = await opened.context.newCDPSession(page);
  const touch = (type, x, y) => cdp.send("Input.dispatchTouchEvent", {
    type,
    touchPoints: type === "touchEnd" ? [] : [{ x, y, id: 1 }],
  });
  // The ball is at 215,240 in the phone's layout; the lower right of the scene is empty.
  await touch("touchStart", 215, 240);
  for (let k = 1; k <= 12; k += 1) {
    await touch("touchMove", 215 + (115 * k) / 12, 240 + (180 * k) / 12);
    await page.waitForTimeout(16);
  }
  await touch("touchEnd");
  const after = await settled(page, before);
  check(after.startsWith("Separated"), "phone: a touch drag of the ball changes the verdict", after);
  const bad = await open(base + "?lesson=nope", { width: 390, height: 844, touch: true });
  await shot(bad.page, "bad-link-390x844.png");
  await close(bad, "phone bad link");
  const lesson = await open(base + "?lesson=sat-polygons", { width: 390, height: 844, touch: true });
  await shot(lesson.page, "lesson-390x844.png");
  await close(lesson, "phone lesson");
  await close(opened, "phone");
}

// 4b. A phone worked by a finger (issue 61): a drag on the panel under the scene scrolls it
// and selects no text; the shapes list and + Circle are a tap away; the presenter's buttons
// stay where the finger left them from step to step. And the projector look survives a
// reload. The window paints on a canvas, so these are read from its pixels.
{
  // Two octagons: 16 axes, more rows than the panel shows. The finger starts on the words
  // "Next walks the 16 axes..." and pushes them up 200 pixels.
  const octagon = (x) => ({ kind: "polygon", position: [x, 0], points: [...Array(8).keys()].map((k) => [2 * Math.cos((k * Math.PI) / 4 + 0.2), 2 * Math.sin((k * Math.PI) / 4 + 0.2)]) });
  const set = { format: "collidoscope-shapes", version: 1, shapes: [{ name: "left", ...octagon(-1) }, { name: "right", ...octagon(1.2) }] };
  const link = "?scene=" + deflateRawSync(Buffer.from(JSON.stringify(set))).toString("base64url");
  const opened = await open(base + link, { width: 390, height: 844, touch: true });
  const { page } = opened;
  const finger = fingerOf(await opened.context.newCDPSession(page), page);
  const panel = { x: 0, y: 470, width: 390, height: 300 };
  const before = await page.screenshot();
  await finger([100, 536], [100, 336]);
  await page.waitForTimeout(800);
  const after = await page.screenshot();
  await shot(page, "phone-panel-dragged-390x844.png");
  const moved = await shiftUp(page, before, after, panel);
  check(moved >= 100, "phone: a finger's drag on the panel scrolls it (not a text selection)", `moved ${moved} px of 200`);
  await close(opened, "phone panel");
}
{
  // The default scene: the Shapes half of the switch under the panel, then + Circle.
  const opened = await open(base, { width: 390, height: 844, touch: true });
  const { page } = opened;
  const finger = fingerOf(await opened.context.newCDPSession(page), page);
  // (The switch sits above the status bar, whose hint a phone shows whole on two lines.)
  await finger([100, 770], [100, 770]);
  await shot(page, "phone-shapes-390x844.png");
  await finger([37, 622], [37, 622]);
  await page.waitForTimeout(300);
  check((await page.title()).startsWith("*untitled"), "phone: the Shapes switch shows the shapes list, and + Circle adds one", await page.title());
  await close(opened, "phone shapes");
}
{
  // Next tapped three times (into slide 2's steps, to axis 3 of 7): Next, Restore and Exit
  // are drawn where they were, pixel for pixel.
  const opened = await open(base + "?lesson=sat-polygons", { width: 390, height: 844, touch: true });
  const { page } = opened;
  const finger = fingerOf(await opened.context.newCDPSession(page), page);
  const row = { x: 140, y: 0, width: 160, height: 26 };
  const first = await page.screenshot();
  for (let k = 1; k <= 3; k += 1) {
    await finger([161, 12], [161, 12]);
    const now = await page.screenshot();
    const changed = await differing(page, first, now, row);
    check(changed === 0, `phone presenter: Next, Restore and Exit in place after ${k} tap${k > 1 ? "s" : ""} of Next`, `${changed} pixels changed`);
  }
  check(/: slide 2 \(presenting\)/.test(await page.title()), "phone presenter: Next went on to slide 2", await page.title());
  await shot(page, "phone-lesson-stepped-390x844.png");
  await close(opened, "phone presenter");
}
{
  // L turns the projector look on (light); a reload keeps it.
  const opened = await open(base + "?lesson=sat-polygons");
  const { page } = opened;
  const scene = { x: 700, y: 120, width: 500, height: 500 };
  await page.keyboard.press("l");
  await page.waitForTimeout(500);
  const lit = await brightness(page, await page.screenshot(), scene);
  check(lit > 150, "L turns the projector look on", `brightness ${lit}`);
  await page.reload();
  await page.waitForFunction(() => (document.getElementById("collidoscope-state")?.textContent ?? "").length > 0, null, { timeout: 90_000 });
  await page.waitForTimeout(700);
  const again = await brightness(page, await page.screenshot(), scene);
  check(again > 150, "the projector look is kept across a reload", `brightness ${again}`);
  await shot(page, "projector-reloaded-1280x800.png");
  await close(opened, "projector reload");
}

// 5. An interactive lesson page (lesson export --interactive): its lesson opens at slide 1, a
// shape drags, R restores the slide.
if (lessonPage) {
  const opened = await open(await address(resolve(lessonPage)));
  const { page } = opened;
  const title = await page.title();
  check(title.includes(": slide 1 (presenting)"), "interactive lesson page: slide 1", title);
  const first = await state(page);
  // sat-polygons' first slide: the box at 803,402, dragged onto the wedge.
  await drag(page, [803, 402], [990, 390]);
  const moved = await settled(page, first);
  check(moved !== first, "interactive lesson page: a drag changes what the pair says", moved);
  await page.keyboard.press("r");
  const restored = await settled(page, moved);
  check(restored === first, "interactive lesson page: R restores the slide", restored);
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.waitForTimeout(300);
  await shot(page, "interactive-lesson-1280x800.png");
  await close(opened, "interactive lesson page");
  // Its address takes ?slide=K, and follows the slide.
  const lessonSite = await address(resolve(lessonPage));
  const third = await open(lessonSite + "?slide=3");
  const titled = await third.page.title();
  check(titled.includes(": slide 3 (presenting)"), "interactive lesson page: ?slide=3 opens slide 3", titled);
  await third.page.keyboard.press("End");
  await third.page.waitForTimeout(500);
  const last = await third.page.title();
  const slide = last.match(/: slide (\d+) /)?.[1];
  check(slide !== undefined && third.page.url() === `${lessonSite}?slide=${slide}`, "interactive lesson page: the address follows the slide", `${third.page.url()} (${last})`);
  await close(third, "interactive lesson page at slide 3");
}

// 6. What the pages downloaded from a server that compresses nothing: the wasm compressed
// (pkg/collidoscope_web_bg.wasm.gz, unpacked by the page), never the plain one.
{
  const wasm = served.filter((s) => s.path.includes("collidoscope_web_bg.wasm"));
  check(wasm.length > 0 && wasm.every((s) => s.path.endsWith(".wasm.gz")), "the pages fetch the wasm compressed", [...new Set(wasm.map((s) => s.path))].join(", "));
  const first = served.slice(0, served.findIndex((s) => s.path.endsWith(".wasm.gz")) + 1).reduce((n, s) => n + s.bytes, 0);
  check(first > 1e6 && first < 3e6, "a page downloads less than 3 MB", `${(first / 1e6).toFixed(2)} MB`);
}

// 7. The lesson page `lesson export` writes (no WebAssembly: inline SVG and a small script): at
// a desk and on a phone, exactly one picture is shown, and Right (a tap on Next on the phone)
// shows the slide's next step in its place; past the last step, the next slide. On the phone a
// tap on a picture shows it at a size its labels can be read at.
if (staticLesson) {
  const site = await address(resolve(staticLesson));
  for (const [width, height, touch] of [[1280, 800, false], [390, 844, true]]) {
    const size = `${width}x${height}`;
    const context = await browser.newContext({ viewport: { width, height }, hasTouch: touch, isMobile: touch, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const errors = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(site);
    // Every picture the reader can see: "slide:step", with its height on the page.
    const shown = () => page.evaluate(() => Array.from(document.querySelectorAll("svg[data-step]"))
      .filter((svg) => svg.getBoundingClientRect().height > 0)
      .map((svg) => ({ at: `${svg.closest("section").dataset.slide}:${svg.dataset.step}`, height: Math.round(svg.getBoundingClientRect().height) })));
    const next = () => (touch ? page.tap("#next") : page.keyboard.press("ArrowRight"));
    // The first slide with more than one step (sat-polygons' second).
    const stepped = await page.evaluate(() => Array.from(document.querySelectorAll("section.slide"))
      .find((s) => s.querySelectorAll("svg[data-step]").length > 1)?.dataset.slide);
    check(stepped !== undefined, `lesson page ${size}: a slide steps through the test`);
    let pictures = await shown();
    check(pictures.length === 1 && pictures[0].at.startsWith("1:"), `lesson page ${size}: slide 1 shows one picture`, JSON.stringify(pictures));
    while (pictures.length === 1 && !pictures[0].at.startsWith(`${stepped}:`)) {
      await next();
      pictures = await shown();
    }
    const steps = await page.evaluate((k) => Array.from(document.querySelectorAll(`section[data-slide="${k}"] svg[data-step]`)).map((svg) => svg.dataset.step), stepped);
    check(pictures.length === 1 && pictures[0].at === `${stepped}:${steps[0]}`, `lesson page ${size}: slide ${stepped} opens on its first step alone`, JSON.stringify(pictures));
    const tall = await page.evaluate(() => document.documentElement.scrollHeight);
    check(tall <= 2 * height, `lesson page ${size}: the page is about a screen tall, not every step stacked`, `${tall} px`);
    await shot(page, `lesson-page-${size}.png`);
    await next();
    const after = await shown();
    check(after.length === 1 && after[0].at === `${stepped}:${steps[1]}`, `lesson page ${size}: ${touch ? "a tap on Next" : "Right"} shows the next step in its place`, JSON.stringify(after));
    await page.keyboard.press("ArrowLeft");
    const back = await shown();
    check(back.length === 1 && back[0].at === `${stepped}:${steps[0]}`, `lesson page ${size}: Left shows the step before`, JSON.stringify(back));
    if (touch) {
      // The phone shrinks a picture to its width, its labels to about 7 px: a tap on it shows
      // it at its full size (labels as in the window, 13 px), swiped sideways; Next keeps that
      // size; a second tap fits it again.
      const labels = () => page.evaluate(() => {
        const svg = Array.from(document.querySelectorAll("svg[data-step]")).find((s) => s.getBoundingClientRect().height > 0);
        const text = svg.querySelector("text");
        const box = svg.closest(".pictures");
        return {
          px: parseFloat(getComputedStyle(text).fontSize) * svg.getScreenCTM().a,
          sideways: box.scrollWidth > box.clientWidth + 1,
          said: svg.closest("section").querySelector(".enlarge").innerText,
          saidFits: svg.closest("section").querySelector(".enlarge").scrollWidth <= document.documentElement.clientWidth,
          caption: Array.from(svg.querySelectorAll("[data-caption] text")).map((t) => t.textContent).join(" "),
        };
      });
      const box = "section:not([hidden]) .pictures";
      const fitted = await labels();
      check(fitted.px < 9 && /Tap the picture/.test(fitted.said), `lesson page ${size}: a fitted picture's labels are small, and the page says a tap enlarges it`, JSON.stringify(fitted));
      await page.tap(box);
      const full = await labels();
      check(full.px >= 12 && full.sideways && /Swipe sideways/.test(full.said), `lesson page ${size}: a tap on the picture shows its labels at 12 px or more, swiped sideways`, JSON.stringify(full));
      // The picture's own caption scrolls sideways with it: the step's words stand under it,
      // fitted to the screen (the lecturer's third try).
      check(full.caption.length > 0 && full.said.includes(full.caption) && full.saidFits, `lesson page ${size}: at full size the step's caption stands under the picture, fitted to the screen`, JSON.stringify(full));
      await shot(page, `lesson-page-${size}-full.png`);
      await next();
      const kept = await labels();
      check(kept.px >= 12 && kept.said.includes(kept.caption), `lesson page ${size}: the next step keeps the full size, its own caption under it`, JSON.stringify(kept));
      await page.tap(box);
      const again = await labels();
      check(again.px < 9 && !again.sideways, `lesson page ${size}: a second tap fits the picture again`, JSON.stringify(again));
    }
    const footer = await page.evaluate(() => document.querySelector("footer").innerText);
    check(touch ? !/Right|Page Down|Space/.test(footer) && /Next/.test(footer) : /Right/.test(footer), `lesson page ${size}: the footer names what moves the slides ${touch ? "under a finger" : "at a desk"}`, footer);
    check(errors.length === 0, `lesson page ${size}: no console error`, errors.join(" | "));
    await context.close();
  }
}

await browser.close();
for (const server of servers) server.close();
console.log(`page tests: ${passes} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
