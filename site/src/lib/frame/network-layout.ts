/**
 * Where each researcher of a `/frame/api/v1/network` graph is drawn: a force-directed layout (d3-force) run to
 * rest on the server, so the page's SVG is complete without JavaScript. Each connected component is laid out
 * alone and the components are then packed into the drawing (the overview is a forest of small groups). The
 * layout is deterministic: each simulation starts from d3's phyllotaxis placement in the API's node order and
 * draws its jitter from a seeded generator, so the same graph always gives the same picture (and the same
 * HTML). The browser script starts from these positions and only moves what the reader drags.
 */
import type { z } from 'zod';
import type { networkResponse } from '../../../../contracts/frame/responses.ts';
import { forceLink, forceSimulation, forceX, forceY, type SimulationLinkDatum, type SimulationNodeDatum } from 'd3-force';

/** The graph of an answer (`graph`: `nodes[{id, name, ca_works}]`, `edges[{a, b, shared_works, weight}]`). */
export type NetworkGraph = NonNullable<z.infer<typeof networkResponse>['graph']>;
export type NetworkNode = NetworkGraph['nodes'][number];
export type NetworkEdge = NetworkGraph['edges'][number];

export interface PlacedNode extends NetworkNode {
  x: number;
  y: number;
  /** Radius in SVG units: the area grows with Canadian output. */
  r: number;
  /** Number of edges of the node in this graph. */
  degree: number;
  /** Printed beside the node (the most productive few, and the centre of a neighbourhood). */
  labelled: boolean;
}
export interface PlacedEdge extends NetworkEdge {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** Stroke width in SVG units: grows with the edge's fractional weight. */
  width: number;
}
export interface Layout {
  width: number;
  height: number;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
}

/** The drawing area (SVG user units); the SVG scales to the page's width. */
export const LAYOUT_WIDTH = 960;
export const LAYOUT_HEIGHT = 640;
const MARGIN = 24;
/** How many names the overview prints (the rest are in each node's tooltip and in the table). */
const OVERVIEW_LABELS = 12;
const EGO_LABELS = 10;

/** A small linear congruential generator (the constants of Numerical Recipes): a seeded `Math.random`. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(1664525, s) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const round1 = (v: number) => Math.round(v * 10) / 10;

interface SimNode extends SimulationNodeDatum {
  id: string;
  r: number;
}
interface SimLink extends SimulationLinkDatum<SimNode> {
  weight: number;
}

/** The connected components of a graph, each as node indexes in the API's order; components in order of first node. */
function components(graph: NetworkGraph): number[][] {
  const index = new Map(graph.nodes.map((n, i) => [n.id, i]));
  const parent = graph.nodes.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (const e of graph.edges) {
    const [p, q] = [root(index.get(e.a)!), root(index.get(e.b)!)];
    if (p !== q) parent[Math.max(p, q)] = Math.min(p, q);
  }
  const groups = new Map<number, number[]>();
  graph.nodes.forEach((_, i) => groups.set(root(i), [...(groups.get(root(i)) ?? []), i]));
  return [...groups.values()];
}

/**
 * Repulsion between every pair of nodes of a component (d3's many-body rule, strength/distance², without its
 * Barnes–Hut tree: components are small, and the direct sum measured several times faster than forceManyBody here),
 * and in the same pass a collision push between circles that overlap (radius plus a 2-unit gap).
 */
function repelAndSeparate(strength: number, random: () => number) {
  let nodes: SimNode[] = [];
  const force = (alpha: number) => {
    for (let i = 0; i < nodes.length; i++) {
      const p = nodes[i]!;
      for (let j = i + 1; j < nodes.length; j++) {
        const q = nodes[j]!;
        let dx = q.x! - p.x!;
        let dy = q.y! - p.y!;
        if (dx === 0 && dy === 0) [dx, dy] = [(random() - 0.5) * 1e-6, (random() - 0.5) * 1e-6];
        const l2 = Math.max(1, dx * dx + dy * dy);
        const w = (strength * alpha) / l2;
        p.vx! += dx * w;
        p.vy! += dy * w;
        q.vx! -= dx * w;
        q.vy! -= dy * w;
        const gap = p.r + q.r + 2;
        if (l2 < gap * gap) {
          const l = Math.sqrt(l2);
          const push = ((gap - l) / l) * 0.35;
          p.vx! -= dx * push;
          p.vy! -= dy * push;
          q.vx! += dx * push;
          q.vy! += dy * push;
        }
      }
    }
  };
  force.initialize = (n: SimNode[]) => {
    nodes = n;
  };
  return force;
}

