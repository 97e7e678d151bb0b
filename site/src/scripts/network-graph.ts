/**
 * The collaboration graph, interactive. The server drew it (positions, links, names); this script reads the
 * SVG back and adds: hover or focus on a researcher highlights their ties and coauthors; the background pans,
 * Ctrl + wheel and the toolbar zoom; a researcher can be dragged, and a d3-force simulation lets their ties
 * follow, every node held by a spring to where the server put it. A click (not a drag) on a researcher
 * follows its link: their neighbourhood. Keyboard: nodes are links (Tab, Enter); the toolbar's buttons zoom;
 * `+`, `-` and `0` zoom while the focus is in the graph.
 */
import { forceLink, forceSimulation, forceX, forceY, type Simulation, type SimulationLinkDatum, type SimulationNodeDatum } from 'd3-force';

interface GraphNode extends SimulationNodeDatum {
  id: string;
  el: SVGAElement;
  circle: SVGCircleElement;
  label: SVGTextElement | null;
  labelDx: number;
  /** Where the node rests (the server's layout, or where the reader dropped it). */
  homeX: number;
  homeY: number;
  edges: GraphEdge[];
}
interface GraphEdge extends SimulationLinkDatum<GraphNode> {
  el: SVGLineElement;
  source: GraphNode;
  target: GraphNode;
  rest: number;
}

const MIN_ZOOM = 0.5;
const MAX_ZOOM = 8;
/** Pointer travel (screen pixels) that turns a press on a node into a drag instead of a click. */
const DRAG_THRESHOLD = 4;

export function enhanceNetworkGraphs(): void {
  for (const root of document.querySelectorAll<HTMLElement>('[data-network-graph]')) {
    const svg = root.querySelector<SVGSVGElement>('svg.network-graph');
    if (svg) enhance(root, svg);
  }
}

