import type { DemoProduct } from '~/demo/products';

/**
 * Drawn "product photos" for the demo catalogue: 1200×1500 SVG scenes rendered by librsvg (through sharp).
 * View 0 is the pack on a studio backdrop, view 1 a flat-lay with the back label, view 2 a cup on the table.
 * Everything is generated from the product's data and colourway; the same product always draws the same picture.
 */
export type PackshotView = 0 | 1 | 2;

export const PACKSHOT_WIDTH = 1200;
export const PACKSHOT_HEIGHT = 1500;

const SERIF = "'DejaVu Serif', Georgia, 'Times New Roman', serif";
const SANS = "'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif";
const SHADOW = '#2B1A12';

export function packshotSvg(product: DemoProduct, view: PackshotView): string {
  const scene = new Scene(product);
  const body = view === 0 ? frontView(scene) : view === 1 ? flatLayView(scene) : cupView(scene);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${PACKSHOT_WIDTH}" height="${PACKSHOT_HEIGHT}" viewBox="0 0 ${PACKSHOT_WIDTH} ${PACKSHOT_HEIGHT}">`,
    flattenOpacity(`<defs>${scene.defs.join('')}</defs>${body}`),
    '</svg>',
  ].join('');
}

/**
 * librsvg composites every element that has `opacity` through an offscreen surface, which made rendering
 * about twice as slow. On a single shape the same look comes from fill-opacity and stroke-opacity.
 */
function flattenOpacity(markup: string): string {
  return markup.replace(
    /<(rect|circle|ellipse|path)\b([^>]*?) opacity="([^"]+)"([^>]*)\/>/g,
    '<$1$2 fill-opacity="$3" stroke-opacity="$3"$4/>',
  );
}

// ── Scene: colours, shared definitions, a seeded random source ─────────────────────────────────

class Scene {
  readonly p: DemoProduct;
  readonly c: Colours;
  readonly defs: string[] = [];
  readonly random: () => number;
  private ids = new Set<string>();

  constructor(product: DemoProduct) {
    this.p = product;
    this.c = colours(product);
    this.random = seededRandom(product.key);
    this.defs.push(commonDefs(this.c, product));
  }

  /** Adds a definition once. */
  def(id: string, markup: string): string {
    if (!this.ids.has(id)) {
      this.ids.add(id);
      this.defs.push(markup);
    }
    return id;
  }

  between(min: number, max: number): number {
    return min + (max - min) * this.random();
  }
}

type Colours = {
  bag: string;
  bagLight: string;
  bagDark: string;
  label: string;
  accent: string;
  ink: string;
  inkSoft: string;
  onBag: string;
  backdropTop: string;
  backdropBottom: string;
  floor: string;
  table: string;
  tableDark: string;
  bean: string;
  beanDark: string;
  beanLight: string;
};

const beanColours: Record<DemoProduct['roast'], [string, string, string]> = {
  light: ['#8A5A36', '#5E3A20', '#B07F52'],
  medium: ['#6E4327', '#472915', '#94613B'],
  mediumDark: ['#573320', '#35200F', '#7C4C2E'],
  dark: ['#3F2415', '#24140B', '#5E3A24'],
};

function colours(p: DemoProduct): Colours {
  const { bag, label, accent, ink } = p.palette;
  const [bean, beanDark, beanLight] = beanColours[p.roast];
  return {
    bag,
    bagLight: mix(bag, '#FFFFFF', 0.18),
    bagDark: mix(bag, '#000000', 0.35),
    label,
    accent,
    ink,
    inkSoft: mix(ink, label, 0.3),
    onBag: luminance(bag) > 0.35 ? mix(ink, '#000000', 0.2) : mix(label, '#FFFFFF', 0.3),
    backdropTop: mix(mix('#F7F0E4', bag, 0.08), '#FFFFFF', 0.3),
    backdropBottom: mix('#F1E6D4', bag, 0.14),
    floor: mix('#EADCC6', bag, 0.12),
    table: mix('#E8D9C0', bag, 0.08),
    tableDark: mix('#D2BC98', bag, 0.12),
    bean,
    beanDark,
    beanLight,
  };
}