/**
 * One component run to rest around (0, 0): links pull coauthors together (stronger ties pull harder), every
 * node repels the others and overlapping circles are pushed apart, a weak pull to the middle keeps it round.
 */
function settle(nodes: SimNode[], links: SimLink[], maxWeight: number, ego: boolean): void {
  if (nodes.length === 1) {
    nodes[0]!.x = 0;
    nodes[0]!.y = 0;
    return;
  }
  const random = seeded(20260712);
  const simulation = forceSimulation(nodes)
    .randomSource(random)
    .force(
      'link',
      forceLink<SimNode, SimLink>(links)
        .id((d) => d.id)
        .distance(ego ? 90 : 26)
        .strength((l) => 0.3 + 0.7 * (l.weight / maxWeight)),
    )
    .force('repel', repelAndSeparate(ego ? -260 : -40, random))
    .force('x', forceX<SimNode>(0).strength(0.05))
    .force('y', forceY<SimNode>(0).strength(0.05))
    .stop();
  // Run to rest: d3's default schedule (alpha from 1 down to alphaMin at alphaDecay) is 300 ticks.
  simulation.tick(Math.ceil(Math.log(simulation.alphaMin()) / Math.log(1 - simulation.alphaDecay())));
}

interface Box {
  nodes: SimNode[];
  x0: number;
  y0: number;
  w: number;
  h: number;
  /** Offset of the component's frame in the packed picture. */
  dx: number;
  dy: number;
}

/** Space between packed components, in layout units. */
const GAP = 14;
const fitScale = (w: number, h: number) => Math.min((LAYOUT_WIDTH - 2 * MARGIN) / Math.max(1, w), (LAYOUT_HEIGHT - 2 * MARGIN) / Math.max(1, h));

/**
 * Shelf packing: components from the largest, left to right in rows of a given width. The overview is a
 * forest of many small groups; laying each out alone is faster than one simulation of all nodes (charges then
 * act within a group only) and leaves no group drifting off the canvas.
 */
function shelves(boxes: Box[], rowWidth: number): { w: number; h: number } {
  let [x, y, rowHeight, width] = [0, 0, 0, 0];
  for (const b of boxes) {
    if (x > 0 && x + b.w > rowWidth) {
      y += rowHeight + GAP;
      [x, rowHeight] = [0, 0];
    }
    [b.dx, b.dy] = [x - b.x0, y - b.y0];
    x += b.w + GAP;
    rowHeight = Math.max(rowHeight, b.h);
    width = Math.max(width, x - GAP);
  }
  return { w: width, h: y + rowHeight };
}

/** Packs with the row width (of a few tried around the drawing's aspect ratio) that draws the graph largest. */
function pack(boxes: Box[]): { w: number; h: number } {
  const area = boxes.reduce((a, b) => a + (b.w + GAP) * (b.h + GAP), 0);
  const widest = Math.max(...boxes.map((b) => b.w));
  const base = Math.sqrt((area * LAYOUT_WIDTH) / LAYOUT_HEIGHT);
  let best = { width: widest, scale: -1 };
  for (let f = 0.7; f <= 2.01; f += 0.1) {
    const width = Math.max(widest, base * f);
    const { w, h } = shelves(boxes, width);
    const scale = fitScale(w, h);
    if (scale > best.scale + 1e-9) best = { width, scale };
  }
  return shelves(boxes, best.width);
}

