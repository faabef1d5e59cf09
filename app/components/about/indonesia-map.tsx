import { useId } from 'react';

/**
 * A hand-drawn map of Indonesia with the growing regions of the catalogue.
 *
 * Coastlines are simplified outlines in longitude/latitude, projected equirectangularly (20 units per degree,
 * 90°E–141°E, 7°N–12°S) and smoothed into curves. Labels sit in the sea with leader lines. Wide screens get the
 * archipelago in one strip; narrower ones get it folded into two halves, one above the other, so the labels
 * stay large enough to read on a phone. Only one of the two SVGs is displayed at a time.
 */
export type MapOrigin = { key: string; label: string; x?: number; y?: number };

const WIDTH = 1020;
const HEIGHT = 380;
const UNITS_PER_DEGREE = 20;
const WEST = 90;
const NORTH = 7;

type LonLat = [number, number];

function project([lon, lat]: LonLat): [number, number] {
  return [round((lon - WEST) * UNITS_PER_DEGREE), round((NORTH - lat) * UNITS_PER_DEGREE)];
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** A closed Catmull-Rom curve through the projected points (whole units are precise enough at this scale). */
function outline(points: LonLat[]): string {
  const p = points.map(project);
  const n = p.length;
  const at = (x: number, y: number) => `${Math.round(x)} ${Math.round(y)}`;
  let d = `M${at(p[0][0], p[0][1])}`;
  for (let i = 0; i < n; i++) {
    const [p0, p1, p2, p3] = [p[(i - 1 + n) % n], p[i], p[(i + 1) % n], p[(i + 2) % n]];
    d += `C${at(p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)} ${at(p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)} ${at(p2[0], p2[1])}`;
  }
  return `${d}Z`;
}

const islands: Record<string, LonLat[]> = {
  sumatra: [
    [95.2, 5.6], [95.9, 5.6], [96.6, 5.2], [97.5, 5.2], [98.2, 4.3], [98.7, 3.8], [99.6, 3.2], [100.4, 2.3],
    [101.4, 1.8], [102.2, 1.3], [103.0, 0.9], [103.8, 0.1], [103.6, -0.6], [104.4, -1.0], [104.8, -1.9],
    [105.6, -2.4], [106.0, -3.2], [105.9, -4.4], [105.8, -5.6], [105.3, -5.9], [104.6, -5.9], [104.2, -5.5],
    [103.4, -4.8], [102.3, -3.9], [101.5, -3.0], [100.8, -2.1], [100.3, -1.0], [99.8, -0.2], [99.2, 0.6],
    [98.7, 1.6], [98.1, 2.3], [97.5, 2.9], [96.9, 3.6], [96.1, 4.2], [95.5, 4.9],
  ],
  simeulue: [[95.8, 2.9], [96.4, 2.6], [96.3, 2.4], [95.8, 2.6]],
  nias: [[97.0, 1.5], [97.6, 1.2], [97.9, 0.6], [97.4, 0.8], [96.9, 1.2]],
  siberut: [[98.6, -1.0], [99.2, -1.4], [99.1, -1.8], [98.6, -1.5]],
  bangka: [[105.1, -1.6], [105.9, -1.5], [106.4, -2.2], [106.8, -3.0], [106.4, -3.1], [105.8, -2.3], [105.2, -2.1]],
  belitung: [[107.6, -2.6], [108.2, -2.6], [108.3, -3.1], [107.8, -3.2], [107.5, -2.9]],
  java: [
    [105.2, -6.8], [105.8, -6.0], [106.4, -6.0], [106.9, -6.05], [107.6, -6.2], [108.3, -6.25], [108.7, -6.75],
    [109.5, -6.85], [110.4, -6.95], [110.9, -6.4], [111.3, -6.6], [112.1, -6.9], [112.7, -7.0], [112.9, -7.6],
    [113.6, -7.7], [114.4, -7.75], [114.4, -8.3], [114.6, -8.75], [113.8, -8.45], [113.2, -8.3], [112.0, -8.35],
    [111.0, -8.2], [110.3, -8.1], [109.3, -7.75], [108.4, -7.8], [107.4, -7.5], [106.4, -7.4], [105.5, -6.9],
  ],
  madura: [[112.7, -6.9], [113.5, -6.9], [114.1, -6.95], [114.0, -7.15], [113.3, -7.2], [112.8, -7.2]],
  bali: [[114.45, -8.1], [114.9, -8.05], [115.2, -8.05], [115.7, -8.35], [115.5, -8.7], [115.2, -8.85], [115.1, -8.75], [114.6, -8.4]],
  lombok: [[115.85, -8.35], [116.1, -8.2], [116.4, -8.2], [116.7, -8.45], [116.6, -8.9], [116.0, -8.9], [115.85, -8.7]],
  sumbawa: [
    [116.8, -8.5], [117.2, -8.4], [117.6, -8.55], [118.0, -8.15], [118.3, -8.3], [118.8, -8.3], [119.15, -8.6],
    [118.9, -8.8], [118.2, -8.85], [117.7, -9.0], [117.1, -9.05], [116.8, -8.85],
  ],
  flores: [
    [119.8, -8.45], [120.5, -8.25], [121.2, -8.45], [122.0, -8.55], [122.5, -8.35], [123.0, -8.3], [122.9, -8.6],
    [122.2, -8.75], [121.5, -8.85], [120.8, -8.85], [120.1, -8.8], [119.85, -8.7],
  ],
  sumba: [[119.0, -9.4], [119.9, -9.3], [120.8, -9.9], [120.3, -10.3], [119.3, -9.8]],
  timor: [
    [123.5, -10.35], [124.4, -9.5], [125.0, -9.1], [125.6, -8.6], [126.5, -8.4], [127.3, -8.4], [126.6, -8.8],
    [125.8, -9.3], [124.9, -9.9], [124.0, -10.4],
  ],
  borneo: [
    [109.6, 1.9], [110.3, 1.7], [111.2, 2.3], [112.5, 3.0], [113.0, 3.2], [113.9, 4.4], [115.0, 5.0], [115.6, 5.6],
    [116.2, 6.3], [116.8, 7.0], [117.7, 6.4], [118.1, 5.8], [119.3, 5.1], [118.3, 4.4], [117.8, 3.6], [117.8, 2.4],
    [118.1, 1.6], [119.0, 0.9], [117.9, 0.8], [117.6, 0.0], [117.4, -0.8], [117.0, -1.2], [116.5, -2.2],
    [116.4, -3.2], [116.0, -3.9], [115.0, -4.0], [114.6, -3.6], [113.7, -3.4], [113.0, -3.2], [112.0, -3.4],
    [111.6, -3.0], [110.8, -3.0], [110.2, -2.9], [110.1, -1.8], [109.5, -0.9], [109.2, 0.0], [108.9, 0.9], [109.1, 1.5],
  ],
  sulawesi: [
    [125.2, 1.55], [124.8, 1.5], [124.3, 1.1], [123.4, 0.95], [122.5, 1.0], [121.6, 1.1], [120.8, 1.3], [120.2, 0.9],
    [119.8, 0.4], [119.7, -0.3], [119.6, -0.8], [119.4, -1.5], [119.0, -2.3], [118.8, -2.8], [118.9, -3.5],
    [119.4, -3.6], [119.6, -4.1], [119.6, -4.6], [119.4, -5.2], [119.5, -5.65], [120.0, -5.7], [120.5, -5.6],
    [120.3, -5.0], [120.4, -4.4], [120.4, -3.8], [120.2, -3.1], [120.6, -2.7], [121.1, -2.6], [121.3, -3.2],
    [121.6, -4.0], [121.9, -4.8], [122.5, -4.75], [122.9, -4.5], [122.6, -4.0], [122.3, -3.4], [122.1, -2.8],
    [121.6, -2.1], [121.5, -1.7], [122.2, -1.5], [122.9, -1.2], [123.4, -0.95], [122.8, -0.8], [122.1, -0.85],
    [121.6, -0.9], [121.0, -1.3], [120.75, -1.4], [120.5, -1.1], [120.15, -0.7], [120.1, -0.2], [120.3, 0.3],
    [121.1, 0.45], [122.0, 0.45], [123.0, 0.5], [124.0, 0.5], [124.5, 0.7], [125.0, 1.1],
  ],
  halmahera: [
    [127.6, 2.2], [128.0, 2.0], [128.2, 1.4], [128.7, 1.1], [128.2, 0.8], [127.9, 0.3], [128.9, 0.4], [128.3, -0.2],
    [128.0, -0.6], [127.7, -0.3], [127.8, 0.8], [127.5, 1.4],
  ],
  seram: [[128.1, -2.9], [129.0, -2.8], [130.0, -2.9], [130.9, -3.4], [130.3, -3.6], [129.5, -3.4], [128.6, -3.5], [128.1, -3.3]],
  buru: [[126.0, -3.2], [126.7, -3.0], [127.2, -3.4], [126.8, -3.8], [126.2, -3.7]],
  aru: [[134.2, -5.6], [134.7, -5.5], [134.8, -6.5], [134.3, -6.8]],
  kai: [[132.6, -5.5], [132.9, -5.5], [132.8, -5.9], [132.6, -5.8]],
  tanimbar: [[131.2, -7.2], [131.6, -7.1], [131.4, -8.0], [131.0, -8.0]],
  papua: [
    [131.0, -0.9], [131.8, -0.4], [132.6, -0.4], [133.6, -0.7], [134.1, -0.9], [134.2, -1.8], [134.6, -2.6],
    [135.2, -3.4], [135.9, -3.0], [136.4, -2.3], [137.2, -1.6], [138.0, -1.7], [138.8, -2.0], [139.8, -2.3],
    [140.7, -2.5], [141.6, -2.7], [141.6, -9.3], [140.6, -8.6], [139.9, -8.1], [138.9, -8.3], [138.3, -8.4],
    [137.7, -7.6], [138.2, -7.0], [138.0, -6.3], [137.3, -5.3], [136.2, -4.6], [135.3, -4.4], [134.5, -4.0],
    [133.7, -3.9], [132.9, -4.1], [132.6, -3.5], [132.0, -2.9], [132.6, -2.7], [133.4, -2.4], [133.0, -2.1],
    [132.2, -2.2], [131.4, -1.6],
  ],
};

/** Neighbouring land, drawn paler for orientation. */
const neighbours: LonLat[][] = [
  [[99.9, 7.6], [101.3, 6.8], [102.2, 6.2], [103.4, 4.8], [103.5, 3.0], [104.3, 1.4], [103.5, 1.3], [102.5, 2.0], [101.3, 2.9], [100.7, 4.0], [100.3, 5.5], [99.7, 7.0]],
  [[121.8, 7.6], [122.1, 6.9], [123.4, 7.3], [124.2, 6.2], [125.3, 5.6], [125.7, 6.6], [126.4, 7.0], [126.6, 7.6]],
];

const islandPaths = Object.values(islands).map(outline);
const neighbourPaths = neighbours.map(outline);

/** Where the catalogue's growing regions are, in the map's coordinates (the wide layout's viewBox, 0 0 1020 380). */
export const originPositions: Record<string, { x: number; y: number }> = Object.fromEntries(
  (
    [
      ['gayo', [96.85, 4.62]],
      ['aceh', [96.85, 4.62]],
      ['lintong', [98.9, 2.3]],
      ['mandheling', [99.4, 0.8]],
      ['kerinci', [101.3, -1.7]],
      ['preanger', [107.7, -7.2]],
      ['malabar', [107.6, -7.1]],
      ['ijen', [114.2, -8.0]],
      ['kintamani', [115.35, -8.25]],
      ['sembalun', [116.53, -8.36]],
      ['manggarai', [120.45, -8.6]],
      ['bajawa', [120.97, -8.8]],
      ['timor', [124.2, -9.7]],
      ['toraja', [119.85, -3.0]],
      ['enrekang', [119.8, -3.55]],
      ['kalosi', [119.8, -3.55]],
      ['wamena', [138.95, -4.1]],
    ] as [string, LonLat][]
  ).map(([key, lonLat]) => {
    const [x, y] = project(lonLat);
    return [key, { x, y }];
  }),
);

type Placement = { dx: number; dy: number; anchor: 'start' | 'middle' | 'end' };

type Layout = {
  /** Sizes in viewBox units, chosen so text is at least ~12 px where the layout is shown. */
  nameSize: number;
  regionSize: number;
  marker: number;
  width: number;
  height: number;
  /** Windows onto the map (world coordinates) and where each sits in this layout. */
  panels: { from: [number, number]; size: [number, number]; at: [number, number] }[];
  /** Label offsets from the marker; keys not listed use `fallback`. */
  placements: Record<string, Placement>;
  fallback: Placement;
};

/** Wide screens: the whole archipelago in one strip. */
const wide: Layout = {
  nameSize: 16,
  regionSize: 13,
  marker: 7,
  width: WIDTH,
  height: HEIGHT,
  panels: [{ from: [0, 0], size: [WIDTH, HEIGHT], at: [0, 0] }],
  placements: {
    gayo: { dx: -42, dy: -24, anchor: 'end' },
    aceh: { dx: -42, dy: -24, anchor: 'end' },
    lintong: { dx: -170, dy: -8, anchor: 'start' },
    mandheling: { dx: -180, dy: 14, anchor: 'start' },
    kerinci: { dx: -64, dy: 34, anchor: 'end' },
    preanger: { dx: -20, dy: 46, anchor: 'middle' },
    malabar: { dx: -44, dy: 60, anchor: 'middle' },
    // Ijen and Kintamani sit a strait apart: their labels grow away from each other.
    ijen: { dx: 8, dy: 44, anchor: 'end' },
    kintamani: { dx: -4, dy: 44, anchor: 'start' },
    sembalun: { dx: 12, dy: -44, anchor: 'end' },
    manggarai: { dx: -24, dy: -52, anchor: 'middle' },
    bajawa: { dx: 22, dy: -52, anchor: 'middle' },
    timor: { dx: 30, dy: -30, anchor: 'start' },
    toraja: { dx: 74, dy: 4, anchor: 'start' },
    enrekang: { dx: 74, dy: 28, anchor: 'start' },
    kalosi: { dx: 74, dy: 28, anchor: 'start' },
    wamena: { dx: -24, dy: 104, anchor: 'middle' },
  },
  fallback: { dx: 24, dy: -20, anchor: 'start' },
};

/**
 * Phones and tablets: the archipelago folded into a western and an eastern half, so the labels can be
 * large enough to read (about 13 px names on a 360 px screen).
 */
const folded: Layout = {
  nameSize: 22,
  regionSize: 19,
  marker: 8,
  width: 540,
  height: 776,
  panels: [
    { from: [50, 0], size: [540, 380], at: [0, 0] },
    { from: [480, 0], size: [540, 380], at: [0, 396] },
  ],
  placements: {
    gayo: { dx: -40, dy: 50, anchor: 'middle' },
    aceh: { dx: -40, dy: 50, anchor: 'middle' },
    lintong: { dx: -128, dy: 10, anchor: 'start' },
    mandheling: { dx: 16, dy: -12, anchor: 'start' },
    kerinci: { dx: 18, dy: 44, anchor: 'start' },
    preanger: { dx: -30, dy: 42, anchor: 'middle' },
    malabar: { dx: -60, dy: 62, anchor: 'middle' },
    ijen: { dx: -54, dy: -56, anchor: 'middle' },
    kintamani: { dx: 0, dy: 40, anchor: 'middle' },
    sembalun: { dx: 58, dy: -62, anchor: 'end' },
    manggarai: { dx: -30, dy: 44, anchor: 'middle' },
    bajawa: { dx: 30, dy: -58, anchor: 'middle' },
    timor: { dx: 40, dy: 30, anchor: 'start' },
    toraja: { dx: 88, dy: 2, anchor: 'start' },
    enrekang: { dx: -108, dy: 36, anchor: 'start' },
    kalosi: { dx: -108, dy: 36, anchor: 'start' },
    wamena: { dx: -20, dy: 108, anchor: 'middle' },
  },
  fallback: { dx: 24, dy: -24, anchor: 'start' },
};

type Marker = MapOrigin & { x: number; y: number };

export function IndonesiaMap({
  title,
  description,
  origins,
}: {
  title: string;
  description: string;
  origins: MapOrigin[];
}) {
  // useId may contain characters that do not belong in url(#…) references.
  const id = `map${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const markers = origins
    .map((origin) => {
      const position = origin.x !== undefined && origin.y !== undefined ? { x: origin.x, y: origin.y } : originPositions[origin.key];
      return position ? { ...origin, ...position } : null;
    })
    .filter((m): m is Marker => m !== null);
  return (
    <>
      <MapSvg id={`${id}w`} layout={wide} className="hidden h-auto w-full lg:block" {...{ title, description, markers }} />
      <MapSvg id={`${id}f`} layout={folded} className="mx-auto block h-auto w-full max-w-[30rem] lg:hidden" {...{ title, description, markers }} />
    </>
  );
}

function MapSvg({
  id,
  layout,
  className,
  title,
  description,
  markers,
}: {
  id: string;
  layout: Layout;
  className: string;
  title: string;
  description: string;
  markers: Marker[];
}) {
  return (
    <svg
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      role="img"
      aria-labelledby={`${id}-title ${id}-desc`}
      className={className}
      xmlns="http://www.w3.org/2000/svg"
    >
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      <defs>
        <linearGradient id={`${id}-sea`} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#E4EFEC" />
          <stop offset="1" stopColor="#D3E5E1" />
        </linearGradient>
        <g id={`${id}-islands`}>
          {islandPaths.map((d, i) => (
            <path key={i} d={d} />
          ))}
        </g>
      </defs>
      {layout.panels.map((panel, index) => {
        const [fromX, fromY] = panel.from;
        const [w, h] = panel.size;
        const inside = markers.filter((m) => m.x >= fromX && m.x < fromX + w && m.y >= fromY && m.y < fromY + h);
        // A marker shown in one panel is not repeated in the next.
        const own = inside.filter((m) => layout.panels.findIndex((p) => m.x >= p.from[0] && m.x < p.from[0] + p.size[0]) === index);
        return (
          <svg key={index} x={panel.at[0]} y={panel.at[1]} width={w} height={h} viewBox={`${fromX} ${fromY} ${w} ${h}`}>
            <rect x={fromX} y={fromY} width={w} height={h} fill={`url(#${id}-sea)`} />
            <Land islands={`#${id}-islands`} />
            {own.map((m) => (
              <Label key={m.key} marker={m} layout={layout} />
            ))}
            {own.map((m) => (
              <circle key={m.key} cx={m.x} cy={m.y} r={layout.marker} fill="#2F6B4F" stroke="#FFFFFF" strokeWidth="2.5" />
            ))}
          </svg>
        );
      })}
    </svg>
  );
}