function commonDefs(c: Colours, p: DemoProduct): string {
  return [
    // Soft shadows.
    // Soft shadows are gradients, not blur filters: librsvg renders filters several times slower.
    `<radialGradient id="shade"><stop offset="0" stop-color="${SHADOW}"/><stop offset="0.45" stop-color="${SHADOW}" stop-opacity="0.65"/><stop offset="1" stop-color="${SHADOW}" stop-opacity="0"/></radialGradient>`,
    `<linearGradient id="horizon" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${c.floor}" stop-opacity="0"/><stop offset="0.5" stop-color="${c.floor}" stop-opacity="0.6"/><stop offset="1" stop-color="${c.floor}" stop-opacity="0"/></linearGradient>`,
    // The studio backdrop and floor.
    // One radial gradient gives both the spotlight and the vignette (full-canvas overlays are slow to render).
    `<radialGradient id="backdrop" cx="0.5" cy="0.36" r="0.8"><stop offset="0" stop-color="${mix(c.backdropTop, '#FFFFFF', 0.4)}"/><stop offset="0.5" stop-color="${c.backdropTop}"/><stop offset="1" stop-color="${mix(c.backdropBottom, '#000000', 0.08)}"/></radialGradient>`,
    `<radialGradient id="floor" cx="0.5" cy="0" r="0.9"><stop offset="0" stop-color="${mix(c.floor, '#FFFFFF', 0.15)}"/><stop offset="0.6" stop-color="${c.floor}"/><stop offset="1" stop-color="${mix(c.floor, '#000000', 0.14)}"/></radialGradient>`,
    `<radialGradient id="table" cx="0.5" cy="0.45" r="0.8"><stop offset="0" stop-color="${mix(c.table, '#FFFFFF', 0.35)}"/><stop offset="0.55" stop-color="${c.table}"/><stop offset="1" stop-color="${mix(c.table, '#000000', 0.12)}"/></radialGradient>`,
    // Bag material: colour, cylindrical light across, a darker gusset at the bottom.
    `<linearGradient id="bag-fill" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${c.bagLight}"/><stop offset="0.5" stop-color="${c.bag}"/><stop offset="1" stop-color="${mix(c.bag, '#000000', 0.12)}"/></linearGradient>`,
    `<linearGradient id="bag-light" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#000000" stop-opacity="0.32"/><stop offset="0.07" stop-color="#000000" stop-opacity="0.08"/><stop offset="0.22" stop-color="#FFFFFF" stop-opacity="0.16"/><stop offset="0.34" stop-color="#FFFFFF" stop-opacity="0.02"/><stop offset="0.8" stop-color="#000000" stop-opacity="0.04"/><stop offset="0.95" stop-color="#000000" stop-opacity="0.2"/><stop offset="1" stop-color="#000000" stop-opacity="0.36"/></linearGradient>`,
    `<linearGradient id="bag-gusset" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000000" stop-opacity="0"/><stop offset="0.86" stop-color="#000000" stop-opacity="0"/><stop offset="1" stop-color="#000000" stop-opacity="0.28"/></linearGradient>`,
    `<linearGradient id="label-fill" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${mix(c.label, '#FFFFFF', 0.35)}"/><stop offset="1" stop-color="${c.label}"/></linearGradient>`,
    // Origin motif printed on the pack: a kawung-like pattern (the old Javanese batik of four petals).
    // Only used on packs standing upright: librsvg fills patterns under rotation very slowly.
    `<pattern id="motif" width="64" height="64" patternUnits="userSpaceOnUse"><g fill="none" stroke="${c.onBag}" stroke-width="2"><ellipse cx="32" cy="14" rx="8" ry="13"/><ellipse cx="32" cy="50" rx="8" ry="13"/><ellipse cx="14" cy="32" rx="13" ry="8"/><ellipse cx="50" cy="32" rx="13" ry="8"/></g><circle cx="32" cy="32" r="2.5" fill="${c.onBag}"/><circle cx="0" cy="0" r="2.5" fill="${c.onBag}"/><circle cx="64" cy="64" r="2.5" fill="${c.onBag}"/><circle cx="0" cy="64" r="2.5" fill="${c.onBag}"/><circle cx="64" cy="0" r="2.5" fill="${c.onBag}"/></pattern>`,
    // Linen for flat-lays.
    // Roasted beans.
    `<radialGradient id="bean-fill" cx="0.38" cy="0.32" r="0.8"><stop offset="0" stop-color="${c.beanLight}"/><stop offset="0.55" stop-color="${c.bean}"/><stop offset="1" stop-color="${c.beanDark}"/></radialGradient>`,
    `<g id="bean"><ellipse cx="4" cy="7" rx="33" ry="25" fill="url(#shade)" opacity="0.5"/><ellipse rx="27" ry="19" fill="url(#bean-fill)"/><path d="M-21 3C-10-7 7 9 21-3" fill="none" stroke="${c.beanDark}" stroke-width="4" stroke-linecap="round"/><path d="M-20 6C-9-3 7 12 20 0" fill="none" stroke="${c.beanLight}" stroke-width="1.5" stroke-linecap="round" opacity="0.5"/><ellipse cx="-6" cy="-9" rx="12" ry="4" fill="#FFFFFF" opacity="0.16"/></g>`,
    // Coffee leaf and cherry.
    `<linearGradient id="leaf-fill" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#3F8A63"/><stop offset="1" stop-color="#1F4D37"/></linearGradient>`,
    `<g id="leaf"><path d="M0 0C40-52 150-58 220 0C150 58 40 52 0 0Z" fill="url(#leaf-fill)"/><path d="M0 0C70-4 150-2 220 0" stroke="#A9D1B5" stroke-width="3" fill="none" opacity="0.7"/><path d="M50 0l22-22M90 0l24-26M130 0l24-22M60 0l22 20M100 0l24 24M140 0l22 20" stroke="#A9D1B5" stroke-width="2" opacity="0.45"/></g>`,
    `<radialGradient id="cherry-fill" cx="0.35" cy="0.3" r="0.75"><stop offset="0" stop-color="#E0574A"/><stop offset="0.6" stop-color="#B23A2E"/><stop offset="1" stop-color="#6E1A14"/></radialGradient>`,
    `<g id="cherry"><circle cx="4" cy="6" r="27" fill="url(#shade)" opacity="0.45"/><circle r="22" fill="url(#cherry-fill)"/><circle cx="-7" cy="-8" r="6" fill="#FFFFFF" opacity="0.35"/><circle cx="0" cy="0" r="3" fill="#5A1410" opacity="0.8"/></g>`,
    // Brewed coffee seen from above.
    `<radialGradient id="coffee" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#2A140A"/><stop offset="0.62" stop-color="#3C1F10"/><stop offset="0.84" stop-color="#7A4420"/><stop offset="0.93" stop-color="#B77A45"/><stop offset="1" stop-color="#5A3018"/></radialGradient>`,
    `<radialGradient id="ceramic" cx="0.42" cy="0.38" r="0.7"><stop offset="0" stop-color="#FFFFFF"/><stop offset="0.7" stop-color="#F4EFE7"/><stop offset="1" stop-color="#DCD3C6"/></radialGradient>`,
    `<radialGradient id="cup-fill" cx="0.4" cy="0.35" r="0.75"><stop offset="0" stop-color="${c.bagLight}"/><stop offset="1" stop-color="${c.bagDark}"/></radialGradient>`,
    `<linearGradient id="metal" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#8E8E8E"/><stop offset="0.35" stop-color="#F2F2F2"/><stop offset="0.6" stop-color="#B9B9B9"/><stop offset="1" stop-color="#7A7A7A"/></linearGradient>`,
    // Capsule body (aluminium in the pack colour).
    `<linearGradient id="capsule-side" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${mix(c.bag, '#000000', 0.3)}"/><stop offset="0.3" stop-color="${mix(c.bag, '#FFFFFF', 0.35)}"/><stop offset="0.45" stop-color="${c.bag}"/><stop offset="1" stop-color="${mix(c.bag, '#000000', 0.45)}"/></linearGradient>`,
    `<radialGradient id="capsule-top" cx="0.4" cy="0.35" r="0.7"><stop offset="0" stop-color="${mix(c.bag, '#FFFFFF', 0.4)}"/><stop offset="0.7" stop-color="${c.bag}"/><stop offset="1" stop-color="${mix(c.bag, '#000000', 0.4)}"/></radialGradient>`,
    `<radialGradient id="foil" cx="0.4" cy="0.35" r="0.75"><stop offset="0" stop-color="#FFFFFF"/><stop offset="0.5" stop-color="#DADADA"/><stop offset="1" stop-color="#A9A9A9"/></radialGradient>`,
    `<radialGradient id="paper-pod" cx="0.4" cy="0.35" r="0.7"><stop offset="0" stop-color="#FFFDF8"/><stop offset="1" stop-color="#E3D9C8"/></radialGradient>`,
    `<radialGradient id="ground-fill" cx="0.45" cy="0.4" r="0.6"><stop offset="0" stop-color="${c.beanLight}"/><stop offset="0.7" stop-color="${c.bean}"/><stop offset="1" stop-color="${c.beanDark}"/></radialGradient>`,
    `<pattern id="grounds" width="18" height="18" patternUnits="userSpaceOnUse"><circle cx="4" cy="5" r="1.6" fill="${c.beanDark}" opacity="0.7"/><circle cx="12" cy="3" r="1.2" fill="${c.beanLight}" opacity="0.6"/><circle cx="9" cy="12" r="1.8" fill="${c.beanDark}" opacity="0.6"/><circle cx="16" cy="15" r="1.1" fill="${c.beanLight}" opacity="0.5"/><circle cx="2" cy="15" r="1" fill="#FFFFFF" opacity="0.15"/></pattern>`,
    p.category === 'dripCoffeeBags'
      ? `<linearGradient id="sachet" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${mix(c.label, '#FFFFFF', 0.5)}"/><stop offset="1" stop-color="${mix(c.label, '#000000', 0.06)}"/></linearGradient>`
      : '',
  ].join('');
}

// ── View 0: the pack on a studio backdrop ──────────────────────────────────────────────────────

function frontView(s: Scene): string {
  const parts = [studio()];
  switch (s.p.category) {
    case 'dripCoffeeBags':
      parts.push(groundShadow(640, 1290, 380), dripBox(s, 210, 470, 560, 800), sachet(s, 800, 770, 250, 330, 7));
      parts.push(beans(s, 6, { x: [90, 240], y: [1300, 1400] }));
      break;
    case 'capsulesAndPods':
      parts.push(groundShadow(600, 1280, 360), capsuleBox(s, 250, 560, 560, 700));
      if (isPods(s.p)) {
        parts.push(pod(s, 960, 1250, 1.25), pod(s, 980, 1224, 1.25), pod(s, 1000, 1380, 1.3));
      } else {
        parts.push(capsuleSide(940, 1150, 0.95), capsuleSide(1060, 1210, 0.9), capsuleSide(960, 1330, 1.05));
      }
      break;
    default:
      parts.push(groundShadow(600, 1290, 390), pouch(s, 290, 230, 620, 1060));
      parts.push(beans(s, 7, { x: [150, 300], y: [1310, 1420] }), beans(s, 5, { x: [930, 1080], y: [1320, 1410] }));
  }
  return parts.join('');
}

function studio(): string {
  const wall = 1150;
  return [
    `<rect width="1200" height="1500" fill="url(#backdrop)"/>`,
    `<rect y="${wall}" width="1200" height="${1500 - wall}" fill="url(#floor)"/>`,
    `<rect y="${wall - 60}" width="1200" height="120" fill="url(#horizon)"/>`,
  ].join('');
}