function enhance(root: HTMLElement, svg: SVGSVGElement): void {
  const viewport = svg.querySelector<SVGGElement>('g.viewport')!;
  const num = (el: Element, name: string) => Number(el.getAttribute(name));

  // The graph, read back from the server's SVG.
  const nodes: GraphNode[] = [...svg.querySelectorAll<SVGAElement>('a.node')].map((el) => {
    const circle = el.querySelector('circle')!;
    const id = el.dataset.id!;
    const label = svg.querySelector<SVGTextElement>(`text.label[data-for="${CSS.escape(id)}"]`);
    const x = num(circle, 'cx');
    const y = num(circle, 'cy');
    return { id, el, circle, label, labelDx: Number(label?.dataset.dx ?? 0), x, y, homeX: x, homeY: y, edges: [] };
  });
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const edges: GraphEdge[] = [];
  for (const el of svg.querySelectorAll<SVGLineElement>('line.edge')) {
    const source = byId.get(el.dataset.a!);
    const target = byId.get(el.dataset.b!);
    if (!source || !target) continue;
    const edge = { el, source, target, rest: Math.hypot(target.x! - source.x!, target.y! - source.y!) };
    edges.push(edge);
    source.edges.push(edge);
    target.edges.push(edge);
  }

  // Highlight: a researcher, their coauthors and their ties; everything else fades.
  let lit: Element[] = [];
  const highlight = (n: GraphNode | null) => {
    for (const el of lit) el.classList.remove('hl');
    lit = [];
    svg.classList.toggle('focused', n !== null);
    if (!n) return;
    const mark = (el: Element | null) => {
      if (el) {
        el.classList.add('hl');
        lit.push(el);
      }
    };
    mark(n.el);
    mark(n.label);
    for (const e of n.edges) {
      mark(e.el);
      const other = e.source === n ? e.target : e.source;
      mark(other.el);
      mark(other.label);
    }
  };

  // Pan and zoom: one transform on the viewport group, in the SVG's own units.
  let k = 1;
  let tx = 0;
  let ty = 0;
  const apply = () => viewport.setAttribute('transform', `translate(${tx.toFixed(2)} ${ty.toFixed(2)}) scale(${k.toFixed(4)})`);
  const toSvg = (clientX: number, clientY: number) => {
    const m = svg.getScreenCTM();
    return m ? new DOMPoint(clientX, clientY).matrixTransform(m.inverse()) : new DOMPoint(0, 0);
  };
  const zoomAt = (x: number, y: number, factor: number) => {
    const next = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, k * factor));
    tx = x - ((x - tx) * next) / k;
    ty = y - ((y - ty) * next) / k;
    k = next;
    apply();
  };
  const box = svg.viewBox.baseVal;
  const zoomCentre = (factor: number) => zoomAt(box.width / 2, box.height / 2, factor);
  const reset = () => {
    [k, tx, ty] = [1, 0, 0];
    apply();
  };

  // Dragging a node: a live simulation, each node on a spring to its home and each tie at its drawn length.
  let sim: Simulation<GraphNode, GraphEdge> | null = null;
  const render = () => {
    for (const n of nodes) {
      n.circle.setAttribute('cx', n.x!.toFixed(1));
      n.circle.setAttribute('cy', n.y!.toFixed(1));
      if (n.label) {
        n.label.setAttribute('x', (n.x! + n.labelDx).toFixed(1));
        n.label.setAttribute('y', (n.y! + 4).toFixed(1));
      }
    }
    for (const e of edges) {
      e.el.setAttribute('x1', e.source.x!.toFixed(1));
      e.el.setAttribute('y1', e.source.y!.toFixed(1));
      e.el.setAttribute('x2', e.target.x!.toFixed(1));
      e.el.setAttribute('y2', e.target.y!.toFixed(1));
    }
  };
  const simulation = () =>
    (sim ??= forceSimulation<GraphNode, GraphEdge>(nodes)
      .force(
        'link',
        forceLink<GraphNode, GraphEdge>(edges)
          .distance((e) => e.rest)
          .strength(0.4),
      )
      .force('x', forceX<GraphNode>((n) => n.homeX).strength(0.06))
      .force('y', forceY<GraphNode>((n) => n.homeY).strength(0.06))
      .alphaDecay(0.04)
      .on('tick', render)
      .stop());

  // Pointer: on a node, a press that moves becomes a drag (its click is then cancelled); on the background, a pan.
  let press: { id: number; node: GraphNode | null; x: number; y: number; moved: boolean; tx: number; ty: number } | null = null;
  let cancelClick = false;
  const nodeOf = (target: EventTarget | null) => {
    const a = (target as Element | null)?.closest?.('a.node');
    return a ? (byId.get((a as SVGAElement).dataset.id!) ?? null) : null;
  };
  svg.addEventListener('pointerdown', (ev) => {
    if (ev.button !== 0) return;
    press = { id: ev.pointerId, node: nodeOf(ev.target), x: ev.clientX, y: ev.clientY, moved: false, tx, ty };
  });
  svg.addEventListener('pointermove', (ev) => {
    if (!press || ev.pointerId !== press.id) return;
    if (!press.moved && Math.hypot(ev.clientX - press.x, ev.clientY - press.y) < DRAG_THRESHOLD) return;
    if (!press.moved) {
      press.moved = true;
      svg.setPointerCapture(ev.pointerId);
      if (press.node) {
        highlight(press.node);
        simulation().alpha(0.3).alphaTarget(0.3).restart();
      } else svg.classList.add('panning');
    }
    const p = toSvg(ev.clientX, ev.clientY);
    if (press.node) {
      press.node.fx = (p.x - tx) / k;
      press.node.fy = (p.y - ty) / k;
    } else {
      const start = toSvg(press.x, press.y);
      tx = press.tx + (p.x - start.x);
      ty = press.ty + (p.y - start.y);
      apply();
    }
  });
  const release = (ev: PointerEvent) => {
    if (!press || ev.pointerId !== press.id) return;
    if (press.moved) {
      cancelClick = true;
      const n = press.node;
      if (n) {
        // The node stays where it was dropped; the others spring back.
        [n.homeX, n.homeY] = [n.fx ?? n.x!, n.fy ?? n.y!];
        n.fx = null;
        n.fy = null;
        sim?.alphaTarget(0);
      }
      svg.classList.remove('panning');
    }
    press = null;
  };
  svg.addEventListener('pointerup', release);
  svg.addEventListener('pointercancel', release);
  // A drag ends with a click on the node under the pointer: it must not open the neighbourhood.
  svg.addEventListener(
    'click',
    (ev) => {
      if (cancelClick) {
        ev.preventDefault();
        ev.stopPropagation();
        cancelClick = false;
      }
    },
    true,
  );

  svg.addEventListener(
    'wheel',
    (ev) => {
      if (!ev.ctrlKey && !ev.metaKey) return; // a plain wheel scrolls the page
      ev.preventDefault();
      const p = toSvg(ev.clientX, ev.clientY);
      zoomAt(p.x, p.y, Math.exp(-ev.deltaY * 0.002));
    },
    { passive: false },
  );

  for (const n of nodes) {
    n.el.addEventListener('pointerenter', () => press?.moved || highlight(n));
    n.el.addEventListener('pointerleave', () => press?.moved || highlight(null));
    n.el.addEventListener('focus', () => {
      highlight(n);
      // Tabbing to a researcher outside the zoomed view brings them to its centre.
      const [x, y] = [n.x! * k + tx, n.y! * k + ty];
      if (x < 0 || y < 0 || x > box.width || y > box.height) {
        tx = box.width / 2 - n.x! * k;
        ty = box.height / 2 - n.y! * k;
        apply();
      }
    });
    n.el.addEventListener('blur', () => highlight(null));
  }

  root.addEventListener('keydown', (ev) => {
    if (!svg.contains(ev.target as Node) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const act = { '+': () => zoomCentre(1.25), '=': () => zoomCentre(1.25), '-': () => zoomCentre(0.8), '0': reset }[ev.key];
    if (act) {
      ev.preventDefault();
      act();
    }
  });
  const toolbar = root.querySelector<HTMLElement>('[data-toolbar]');
  if (toolbar) {
    toolbar.querySelector('[data-zoom="in"]')?.addEventListener('click', () => zoomCentre(1.25));
    toolbar.querySelector('[data-zoom="out"]')?.addEventListener('click', () => zoomCentre(0.8));
    toolbar.querySelector('[data-zoom="reset"]')?.addEventListener('click', reset);
    toolbar.hidden = false;
  }
  svg.classList.add('interactive');
}