function Land({ islands }: { islands: string }) {
  return (
    <>
      {/* The equator and a few calm swells. */}
      <path d={`M0 ${NORTH * UNITS_PER_DEGREE}H${WIDTH}`} stroke="#B9D3CD" strokeWidth="1.5" strokeDasharray="2 7" />
      <g fill="none" stroke="#C3DAD5" strokeWidth="2" strokeLinecap="round">
        <path d="M40 300q12-8 24 0t24 0" />
        <path d="M140 360q12-8 24 0t24 0" />
        <path d="M720 60q12-8 24 0t24 0" />
        <path d="M790 350q12-8 24 0t24 0" />
        <path d="M450 165q12-8 24 0t24 0" />
      </g>
      <g fill="#E9E2D3" stroke="#D8CDB8" strokeWidth="1.5">
        {neighbourPaths.map((d, i) => (
          <path key={i} d={d} />
        ))}
      </g>
      {/* A soft offset shadow under the islands, then the islands. */}
      <use href={islands} fill="#B9CFC8" transform="translate(2 3)" />
      <use href={islands} fill="#EBDDC3" stroke="#C9B08A" strokeWidth="1.5" strokeLinejoin="round" />
    </>
  );
}

function Label({ marker, layout }: { marker: Marker; layout: Layout }) {
  const place = layout.placements[marker.key] ?? layout.fallback;
  const [name, region] = splitLabel(marker.label);
  const x = marker.x + place.dx;
  const y = marker.y + place.dy;
  // The leader line runs from the marker to the nearest edge of the label's (estimated) box.
  const width = Math.max(name.length * layout.nameSize * 0.62, (region?.length ?? 0) * layout.regionSize * 0.56);
  const left = place.anchor === 'start' ? x : place.anchor === 'middle' ? x - width / 2 : x - width;
  const top = y - layout.nameSize * 0.8;
  const bottom = region ? y + layout.regionSize + 6 : y + 4;
  const pad = 5;
  const endX = clamp(marker.x, left - pad, left + width + pad);
  const endY = clamp(marker.y, top - pad, bottom + pad);
  return (
    <g>
      <path d={`M${marker.x} ${marker.y}L${round(endX)} ${round(endY)}`} stroke="#5E4032" strokeWidth="1.3" />
      <text
        x={x}
        y={y}
        textAnchor={place.anchor}
        fill="#2B1A12"
        stroke="#F7F3EA"
        strokeWidth="4"
        strokeLinejoin="round"
        paintOrder="stroke"
      >
        <tspan fontSize={layout.nameSize} fontWeight="700">
          {name}
        </tspan>
        {region ? (
          <tspan x={x} dy={layout.regionSize + 4} fontSize={layout.regionSize} fill="#5E4032">
            {region}
          </tspan>
        ) : null}
      </text>
    </g>
  );
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

/** "Mandheling, North Sumatra" → ["Mandheling", "North Sumatra"]. */
function splitLabel(label: string): [string, string | undefined] {
  const comma = label.indexOf(', ');
  return comma === -1 ? [label, undefined] : [label.slice(0, comma), label.slice(comma + 2)];
}