/** Linen on the table: a lit gradient crossed by fine threads. */
function tablecloth(s: Scene): string {
  const across = Array.from({ length: 250 }, (_, i) => `M0 ${i * 6 + 3}h1200`).join('');
  const down = Array.from({ length: 200 }, (_, i) => `M${i * 6 + 3} 0v1500`).join('');
  return [
    `<rect width="1200" height="1500" fill="url(#table)"/>`,
    `<path d="${across}" stroke="${s.c.tableDark}" stroke-width="1.2" stroke-opacity="0.22"/>`,
    `<path d="${down}" stroke="#FFFFFF" stroke-width="1" stroke-opacity="0.16"/>`,
  ].join('');
}

function groundShadow(cx: number, cy: number, rx: number): string {
  return [
    ellipseShadow(cx, cy, rx * 1.08, rx * 0.15, 0.5),
    ellipseShadow(cx, cy - 6, rx * 0.9, rx * 0.05, 0.6),
  ].join('');
}

/** A stand-up pouch with a heat-sealed top, tear notches, zip, valve and the front label. */
function pouch(s: Scene, x: number, y: number, w: number, h: number): string {
  const { c, p } = s;
  const bulge = 12;
  const outline = `M${x + 12} ${y}H${x + w - 12}Q${x + w} ${y} ${x + w} ${y + 12}L${x + w + bulge} ${y + h - 90}Q${x + w + bulge} ${y + h - 12} ${x + w - 60} ${y + h - 4}Q${x + w / 2} ${y + h + 14} ${x + 60} ${y + h - 4}Q${x - bulge} ${y + h - 12} ${x - bulge} ${y + h - 90}L${x} ${y + 12}Q${x} ${y} ${x + 12} ${y}Z`;
  s.def('pouch-clip', `<clipPath id="pouch-clip"><path d="${outline}"/></clipPath>`);
  const seal = 64;
  const serrations = Array.from({ length: Math.floor(w / 9) }, (_, i) => `M${x + 6 + i * 9} ${y + 6}v${seal - 14}`).join('');
  const ground = p.category === 'groundCoffee';
  const label = { x: x + 55, y: y + 250, w: w - 110, h: h - 320 };
  return [
    `<g clip-path="url(#pouch-clip)">`,
    `<path d="${outline}" fill="url(#bag-fill)"/>`,
    `<rect x="${x - 20}" y="${y}" width="${w + 40}" height="${h + 20}" fill="url(#motif)" opacity="0.1"/>`,
    // Top seal, tear notches and zip.
    `<rect x="${x - 20}" y="${y}" width="${w + 40}" height="${seal}" fill="${c.bagDark}" opacity="0.18"/>`,
    `<path d="${serrations}" stroke="#000000" stroke-width="2" opacity="0.12"/>`,
    `<path d="M${x - 20} ${y + seal}H${x + w + 20}" stroke="#FFFFFF" stroke-width="2" opacity="0.25"/>`,
    `<path d="M${x - 20} ${y + seal + 36}H${x + w + 20}" stroke="#000000" stroke-width="5" opacity="0.14"/>`,
    `<path d="M${x - 20} ${y + seal + 41}H${x + w + 20}" stroke="#FFFFFF" stroke-width="2" opacity="0.2"/>`,
    // Lighting and the bottom gusset.
    `<rect x="${x - 20}" y="${y}" width="${w + 40}" height="${h + 20}" fill="url(#bag-light)"/>`,
    `<rect x="${x - 20}" y="${y}" width="${w + 40}" height="${h + 20}" fill="url(#bag-gusset)"/>`,
    `<path d="M${x - 10} ${y + h - 120}Q${x + 40} ${y + h - 30} ${x + 130} ${y + h}M${x + w + 10} ${y + h - 120}Q${x + w - 40} ${y + h - 30} ${x + w - 130} ${y + h}" stroke="#FFFFFF" stroke-width="6" fill="none" opacity="0.08"/>`,
    `<path d="M${x + w * 0.2} ${y + seal + 60}C${x + w * 0.24} ${y + h * 0.4} ${x + w * 0.18} ${y + h * 0.7} ${x + w * 0.22} ${y + h - 40}" stroke="#FFFFFF" stroke-width="26" fill="none" opacity="0.05"/>`,
    `</g>`,
    `<path d="M${x} ${y + seal + 10}l16 10-16 10M${x + w} ${y + seal + 10}l-16 10 16 10" fill="${c.backdropTop}" opacity="0.9"/>`,
    // One-way degassing valve.
    valve(c, x + w / 2, y + 175),
    ground ? groundBadge(s, x + w - 92, y + 170) : '',
    label3d(s, label.x, label.y, label.w, label.h),
  ].join('');
}

function valve(c: Colours, cx: number, cy: number): string {
  return [
    `<circle cx="${cx}" cy="${cy + 3}" r="27" fill="#000000" opacity="0.2"/>`,
    `<circle cx="${cx}" cy="${cy}" r="26" fill="${mix(c.bag, '#FFFFFF', 0.12)}" stroke="${c.bagDark}" stroke-width="2" opacity="0.95"/>`,
    `<circle cx="${cx}" cy="${cy}" r="15" fill="none" stroke="#000000" stroke-width="2" opacity="0.18"/>`,
    `<path d="M${cx - 5} ${cy}h10M${cx} ${cy - 5}v10" stroke="#000000" stroke-width="2" opacity="0.2"/>`,
    `<circle cx="${cx - 8}" cy="${cy - 9}" r="5" fill="#FFFFFF" opacity="0.3"/>`,
  ].join('');
}

function groundBadge(s: Scene, cx: number, cy: number): string {
  const { c } = s;
  return [
    `<circle cx="${cx}" cy="${cy}" r="50" fill="${c.accent}"/>`,
    `<circle cx="${cx}" cy="${cy}" r="43" fill="none" stroke="${c.label}" stroke-width="1.5" stroke-dasharray="3 4"/>`,
    text(cx, cy - 4, 'GROUND', { size: 15, family: SANS, weight: 700, fill: readableOn(c.accent, c), spacing: 2 }),
    text(cx, cy + 18, grindFor(s.p).toUpperCase(), { size: 12, family: SANS, fill: readableOn(c.accent, c), spacing: 1 }),
  ].join('');
}

/** The printed front label, with a soft edge shadow so it reads as a sticker on the bag. */
function label3d(s: Scene, x: number, y: number, w: number, h: number): string {
  return [
    rectShadow(x + 2, y + 5, w, h, 16, 6, 0.2),
    frontLabel(s, x, y, w, h),
  ].join('');
}

