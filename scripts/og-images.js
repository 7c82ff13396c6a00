// Draws the shared-link pictures (Open Graph / Twitter, 1200x630) into public/og/, one per kind of
// page (app/lib/seo.ts OG_IMAGES): an HTML template per image, screenshotted by the system
// Chromium. The PNGs are committed; run `node scripts/og-images.js` again after changing a text.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "public", "og");
const WIDTH = 1200;
const HEIGHT = 630;

/** The site's colours (app/app.css): ink background, indigo primary, emerald and amber accents. */
const IMAGES = [
  {
    file: "site.png",
    eyebrow: "AI Automation Apps",
    title: "AI is the future.<br>Is your business ready?",
    lines: ["181 ready-made AI apps", "Packages to launch", "Free trial and live demo"],
  },
  {
    file: "apps.png",
    eyebrow: "Ready Made Apps",
    title: "181 AI apps across<br>22 industries",
    lines: ["Four ways to buy", "Rush in 24-48 hours", "3-day free trial"],
  },
  {
    file: "packages.png",
    eyebrow: "Packages & Pricing",
    title: "AI automation packages,<br>one-time or monthly",
    lines: ["Starter to Enterprise", "24-48 hour rush option", "3-day free trial"],
  },
  {
    file: "partners.png",
    eyebrow: "Earn With Us",
    title: "Partner with<br>AI Automation Apps",
    lines: ["30% affiliate commission", "Distributor territories", "Unlimited earnings"],
  },
];

function html({ eyebrow, title, lines }) {
  const items = lines.map((l) => `<li><span class="tick">✓</span>${l}</li>`).join("");
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    * { box-sizing: border-box; margin: 0; padding: 0; }
    body { width: ${WIDTH}px; height: ${HEIGHT}px; overflow: hidden; font-family: "DejaVu Sans", Arial, sans-serif;
      background: #0b1120; color: #fff; position: relative; }
    .glow { position: absolute; border-radius: 50%; filter: blur(90px); opacity: .55; }
    .g1 { width: 520px; height: 520px; background: #4338ca; right: -120px; top: -160px; }
    .g2 { width: 380px; height: 380px; background: #059669; right: 180px; bottom: -220px; opacity: .35; }
    .grid { position: absolute; inset: 0; background-image: linear-gradient(rgba(255,255,255,.05) 1px, transparent 1px),
      linear-gradient(90deg, rgba(255,255,255,.05) 1px, transparent 1px); background-size: 48px 48px; }
    main { position: absolute; inset: 72px 80px; display: flex; flex-direction: column; }
    .brand { display: flex; align-items: center; gap: 16px; font-size: 28px; font-weight: 700; }
    .logo { width: 56px; height: 56px; border-radius: 14px; background: #4338ca; display: grid; place-items: center;
      font-size: 26px; font-weight: 800; }
    .eyebrow { margin-top: 56px; display: inline-flex; align-self: flex-start; gap: 10px; align-items: center;
      border: 2px solid rgba(52,211,153,.45); background: rgba(52,211,153,.12); color: #a7f3d0; border-radius: 999px;
      padding: 8px 20px; font-size: 24px; font-weight: 600; }
    .dot { width: 12px; height: 12px; border-radius: 50%; background: #34d399; }
    h1 { margin-top: 24px; font-size: 64px; line-height: 1.1; font-weight: 800; letter-spacing: -1px; }
    ul { margin-top: auto; list-style: none; display: flex; gap: 36px; font-size: 24px; color: #cbd5e1; }
    li { white-space: nowrap; display: flex; align-items: center; gap: 10px; }
    .tick { color: #fbbf24; font-weight: 800; }
  </style></head><body>
    <div class="grid"></div><div class="glow g1"></div><div class="glow g2"></div>
    <main>
      <div class="brand"><div class="logo">AI</div>AI Automation Apps</div>
      <div class="eyebrow"><span class="dot"></span>${eyebrow}</div>
      <h1>${title}</h1>
      <ul>${items}</ul>
    </main>
  </body></html>`;
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
});
try {
  const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT } });
  mkdirSync(OUT, { recursive: true });
  for (const image of IMAGES) {
    await page.setContent(html(image));
    await page.screenshot({ path: path.join(OUT, image.file), type: "png" });
    console.log(`public/og/${image.file}`);
  }
} finally {
  await browser.close();
}