/** Lays out a graph; `center` (a neighbourhood's researcher) is pinned in the middle of its component. */
export function layoutNetwork(graph: NetworkGraph, center?: string): Layout {
  const maxWorks = Math.max(1, ...graph.nodes.map((n) => n.ca_works));
  const radius = (works: number) => 3 + 9 * Math.sqrt(works / maxWorks);
  const maxWeight = Math.max(1e-9, ...graph.edges.map((e) => e.weight));
  const degree = new Map<string, number>();
  for (const e of graph.edges) for (const id of [e.a, e.b]) degree.set(id, (degree.get(id) ?? 0) + 1);

  const sim: SimNode[] = graph.nodes.map((n) => ({ id: n.id, r: radius(n.ca_works), ...(n.id === center ? { fx: 0, fy: 0 } : {}) }));
  const groupOf = new Map<string, number>();
  const groups = components(graph);
  groups.forEach((g, k) => g.forEach((i) => groupOf.set(graph.nodes[i]!.id, k)));
  const boxes: Box[] = groups.map((g, k) => {
    const nodes = g.map((i) => sim[i]!);
    const links = graph.edges.filter((e) => groupOf.get(e.a) === k).map((e): SimLink => ({ source: e.a, target: e.b, weight: e.weight }));
    settle(nodes, links, maxWeight, center !== undefined);
    const x0 = Math.min(...nodes.map((n) => n.x! - n.r));
    const y0 = Math.min(...nodes.map((n) => n.y! - n.r));
    const w = Math.max(...nodes.map((n) => n.x! + n.r)) - x0;
    const h = Math.max(...nodes.map((n) => n.y! + n.r)) - y0;
    return { nodes, x0, y0, w, h, dx: 0, dy: 0 };
  });
  boxes.sort((p, q) => q.nodes.length - p.nodes.length || q.w * q.h - p.w * p.h);
  const packed = pack(boxes);
  for (const b of boxes)
    for (const n of b.nodes) {
      n.x! += b.dx;
      n.y! += b.dy;
    }

  // Fit into the drawing area, the same scale on both axes (no distortion), never magnified more than 3x.
  const scale = Math.min(fitScale(packed.w, packed.h), 3);
  const ox = (LAYOUT_WIDTH - scale * packed.w) / 2;
  const oy = (LAYOUT_HEIGHT - scale * packed.h) / 2;

  const labelled = new Set(
    [...graph.nodes]
      .sort((p, q) => q.ca_works - p.ca_works || (p.id < q.id ? -1 : 1))
      .slice(0, center ? EGO_LABELS : OVERVIEW_LABELS)
      .map((n) => n.id),
  );
  if (center) labelled.add(center);
  const nodes: PlacedNode[] = graph.nodes.map((n, i) => ({
    ...n,
    x: round1(ox + scale * sim[i]!.x!),
    y: round1(oy + scale * sim[i]!.y!),
    r: round1(Math.max(2.5, sim[i]!.r * Math.min(1, scale))),
    degree: degree.get(n.id) ?? 0,
    labelled: labelled.has(n.id),
  }));
  const at = new Map(nodes.map((n) => [n.id, n]));
  const edges: PlacedEdge[] = graph.edges.map((e) => {
    const p = at.get(e.a)!;
    const q = at.get(e.b)!;
    return { ...e, x1: p.x, y1: p.y, x2: q.x, y2: q.y, width: round1(0.6 + 2.4 * (e.weight / maxWeight)) };
  });
  return { width: LAYOUT_WIDTH, height: LAYOUT_HEIGHT, nodes, edges };
}

/**
 * Layouts are pure functions of (snapshot, centre): kept for the next reader, so a page answers in
 * milliseconds after the first time. Bounded, oldest out first.
 */
const CACHE_SIZE = 256;
const cache = new Map<string, Layout>();

export function cachedLayout(snapshotId: string, graph: NetworkGraph, center?: string): Layout {
  const key = `${snapshotId}\u0000${center ?? ''}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const layout = layoutNetwork(graph, center);
  cache.set(key, layout);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return layout;
}