function frontLabel(s: Scene, x: number, y: number, w: number, h: number): string {
  const { c, p } = s;
  const cx = x + w / 2;
  const pad = 34;
  const inner = w - pad * 2;
  const frame = [
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="16" fill="url(#label-fill)"/>`,
    `<rect x="${x + 10}" y="${y + 10}" width="${w - 20}" height="${h - 20}" rx="10" fill="none" stroke="${c.ink}" stroke-width="1.5" opacity="0.35"/>`,
  ];
  const out: string[] = [];

  // Wordmark.
  let cy = y + 86;
  out.push(text(cx, cy, 'KOPI', { size: 60, family: SERIF, weight: 700, fill: c.ink, spacing: 16 }));
  cy += 32;
  out.push(text(cx, cy, 'SPECIALTY COFFEE · INDONESIA', { size: 14, family: SANS, fill: c.inkSoft, spacing: 3 }));
  cy += 30;
  out.push(divider(cx, cy, Math.min(inner, 260), c));

  // Origin, name, region.
  cy += 52;
  out.push(text(cx, cy, p.origin.toUpperCase(), { size: 22, family: SANS, weight: 700, fill: accentInk(c), spacing: 7 }));
  const name = packName(p);
  const nameSize = fitSize(name, inner, 50, 34, 0.6, 2);
  const nameLines = wrap(name, Math.floor(inner / (nameSize * 0.6)));
  for (const line of nameLines.slice(0, 2)) {
    cy += nameSize * 1.15;
    out.push(text(cx, cy, line, { size: nameSize, family: SERIF, weight: 700, fill: c.ink }));
  }
  cy += 36;
  const regionSize = fitSize(p.region, inner, 22, 17, 0.56, 1);
  out.push(text(cx, cy, p.region, { size: regionSize, family: SERIF, style: 'italic', fill: c.inkSoft }));

  // Facts.
  cy += 34;
  out.push(`<path d="M${x + pad} ${cy}H${x + w - pad}" stroke="${c.ink}" stroke-width="1.2" opacity="0.3"/>`);
  const rows: [string, string][] = [
    ['ALTITUDE', altitude(p)],
    ['PROCESS', processName(p)],
    ['ROAST', roastName(p)],
  ];
  for (const [caption, value] of rows) {
    cy += 42;
    out.push(text(x + pad, cy, caption, { size: 14, family: SANS, weight: 700, fill: c.inkSoft, spacing: 2.5, anchor: 'start' }));
    const valueX = caption === 'ROAST' ? x + w - pad - 92 : x + w - pad;
    out.push(text(valueX, cy, value, { size: 21, family: SERIF, fill: c.ink, anchor: 'end' }));
    if (caption === 'ROAST') out.push(roastDots(x + w - pad - 67, cy - 7, p.roast, c));
  }
  cy += 24;
  out.push(`<path d="M${x + pad} ${cy}H${x + w - pad}" stroke="${c.ink}" stroke-width="1.2" opacity="0.3"/>`);

  // Tasting notes.
  cy += 38;
  out.push(text(cx, cy, 'TASTING NOTES', { size: 14, family: SANS, weight: 700, fill: c.inkSoft, spacing: 3 }));
  const notes = p.en.notes.join(' · ');
  const notesSize = fitSize(notes, inner, 25, 18, 0.55, 2);
  for (const line of wrapNotes(p.en.notes, Math.floor(inner / (notesSize * 0.55)))) {
    cy += notesSize * 1.35;
    out.push(text(cx, cy, line, { size: notesSize, family: SERIF, style: 'italic', fill: c.ink }));
  }

  // Fit the content above the footer band: centre it when there is room, shrink it when there is not.
  const band = 62;
  const natural = cy + 34 - y;
  const room = h - band;
  const content = out.join('');
  const fitted =
    natural > room
      ? `<g transform="translate(${round(cx)} ${y}) scale(${(room / natural).toFixed(3)}) translate(${round(-cx)} ${-y})">${content}</g>`
      : `<g transform="translate(0 ${round((room - natural) / 2)})">${content}</g>`;

  // Footer band with the pack size.
  const footer = [
    `<path d="M${x} ${y + h - band}H${x + w}V${y + h - 16}Q${x + w} ${y + h} ${x + w - 16} ${y + h}H${x + 16}Q${x} ${y + h} ${x} ${y + h - 16}Z" fill="${c.accent}"/>`,
    text(cx, y + h - band / 2 + 7, packSize(p), { size: fitSize(packSize(p), w - 40, 19, 13, 0.78, 1), family: SANS, weight: 700, fill: readableOn(c.accent, c), spacing: 3 }),
  ];
  return [...frame, fitted, ...footer].join('');
}

function divider(cx: number, cy: number, width: number, c: Colours): string {
  return [
    `<path d="M${cx - width / 2} ${cy}H${cx - 22}M${cx + 22} ${cy}H${cx + width / 2}" stroke="${c.ink}" stroke-width="1.4" opacity="0.45"/>`,
    `<g transform="translate(${cx} ${cy}) rotate(-35) scale(0.55)"><ellipse rx="27" ry="19" fill="${c.accent}"/><path d="M-21 3C-10-7 7 9 21-3" fill="none" stroke="${c.label}" stroke-width="4" stroke-linecap="round"/></g>`,
  ].join('');
}

function roastDots(x: number, cy: number, roast: DemoProduct['roast'], c: Colours): string {
  const level = { light: 1, medium: 2, mediumDark: 3, dark: 4 }[roast];
  return Array.from({ length: 4 }, (_, i) => {
    const filled = i < level;
    return `<circle cx="${x + i * 20}" cy="${cy}" r="7" fill="${filled ? c.ink : 'none'}" stroke="${c.ink}" stroke-width="1.6" opacity="${filled ? 0.9 : 0.5}"/>`;
  }).join('');
}

/** A carton of drip bags in three-quarter view. */
function dripBox(s: Scene, x: number, y: number, w: number, h: number): string {
  const { c } = s;
  const depth = 110;
  const lift = 56;
  return [
    // Side and top faces.
    `<path d="M${x + w} ${y}L${x + w + depth} ${y - lift}V${y + h - lift}L${x + w} ${y + h}Z" fill="${mix(c.bag, '#000000', 0.32)}"/>`,
    `<path d="M${x + w} ${y}L${x + w + depth} ${y - lift}V${y + h - lift}L${x + w} ${y + h}Z" fill="url(#motif)" opacity="0.08"/>`,
    `<path d="M${x} ${y}L${x + depth} ${y - lift}H${x + w + depth}L${x + w} ${y}Z" fill="${mix(c.bag, '#FFFFFF', 0.2)}"/>`,
    `<path d="M${x + 40} ${y - 8}L${x + depth + 20} ${y - lift + 8}" stroke="#000000" stroke-width="3" opacity="0.12"/>`,
    // Front.
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${c.bag}"/>`,
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="url(#motif)" opacity="0.1"/>`,
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="url(#bag-light)" opacity="0.6"/>`,
    `<path d="M${x} ${y}H${x + w}" stroke="#FFFFFF" stroke-width="3" opacity="0.35"/>`,
    text(x + w / 2, y + 60, 'DRIP COFFEE · POUR-OVER BAGS', { size: 16, family: SANS, weight: 700, fill: c.onBag, spacing: 3 }),
    label3d(s, x + 40, y + 96, w - 80, h - 136),
  ].join('');
}

/** One drip bag sachet standing at an angle. */
function sachet(s: Scene, x: number, y: number, w: number, h: number, angle: number): string {
  const { c, p } = s;
  return [
    `<g transform="rotate(${angle} ${x + w / 2} ${y + h})">`,
    rectShadow(x + 10, y + 16, w, h, 10, 14, 0.24),
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="10" fill="url(#sachet)"/>`,
    `<path d="M${x} ${y + 26}H${x + w}M${x} ${y + h - 26}H${x + w}" stroke="#000000" stroke-width="1.5" opacity="0.12" stroke-dasharray="4 4"/>`,
    `<rect x="${x}" y="${y + 42}" width="${w}" height="${h * 0.42}" fill="${c.bag}"/>`,
    text(x + w / 2, y + 42 + h * 0.21 - 8, 'KOPI', { size: 34, family: SERIF, weight: 700, fill: c.onBag, spacing: 8 }),
    text(x + w / 2, y + 42 + h * 0.21 + 24, p.origin.toUpperCase(), { size: 15, family: SANS, fill: c.onBag, spacing: 4 }),
    text(x + w / 2, y + h * 0.72, 'DRIP BAG · 12 g', { size: 15, family: SANS, weight: 700, fill: c.ink, spacing: 2 }),
    text(x + w / 2, y + h * 0.72 + 30, 'tear · hang · pour', { size: 16, family: SERIF, style: 'italic', fill: c.inkSoft }),
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="10" fill="url(#bag-light)" opacity="0.35"/>`,
    `</g>`,
  ].join('');
}

/** A small carton of capsules or pods with a round window. */
function capsuleBox(s: Scene, x: number, y: number, w: number, h: number): string {
  const { c } = s;
  const depth = 90;
  const lift = 44;
  return [
    `<path d="M${x + w} ${y}L${x + w + depth} ${y - lift}V${y + h - lift}L${x + w} ${y + h}Z" fill="${mix(c.bag, '#000000', 0.32)}"/>`,
    `<path d="M${x} ${y}L${x + depth} ${y - lift}H${x + w + depth}L${x + w} ${y}Z" fill="${mix(c.bag, '#FFFFFF', 0.2)}"/>`,
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${c.bag}"/>`,
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="url(#motif)" opacity="0.1"/>`,
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="url(#bag-light)" opacity="0.6"/>`,
    `<path d="M${x} ${y}H${x + w}" stroke="#FFFFFF" stroke-width="3" opacity="0.35"/>`,
    label3d(s, x + 34, y + 34, w - 68, h - 68),
  ].join('');
}

/** A compatible capsule standing on its foil lid side down, seen slightly from above. */
function capsuleSide(cx: number, baseY: number, scale: number): string {
  const rimRx = 74;
  const rimRy = 20;
  const bodyTop = -118;
  return [
    `<g transform="translate(${cx} ${baseY}) scale(${scale})">`,
    ellipseShadow(10, 8, 110, 30, 0.55),
    // Rim at the bottom, body tapering upwards, domed top.
    `<path d="M${-rimRx} 0L${-52} ${bodyTop}Q0 ${bodyTop - 34} 52 ${bodyTop}L${rimRx} 0Z" fill="url(#capsule-side)"/>`,
    `<ellipse cx="0" cy="${bodyTop}" rx="52" ry="15" fill="url(#capsule-top)"/>`,
    `<ellipse cx="0" cy="${bodyTop - 4}" rx="22" ry="6" fill="#FFFFFF" opacity="0.25"/>`,
    `<path d="M-62 -40H62" stroke="#000000" stroke-width="2" opacity="0.12"/>`,
    `<ellipse cx="0" cy="0" rx="${rimRx + 12}" ry="${rimRy}" fill="url(#capsule-side)"/>`,
    `<ellipse cx="0" cy="-3" rx="${rimRx + 12}" ry="${rimRy - 4}" fill="none" stroke="#FFFFFF" stroke-width="2" opacity="0.3"/>`,
    `</g>`,
  ].join('');
}

/** An ESE paper pod lying on the floor, seen at an angle. */
function pod(s: Scene, cx: number, cy: number, scale: number): string {
  const { c } = s;
  return [
    `<g transform="translate(${cx} ${cy}) scale(${scale})">`,
    ellipseShadow(8, 14, 130, 52, 0.5),
    `<ellipse cx="0" cy="0" rx="110" ry="40" fill="url(#paper-pod)" stroke="#CDBFA8" stroke-width="2" stroke-dasharray="3 3"/>`,
    `<ellipse cx="0" cy="-6" rx="64" ry="24" fill="url(#ground-fill)"/>`,
    `<ellipse cx="0" cy="-6" rx="64" ry="24" fill="url(#grounds)" opacity="0.8"/>`,
    `<ellipse cx="0" cy="-10" rx="64" ry="22" fill="#FFFDF8" opacity="0.55"/>`,
    text(0, -4, 'KOPI', { size: 16, family: SERIF, weight: 700, fill: c.ink, spacing: 4 }),
    `</g>`,
  ].join('');
}

// ── View 1: flat-lay from above ───────────────────────────────────────────────────────────────

function flatLayView(s: Scene): string {
  const { c, p } = s;
  const parts = [tablecloth(s)];
  // A piece of kraft paper under the scene.
  parts.push(
    `<g transform="rotate(4 600 750)">${rectShadow(118, 148, 960, 1200, 0, 14, 0.12)}<rect x="110" y="140" width="960" height="1200" fill="${mix('#E8D5B5', c.bag, 0.08)}"/></g>`,
  );

  if (p.category === 'capsulesAndPods') {
    parts.push(flatCarton(s, 170, 250, 520, 700, -6));
    if (isPods(p)) {
      const spots: [number, number][] = [[860, 330], [930, 560], [840, 790], [950, 1020], [820, 1230], [600, 1190], [380, 1250]];
      for (const [x, y] of spots) parts.push(podTop(s, x, y, 0.95));
    } else {
      const spots: [number, number][] = [[870, 330], [980, 520], [850, 700], [990, 890], [860, 1080], [640, 1210], [410, 1230], [200, 1170]];
      spots.forEach(([x, y], i) => parts.push(i % 3 === 1 ? capsuleTopFoil(s, x, y, 0.95) : capsuleTop(s, x, y, 0.95)));
    }
  } else if (p.category === 'dripCoffeeBags') {
    parts.push(flatCarton(s, 150, 220, 560, 760, -5));
    parts.push(flatSachet(s, 780, 240, 270, 360, 9), flatSachet(s, 760, 640, 270, 360, -7), flatSachet(s, 520, 1000, 270, 360, 14));
    parts.push(beans(s, 9, { x: [170, 440], y: [1100, 1300] }));
  } else {
    parts.push(backOfBag(s, 180, 200, 560, 900, -7));
    if (p.category === 'groundCoffee') {
      parts.push(bowlOfGround(s, 900, 1130, 150));
    } else {
      parts.push(scoop(s, 870, 1140));
    }
    parts.push(beans(s, 16, { x: [800, 1060], y: [200, 760] }), beans(s, 10, { x: [160, 700], y: [1180, 1320] }));
  }
  parts.push(sprig(980, 170, 150), cherries(1030, 1340));
  return parts.join('');
}

/** The back of the bag lying flat: details, brew guide and a barcode. */
function backOfBag(s: Scene, x: number, y: number, w: number, h: number, angle: number): string {
  const { c, p } = s;
  const pad = 46;
  const lx = x + pad;
  const lw = w - pad * 2;
  const out: string[] = [`<g transform="rotate(${angle} ${x + w / 2} ${y + h / 2})">`];
  out.push(rectShadow(x + 14, y + 22, w, h, 22, 16, 0.3));
  out.push(`<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="22" fill="url(#bag-fill)"/>`);
  out.push(`<rect x="${x}" y="${y}" width="${w}" height="60" rx="22" fill="${c.bagDark}" opacity="0.2"/>`);
  out.push(`<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="22" fill="url(#bag-light)" opacity="0.5"/>`);

  const ly = y + 120;
  const lh = h - 170;
  out.push(`<rect x="${lx}" y="${ly}" width="${lw}" height="${lh}" rx="12" fill="url(#label-fill)"/>`);
  let cy = ly + 62;
  const ix = lx + 32;
  const iw = lw - 64;
  out.push(text(ix, cy, 'KOPI', { size: 40, family: SERIF, weight: 700, fill: c.ink, spacing: 10, anchor: 'start' }));
  out.push(text(lx + lw - 32, cy - 2, p.origin.toUpperCase(), { size: 17, family: SANS, weight: 700, fill: accentInk(c), spacing: 4, anchor: 'end' }));
  cy += 48;
  const name = packName(p);
  const size = fitSize(name, iw, 32, 24, 0.6, 1);
  out.push(text(ix, cy, name, { size, family: SERIF, weight: 700, fill: c.ink, anchor: 'start' }));
  cy += 22;
  out.push(`<path d="M${ix} ${cy}H${ix + iw}" stroke="${c.ink}" stroke-width="1.2" opacity="0.3"/>`);
  const facts: [string, string][] = [
    ['Region', p.region],
    ['Altitude', altitude(p)],
    ['Process', processName(p)],
    ['Roast', roastName(p)],
    ['Notes', p.en.notes.join(', ')],
  ];
  for (const [k, v] of facts) {
    cy += 46;
    out.push(text(ix, cy, k.toUpperCase(), { size: 13, family: SANS, weight: 700, fill: c.inkSoft, spacing: 2, anchor: 'start' }));
    const vs = fitSize(v, iw - 130, 20, 14, 0.56, 1);
    out.push(text(ix + 130, cy, v, { size: vs, family: SERIF, fill: c.ink, anchor: 'start' }));
  }
  cy += 26;
  out.push(`<path d="M${ix} ${cy}H${ix + iw}" stroke="${c.ink}" stroke-width="1.2" opacity="0.3"/>`);
  cy += 42;
  out.push(text(ix, cy, 'BREW GUIDE', { size: 13, family: SANS, weight: 700, fill: c.inkSoft, spacing: 2, anchor: 'start' }));
  const guide = brewGuide(p);
  guide.forEach(([icon, line], i) => {
    const gx = ix + i * (iw / 3);
    out.push(text(gx, cy + 46, icon, { size: 28, family: SERIF, weight: 700, fill: c.ink, anchor: 'start' }));
    out.push(text(gx, cy + 72, line, { size: 14, family: SANS, fill: c.inkSoft, anchor: 'start' }));
  });
  cy += 118;
  out.push(text(ix, cy, 'Roasted in small batches, shipped within', { size: 16, family: SERIF, style: 'italic', fill: c.inkSoft, anchor: 'start' }));
  out.push(text(ix, cy + 24, 'two days of roasting.', { size: 16, family: SERIF, style: 'italic', fill: c.inkSoft, anchor: 'start' }));
  // Barcode and net weight.
  const by = ly + lh - 110;
  out.push(barcode(s, ix, by, 150, 64, c.ink));
  out.push(text(lx + lw - 32, by + 34, 'NET', { size: 13, family: SANS, weight: 700, fill: c.inkSoft, spacing: 2, anchor: 'end' }));
  out.push(text(lx + lw - 32, by + 62, packSize(p), { size: fitSize(packSize(p), iw - 180, 17, 12, 0.72, 1), family: SANS, weight: 700, fill: c.ink, spacing: 1, anchor: 'end' }));
  out.push(`</g>`);
  return out.join('');
}

function flatCarton(s: Scene, x: number, y: number, w: number, h: number, angle: number): string {
  const { c } = s;
  return [
    `<g transform="rotate(${angle} ${x + w / 2} ${y + h / 2})">`,
    rectShadow(x + 14, y + 20, w, h, 6, 16, 0.3),
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="6" fill="${c.bag}"/>`,
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="6" fill="url(#bag-light)" opacity="0.35"/>`,
    label3d(s, x + 34, y + 34, w - 68, h - 68),
    `</g>`,
  ].join('');
}

function flatSachet(s: Scene, x: number, y: number, w: number, h: number, angle: number): string {
  return sachet(s, x, y, w, h, angle).replace(`rotate(${angle} ${x + w / 2} ${y + h})`, `rotate(${angle} ${x + w / 2} ${y + h / 2})`);
}

function capsuleTop(s: Scene, cx: number, cy: number, scale: number): string {
  return [
    `<g transform="translate(${cx} ${cy}) scale(${scale})">`,
    discShadow(s, 8, 12, 86, 16, 0.32),
    `<circle r="86" fill="url(#capsule-top)"/>`,
    `<circle r="66" fill="none" stroke="#000000" stroke-width="3" opacity="0.18"/>`,
    `<circle r="56" fill="url(#capsule-top)"/>`,
    `<circle r="22" fill="#FFFFFF" opacity="0.16"/>`,
    `<path d="M-50-50A72 72 0 0 1 40-58" stroke="#FFFFFF" stroke-width="6" fill="none" opacity="0.3" stroke-linecap="round"/>`,
    `</g>`,
  ].join('');
}

function capsuleTopFoil(s: Scene, cx: number, cy: number, scale: number): string {
  const { c } = s;
  return [
    `<g transform="translate(${cx} ${cy}) scale(${scale})">`,
    discShadow(s, 8, 12, 86, 16, 0.32),
    `<circle r="86" fill="url(#capsule-top)"/>`,
    `<circle r="70" fill="url(#foil)"/>`,
    `<circle r="70" fill="none" stroke="${c.bag}" stroke-width="8" opacity="0.8"/>`,
    text(0, 8, 'KOPI', { size: 24, family: SERIF, weight: 700, fill: c.bag, spacing: 5 }),
    `</g>`,
  ].join('');
}

function podTop(s: Scene, cx: number, cy: number, scale: number): string {
  const { c } = s;
  return [
    `<g transform="translate(${cx} ${cy}) scale(${scale})">`,
    discShadow(s, 8, 12, 100, 16, 0.26),
    `<circle r="100" fill="url(#paper-pod)"/>`,
    `<circle r="96" fill="none" stroke="#CDBFA8" stroke-width="3" stroke-dasharray="3 4"/>`,
    `<circle r="64" fill="url(#ground-fill)" opacity="0.9"/>`,
    `<circle r="64" fill="url(#grounds)"/>`,
    `<circle r="64" fill="#FFFDF8" opacity="0.45"/>`,
    text(0, 8, 'KOPI', { size: 24, family: SERIF, weight: 700, fill: c.ink, spacing: 5 }),
    `</g>`,
  ].join('');
}

function bowlOfGround(s: Scene, cx: number, cy: number, r: number): string {
  return [
    discShadow(s, cx + 14, cy + 20, r, 18, 0.32),
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="url(#ceramic)"/>`,
    `<circle cx="${cx}" cy="${cy}" r="${r - 16}" fill="#000000" opacity="0.08"/>`,
    `<circle cx="${cx}" cy="${cy}" r="${r - 22}" fill="url(#ground-fill)"/>`,
    `<circle cx="${cx}" cy="${cy}" r="${r - 22}" fill="url(#grounds)"/>`,
    `<ellipse cx="${cx - 20}" cy="${cy - 26}" rx="${r * 0.4}" ry="${r * 0.25}" fill="#FFFFFF" opacity="0.08"/>`,
  ].join('');
}

function scoop(s: Scene, cx: number, cy: number): string {
  const pile = Array.from({ length: 9 }, (_, i) => {
    const a = (i / 9) * Math.PI * 2;
    const d = i === 0 ? 0 : 52;
    return `<use href="#bean" xlink:href="#bean" transform="translate(${cx + Math.cos(a) * d} ${cy + Math.sin(a) * d * 0.9}) rotate(${Math.round(s.between(0, 360))}) scale(0.95)"/>`;
  }).join('');
  return [
    `<g transform="rotate(-24 ${cx} ${cy})">`,
    rectShadow(cx + 100, cy - 6, 240, 40, 20, 8, 0.25),
    `<rect x="${cx + 90}" y="${cy - 20}" width="240" height="40" rx="20" fill="#A77C52"/>`,
    `<rect x="${cx + 90}" y="${cy - 20}" width="240" height="14" rx="7" fill="#FFFFFF" opacity="0.15"/>`,
    `</g>`,
    discShadow(s, cx + 12, cy + 18, 118, 18, 0.32),
    `<circle cx="${cx}" cy="${cy}" r="118" fill="#B98B5E"/>`,
    `<circle cx="${cx}" cy="${cy}" r="104" fill="#8E6440"/>`,
    pile,
  ].join('');
}

function sprig(x: number, y: number, size: number): string {
  const k = size / 220;
  return [
    `<g transform="translate(${x} ${y}) scale(${k})">`,
    `<g opacity="0.16" transform="translate(12 18)"><use href="#leaf" xlink:href="#leaf" transform="rotate(150)"/><use href="#leaf" xlink:href="#leaf" transform="rotate(200)"/></g>`,
    `<use href="#leaf" xlink:href="#leaf" transform="rotate(150)"/>`,
    `<use href="#leaf" xlink:href="#leaf" transform="rotate(205) scale(0.85)"/>`,
    `</g>`,
  ].join('');
}

function cherries(x: number, y: number): string {
  return [
    `<use href="#cherry" xlink:href="#cherry" transform="translate(${x} ${y})"/>`,
    `<use href="#cherry" xlink:href="#cherry" transform="translate(${x + 40} ${y + 18}) scale(0.92)"/>`,
    `<use href="#cherry" xlink:href="#cherry" transform="translate(${x + 18} ${y + 48}) scale(0.95)"/>`,
  ].join('');
}

function barcode(s: Scene, x: number, y: number, w: number, h: number, ink: string): string {
  const bars: string[] = [];
  for (let cursor = x; cursor < x + w; ) {
    const width = [2, 3, 4, 6][Math.floor(s.random() * 4)];
    if (s.random() > 0.35) bars.push(`<path d="M${cursor + width / 2} ${y}v${h}" stroke="${ink}" stroke-width="${width}"/>`);
    cursor += width + 2;
  }
  const digits = `5 901234 ${String(hash(s.p.key) % 1_000_000).padStart(6, '0')}`;
  return bars.join('') + text(x, y + h + 20, digits, { size: 14, family: SANS, fill: ink, spacing: 2, anchor: 'start' });
}

// ── View 2: a cup on the table, from above ─────────────────────────────────────────────────────

function cupView(s: Scene): string {
  const { c, p } = s;
  const parts = [tablecloth(s)];
  const espresso = p.category === 'capsulesAndPods';
  const cx = espresso ? 720 : 690;
  const cy = espresso ? 900 : 870;
  const saucer = espresso ? 250 : 300;
  const cup = espresso ? 150 : 200;

  // The pack itself, lying at the top left and running out of the frame.
  parts.push(packCorner(s));

  // Saucer, cup, handle, coffee.
  parts.push(discShadow(s, cx + 24, cy + 34, saucer, 40, 0.3));
  parts.push(`<circle cx="${cx}" cy="${cy}" r="${saucer}" fill="url(#ceramic)"/>`);
  parts.push(`<circle cx="${cx}" cy="${cy}" r="${saucer - 38}" fill="none" stroke="#000000" stroke-width="3" opacity="0.06"/>`);
  const hx = cx + cup * 0.72;
  const hy = cy + cup * 0.72;
  parts.push(`<g transform="rotate(45 ${hx} ${hy})"><rect x="${hx - 26}" y="${hy - 6}" width="52" height="${cup * 0.55}" rx="24" fill="#000000" opacity="0.16" transform="translate(8 10)"/><rect x="${hx - 26}" y="${hy - 6}" width="52" height="${cup * 0.55}" rx="24" fill="url(#cup-fill)"/></g>`);
  parts.push(discShadow(s, cx + 16, cy + 22, cup, 20, 0.3));
  parts.push(`<circle cx="${cx}" cy="${cy}" r="${cup}" fill="url(#cup-fill)"/>`);
  parts.push(`<circle cx="${cx}" cy="${cy}" r="${cup - 14}" fill="${mix(c.label, '#FFFFFF', 0.4)}"/>`);
  parts.push(`<circle cx="${cx}" cy="${cy}" r="${cup - 22}" fill="url(#coffee)"/>`);
  parts.push(`<ellipse cx="${cx - cup * 0.25}" cy="${cy - cup * 0.3}" rx="${cup * 0.32}" ry="${cup * 0.12}" transform="rotate(-30 ${cx - cup * 0.25} ${cy - cup * 0.3})" fill="#FFFFFF" opacity="0.12"/>`);

  if (p.category === 'dripCoffeeBags') {
    // The drip bag hanging in the cup: paper filter with arms over the rim.
    const fw = cup * 1.05;
    parts.push(rectShadow(cx - fw / 2 + 8, cy - fw / 2 + 14, fw, fw, 0, 8, 0.22));
    parts.push(`<rect x="${cx - fw / 2}" y="${cy - fw / 2}" width="${fw}" height="${fw}" fill="url(#sachet)"/>`);
    parts.push(`<rect x="${cx - fw / 2 + 18}" y="${cy - fw / 2 + 18}" width="${fw - 36}" height="${fw - 36}" fill="url(#ground-fill)"/>`);
    parts.push(`<rect x="${cx - fw / 2 + 18}" y="${cy - fw / 2 + 18}" width="${fw - 36}" height="${fw - 36}" fill="url(#grounds)"/>`);
    parts.push(`<path d="M${cx - fw / 2} ${cy - 40}h-${cup * 0.3}v80h${cup * 0.3}M${cx + fw / 2} ${cy - 40}h${cup * 0.3}v80h-${cup * 0.3}" fill="${mix(c.label, '#FFFFFF', 0.5)}" stroke="#CDBFA8" stroke-width="2"/>`);
  }

  // A spoon on the saucer.
  parts.push(spoon(cx, cy, (cup + saucer) / 2 + 4, saucer * 0.62));

  // Props around: the pack's tag card, beans, capsules, leaves.
  parts.push(tagCard(s, 90, 1180, 430, 250, -5));
  if (p.category === 'capsulesAndPods') {
    if (isPods(p)) parts.push(podTop(s, 930, 1160, 0.9), podTop(s, 1030, 1330, 0.8));
    else parts.push(capsuleTop(s, 900, 1150, 0.8), capsuleTopFoil(s, 1030, 1310, 0.8), capsuleTop(s, 870, 1370, 0.75));
  } else {
    parts.push(beans(s, 14, { x: [760, 1100], y: [1080, 1400] }));
  }
  parts.push(beans(s, 6, { x: [90, 300], y: [760, 1020] }));
  parts.push(sprig(1040, 260, 190));
  return parts.join('');
}

function packCorner(s: Scene): string {
  const { p } = s;
  const w = 600;
  const h = 960;
  const carton = p.category === 'dripCoffeeBags' || p.category === 'capsulesAndPods';
  const r = carton ? 6 : 26;
  return [
    `<g transform="translate(-130 -360) rotate(-14)">`,
    rectShadow(16, 26, w, h, r, 16, 0.3),
    `<rect width="${w}" height="${h}" rx="${r}" fill="url(#bag-fill)"/>`,
    `<rect width="${w}" height="${h}" rx="${r}" fill="url(#bag-light)" opacity="0.45"/>`,
    carton ? '' : `<rect y="${h - 70}" width="${w}" height="70" rx="${r}" fill="#000000" opacity="0.12"/>`,
    frontLabel(s, 60, 200, w - 120, h - 290),
    `</g>`,
  ].join('');
}

/** A teaspoon resting on the saucer, tangent to the cup, its bowl towards the bottom left. */
function spoon(cx: number, cy: number, distance: number, length: number): string {
  const angle = 135;
  const sx = cx + Math.cos((angle * Math.PI) / 180) * distance;
  const sy = cy + Math.sin((angle * Math.PI) / 180) * distance;
  const shape = (fill: string) =>
    `<ellipse cx="0" cy="${length / 2}" rx="20" ry="32" fill="${fill}"/><path d="M-5 ${length / 2 - 30}L-7 ${-length / 2}Q0 ${-length / 2 - 10} 7 ${-length / 2}L5 ${length / 2 - 30}Z" fill="${fill}"/>`;
  return [
    `<g transform="translate(${round(sx)} ${round(sy)}) rotate(${angle - 180})">`,
    `<g transform="translate(7 9)" opacity="0.14">${shape('#000000')}</g>`,
    shape('url(#metal)'),
    `<ellipse cx="-5" cy="${length / 2 - 8}" rx="7" ry="14" fill="#FFFFFF" opacity="0.45"/>`,
    `</g>`,
  ].join('');
}

/** A little printed card with the coffee's name, as a roaster tucks into the box. */
function tagCard(s: Scene, x: number, y: number, w: number, h: number, angle: number): string {
  const { c, p } = s;
  const name = packName(p);
  const size = fitSize(name, w - 60, 34, 22, 0.6, 1);
  return [
    `<g transform="rotate(${angle} ${x + w / 2} ${y + h / 2})">`,
    rectShadow(x + 10, y + 16, w, h, 8, 14, 0.26),
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="8" fill="url(#label-fill)"/>`,
    `<rect x="${x}" y="${y}" width="14" height="${h}" fill="${c.bag}"/>`,
    text(x + 40, y + 52, p.origin.toUpperCase(), { size: 16, family: SANS, weight: 700, fill: accentInk(c), spacing: 4, anchor: 'start' }),
    text(x + 40, y + 100, name, { size, family: SERIF, weight: 700, fill: c.ink, anchor: 'start' }),
    text(x + 40, y + 140, `${altitude(p)} · ${processName(p)}`, { size: 18, family: SERIF, style: 'italic', fill: c.inkSoft, anchor: 'start' }),
    text(x + 40, y + 200, p.en.notes.join(' · '), { size: fitSize(p.en.notes.join(' · '), w - 70, 18, 13, 0.58, 1), family: SANS, fill: c.ink, anchor: 'start' }),
    `</g>`,
  ].join('');
}

// ── Shared pieces ─────────────────────────────────────────────────────────────────────────────

function beans(s: Scene, count: number, area: { x: [number, number]; y: [number, number] }): string {
  return Array.from({ length: count }, () => {
    const x = Math.round(s.between(area.x[0], area.x[1]));
    const y = Math.round(s.between(area.y[0], area.y[1]));
    const angle = Math.round(s.between(0, 360));
    const scale = s.between(0.85, 1.1).toFixed(2);
    return `<use href="#bean" xlink:href="#bean" transform="translate(${x} ${y}) rotate(${angle}) scale(${scale})"/>`;
  }).join('');
}

type TextOptions = {
  size: number;
  family: string;
  fill: string;
  weight?: number;
  style?: 'italic';
  spacing?: number;
  anchor?: 'start' | 'middle' | 'end';
};

function text(x: number, y: number, content: string, o: TextOptions): string {
  const attrs = [
    `x="${round(x)}"`,
    `y="${round(y)}"`,
    `font-family="${o.family}"`,
    `font-size="${round(o.size)}"`,
    `fill="${o.fill}"`,
    `text-anchor="${o.anchor ?? 'middle'}"`,
    o.weight ? `font-weight="${o.weight}"` : '',
    o.style ? `font-style="${o.style}"` : '',
    o.spacing ? `letter-spacing="${o.spacing}"` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return `<text ${attrs}>${escapeXml(content)}</text>`;
}

export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch] as string);
}

/** The largest font size (down to `min`) at which `value` fits `lines` lines of `width` px. */
function fitSize(value: string, width: number, max: number, min: number, charWidth: number, lines: number): number {
  for (let size = max; size > min; size -= 1) {
    const perLine = Math.floor(width / (size * charWidth));
    if (wrap(value, perLine).length <= lines) return size;
  }
  return min;
}

function wrap(value: string, perLine: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of value.split(/\s+/)) {
    if (line && (line + ' ' + word).length > perLine) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Wraps tasting notes without splitting a note across lines. */
function wrapNotes(notes: string[], perLine: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const note of notes) {
    if (line && (line + ' · ' + note).length > perLine) {
      lines.push(line);
      line = note;
    } else {
      line = line ? `${line} · ${note}` : note;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The name printed under the origin: "Sulawesi Kalosi, Ground" → "Kalosi". */
function packName(p: DemoProduct): string {
  const name = p.en.name.split(',')[0].trim();
  return name.startsWith(`${p.origin} `) ? name.slice(p.origin.length + 1) : name;
}

function isPods(p: DemoProduct): boolean {
  return /pods/i.test(p.en.name);
}

function grindFor(p: DemoProduct): string {
  return { wholeBean: 'Whole bean', espresso: 'Espresso', mokaPot: 'Moka Pot', aeropress: 'AeroPress', filter: 'Filter', frenchPress: 'French Press' }[p.grind ?? 'filter'];
}

function packSize(p: DemoProduct): string {
  switch (p.category) {
    case 'wholeBean':
      return '250 g · WHOLE BEAN';
    case 'groundCoffee':
      return `250 g · GROUND · ${grindFor(p).toUpperCase()}`;
    case 'dripCoffeeBags':
      return '10 DRIP BAGS × 12 g';
    case 'capsulesAndPods':
      return isPods(p) ? '18 ESE PODS × 7 g' : '10 CAPSULES × 5.5 g';
  }
}

function brewGuide(p: DemoProduct): [string, string][] {
  if (p.category === 'groundCoffee' && (p.grind === 'mokaPot' || p.grind === 'espresso')) return [['18 g', 'coffee'], ['1:2', 'ratio'], ['28 s', 'shot']];
  if (p.category === 'groundCoffee' && p.grind === 'frenchPress') return [['65 g', 'per litre'], ['94 °C', 'water'], ['4 min', 'steep']];
  if (p.roast === 'dark' || p.roast === 'mediumDark') return [['16 g', 'coffee'], ['250 ml', 'water'], ['94 °C', 'temp.']];
  return [['15 g', 'coffee'], ['250 ml', 'water'], ['92 °C', 'temp.']];
}

function altitude(p: DemoProduct): string {
  const f = (n: number) => n.toLocaleString('en-US');
  return `${f(p.altitudeMin)}–${f(p.altitudeMax)} m`;
}

function processName(p: DemoProduct): string {
  return { washed: 'Washed', natural: 'Natural', honey: 'Honey', wetHulled: 'Wet-hulled', anaerobic: 'Anaerobic' }[p.process];
}

function roastName(p: DemoProduct): string {
  return { light: 'Light', medium: 'Medium', mediumDark: 'Medium-dark', dark: 'Dark' }[p.roast];
}

/** Accent colour for text on the label, darkened until it reads well on the label paper. */
function accentInk(c: Colours): string {
  let colour = c.accent;
  for (let i = 0; i < 8 && contrast(colour, c.label) < 4.5; i++) colour = mix(colour, '#000000', 0.15);
  return colour;
}

function readableOn(background: string, c: Colours): string {
  return contrast(c.label, background) >= contrast(c.ink, background) ? mix(c.label, '#FFFFFF', 0.4) : c.ink;
}

/** A soft shadow under a rounded rectangle: a few translucent layers, each a little larger. */
function rectShadow(x: number, y: number, w: number, h: number, r: number, spread: number, opacity: number): string {
  const layers = 5;
  const each = (1 - (1 - opacity) ** (1 / layers)).toFixed(3);
  return Array.from({ length: layers }, (_, i) => {
    const grow = spread * ((i + 1) / layers - 0.5);
    return `<rect x="${round(x - grow)}" y="${round(y - grow)}" width="${round(w + grow * 2)}" height="${round(h + grow * 2)}" rx="${round(Math.max(0, r + grow))}" fill="${SHADOW}" opacity="${each}"/>`;
  }).join('');
}

function ellipseShadow(cx: number, cy: number, rx: number, ry: number, opacity: number): string {
  return `<ellipse cx="${round(cx)}" cy="${round(cy)}" rx="${round(rx)}" ry="${round(ry)}" fill="url(#shade)" opacity="${opacity}"/>`;
}

/** A round shadow with a solid core and a soft edge `spread` wide. */
function discShadow(s: Scene, cx: number, cy: number, r: number, spread: number, opacity: number): string {
  const core = Math.round((r / (r + spread)) * 100) / 100;
  const id = s.def(
    `disc-${Math.round(core * 100)}`,
    `<radialGradient id="disc-${Math.round(core * 100)}"><stop offset="0" stop-color="${SHADOW}"/><stop offset="${core - 0.04}" stop-color="${SHADOW}" stop-opacity="0.85"/><stop offset="1" stop-color="${SHADOW}" stop-opacity="0"/></radialGradient>`,
  );
  return `<circle cx="${round(cx)}" cy="${round(cy)}" r="${round(r + spread)}" fill="url(#${id})" opacity="${opacity}"/>`;
}

// ── Colour and randomness ─────────────────────────────────────────────────────────────────────

function rgb(hex: string): [number, number, number] {
  const h = hex.replace('#', '');
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

function mix(a: string, b: string, t: number): string {
  const [r1, g1, b1] = rgb(a);
  const [r2, g2, b2] = rgb(b);
  const ch = (x: number, y: number) =>
    Math.round(x + (y - x) * t)
      .toString(16)
      .padStart(2, '0');
  return `#${ch(r1, r2)}${ch(g1, g2)}${ch(b1, b2)}`.toUpperCase();
}

function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (l1 + 0.05) / (l2 + 0.05);
}

function hash(value: string): number {
  let h = 2166136261;
  for (let i = 0; i < value.length; i++) h = Math.imul(h ^ value.charCodeAt(i), 16777619);
  return h >>> 0;
}

function seededRandom(seed: string): () => number {
  let a = hash(seed);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
