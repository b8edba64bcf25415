// One map: regl-scatterplot draws the points (WebGL) and pans and zooms; a 2-D canvas on top draws the query, its
// lines and the cluster labels, and another the hover ring and the Box or Lasso (pointer.js); a legend beside it
// toggles categories. Interactions stay here; a selection goes to Python as row numbers and a hover asks Python for
// that one row's text, through the host that mounted it (main.js: Streamlit's; widget.js: a notebook's anywidget).
// What Python sends and gets back: contract.js.
import createScatterplot, { createRenderer, createSpatialIndex } from "regl-scatterplot";
import {
  BACKGROUND, CLICK_SLOP_PX, FIT_MARGIN, HOVER_DELAY_MS, PICK_RADIUS_PX, RESET_VIEW_MS, RING_GAP_PX,
  RING_MIN_RADIUS_PX, SELECTED_COLOUR, SELECTED_GROWTH_PX, SELECTED_OUTLINE_PX, SELECTION_WAIT_MS, TOOLTIP_OFFSET_PX,
} from "./constants.js";
import { isHighlighted, positionsOf } from "./contract.js";
import { Legend } from "./legend.js";
import { drawOverlay } from "./overlay.js";
import { inside, nearest, screenTransform, Sketch, toScreen } from "./pointer.js";
import { STYLE } from "./style.js";

// Picking (hover, click, Box, Lasso) is pointer.js's, so regl-scatterplot's spatial index, which it builds before it
// draws the first frame (0.85 s at 1,000,000 points), is an empty one.
const NO_INDEX = createSpatialIndex([], false);
const links = new Map(); // link group -> the maps whose views and selections move together
// One WebGL renderer for every map in the page, as regl-scatterplot offers: a map made after the first makes no WebGL
// context of its own (the browser keeps a few; a notebook may hold many maps) and compiles no shaders again. Kept on
// the page, not in this module: a notebook loads the module anew for each widget.
const sharedRenderer = () => {
  const kept = globalThis.__explorerMapRenderer;
  return kept && !kept.isDestroyed ? kept : (globalThis.__explorerMapRenderer = createRenderer());
};

const rgba = (hex, alpha) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).concat(alpha);

const HTML = `<style>${STYLE}</style>
  <div class="toolbar" role="toolbar" aria-label="Map tools">
    <button type="button" data-mode="panZoom" aria-pressed="true" title="Drag to pan, scroll to zoom, click a point to select it">Pan &amp; zoom</button>
    <button type="button" data-mode="rectangle" aria-pressed="false" title="Drag a box to select the points in it">Box</button>
    <button type="button" data-mode="freeform" aria-pressed="false" title="Draw around points to select them">Lasso</button>
    <button type="button" data-action="reset" title="Show every point">Reset view</button>
    <button type="button" data-action="clear" title="Or double-click the map, or press Escape">Clear selection</button>
    <span class="status" aria-live="polite"></span>
  </div>
  <div class="body">
    <div class="stage">
      <canvas class="points" role="img"></canvas>
      <canvas class="overlay" aria-hidden="true"></canvas>
      <canvas class="sketch" aria-hidden="true"></canvas>
      <div class="tooltip" role="tooltip" hidden></div>
    </div>
    <div class="legend"></div>
  </div>`;

export class MapCanvas {
  /** `host`: {select(rows), askHover(row), columns: {blob(key), arrivedAt(key)}}, how Python is reached (Host). */
  constructor(parent, host) {
    this.host = host;
    this.columns = host.columns;
    this.root = document.createElement("div");
    this.root.className = "explorer-map";
    this.root.innerHTML = HTML;
    parent.appendChild(this.root);
    this.stage = this.root.querySelector(".stage");
    this.canvas = this.root.querySelector("canvas.points");
    this.overlay = this.root.querySelector("canvas.overlay");
    this.tooltip = this.root.querySelector(".tooltip");
    this.status = this.root.querySelector(".status");
    this.legend = new Legend(this.root.querySelector(".legend"), () => this.applyFilter());
    this.sketch = new Sketch(this.root.querySelector("canvas.sketch"), (shape) => this.sketched(shape));
    this.selected = [];
    this.hovered = -1;
    this.hoverTexts = new Map(); // row -> its answer ({text, image}), for the view drawn now
    this.draws = 0;
    this.lastDraw = { started: 0, ended: 0 };
    this.wireToolbar();
  }

  createPlot() {
    const { width, height } = this.stage.getBoundingClientRect();
    this.plot = createScatterplot({
      renderer: sharedRenderer(),
      canvas: this.canvas,
      width: Math.max(1, Math.floor(width)),
      height: Math.max(1, Math.floor(height)),
      backgroundColor: rgba(BACKGROUND, 1),
      pointColorActive: rgba(SELECTED_COLOUR, 1),
      deselectOnDblClick: true,
      deselectOnEscape: true,
      pointScaleMode: "asinh",
    });
    this.plot.subscribe("deselect", () => this.selectionMade([]));
    this.plot.subscribe("view", ({ view }) => {
      this.paintOverlay();
      this.shareView(view);
    });
    // Hover is picked here (pointer.js); regl-scatterplot, given no spatial index, finds no point to hover itself.
    this.stage.addEventListener("mousemove", (event) => {
      this.pointerAt = event.buttons === 0 && !this.sketch.path ? this.sketch.at(event) : null;
      if (!this.hoverFrame) this.hoverFrame = requestAnimationFrame(() => this.hoverPick());
    });
    this.stage.addEventListener("mouseleave", () => {
      this.pointerAt = null;
      this.hoverPick();
    });
    this.canvas.addEventListener("mousedown", (event) => {
      this.pressedAt = [event.clientX, event.clientY];
      this.viewAtPress = this.plot?.get("camera").view.slice();
    });
    this.canvas.addEventListener("click", (event) => { // a click, not the end of a pan, selects the point under it
      const [x, y] = this.pressedAt ?? [event.clientX, event.clientY];
      if (Math.hypot(event.clientX - x, event.clientY - y) >= CLICK_SLOP_PX) return;
      // A click does not pan. regl-scatterplot's camera (dom-2d-camera) pans, on a frame while the button is down, by
      // the pointer's travel since its last frame: a press within one frame of the pointer's arrival panned the map by
      // that whole travel, away from under the click (seen in the browser tests under load: the frame of 1,000,000
      // points here is 0.5-0.8 s).
      if (this.viewAtPress) this.plot.set({ cameraView: this.viewAtPress });
      this.sketched([this.sketch.at(event)]);
    });
    new ResizeObserver(() => this.resize()).observe(this.stage);
  }

  wireToolbar() {
    for (const button of this.root.querySelectorAll("[data-mode]")) {
      button.addEventListener("click", () => {
        this.sketch.setMode(button.dataset.mode);
        for (const other of this.root.querySelectorAll("[data-mode]")) {
          other.setAttribute("aria-pressed", String(other === button));
        }
      });
    }
    this.root.querySelector("[data-action=reset]").addEventListener("click", () => this.fitView(true));
    this.root.querySelector("[data-action=clear]").addEventListener("click", () => this.plot?.deselect());
  }

  /** Show `data` (MapData, contract.js): redrawn when its view changed, else only its hover text and labels taken
   * (labels are the overlay's: a notebook sends them after the first frame). */
  async update(data) {
    // a host that keeps its selection in Python (Streamlit) sends it as a column, taken when the points are new
    const { hover, answered, labels, selected: _selected, ...view } = data;
    this.answerArrived(answered);
    const viewJson = JSON.stringify(view);
    if (this.plot && viewJson === this.drawnJson) {
      const relabelled = JSON.stringify(labels) !== JSON.stringify(this.data.labels);
      this.data = data;
      this.hoverAnswered(hover);
      if (relabelled) this.paintOverlay();
      return;
    }
    const started = performance.now();
    this.data = data;
    this.hoverTexts.clear(); // they were the view before's: another colouring or other points say other things
    this.stage.style.height = `${data.height}px`;
    this.canvas.setAttribute("aria-label", data.label);
    const [positions, codes, highlight, selected] = await Promise.all(
      [data.positions, data.codes, data.highlight, data.selected].map((key) => (key ? this.columns.blob(key) : null)));
    if (this.data !== data) return; // a newer view arrived while these columns were on their way
    const spatialIndex = await NO_INDEX;
    await this.drawing; // regl-scatterplot refuses a draw while one is under way: one at a time, the newest
    if (this.data !== data) return;
    if (!this.plot) this.createPlot();
    const moved = this.decode(data.n, positions, codes);
    // New points (another corpus, sample or order): the rows Python keeps selected (by row id) are selected here, not
    // the rows that were selected on the points before. The same points keep the selection made on them.
    if (moved && "selected" in data) {
      clearTimeout(this.pending?.timer);
      this.pending = null;
      this.selected = selected ? Array.from(new Uint32Array(selected)) : [];
    }
    this.style(data, highlight);
    this.legend.show(data.legend, data.palette);
    if (moved) this.fitView(false); // the camera first, so new points come up fitted in one frame, not two
    this.drawing = this.plot.draw(this.points, { zDataType: "categorical", wDataType: "categorical",
      spatialIndex, preventFilterReset: !moved });
    await this.drawing;
    if (this.data !== data) return;
    this.drawnJson = viewJson;
    this.restore(hover);
    this.recordDraw(data, started);
    this.joinLink(data.link);
  }

  // Python has answered a selection: it is drawn after this frame has shown the answer
  answerArrived(answered) {
    if (this.pending && answered !== this.answered) requestAnimationFrame(() => setTimeout(() => this.drawSelection()));
    this.answered = answered;
  }

  /** The columns as arrays; true when the positions are new. */
  decode(n, positions, codes) {
    this.codes = new Uint8Array(codes, 0, n);
    if (positions === this.positions) return false;
    this.positions = positions;
    ({ x: this.x, y: this.y } = positionsOf(positions, n));
    // regl-scatterplot's points as it holds them, [x, y, colour, size] each: made once per positions and changed in
    // place, since it makes a million of them again from columns on every draw
    this.points = Array.from({ length: n }, (_, i) => [this.x[i], this.y[i], 0, 0]);
    return true;
  }

  /** Each point's colour and size; highlighted points in their colour, drawn larger and on top, the others dimmed. */
  style(data, highlight) {
    const n = data.n;
    let order = null;
    if (highlight) {
      const bits = new Uint8Array(highlight);
      order = new Array(n); // regl-scatterplot takes a plain array only
      let back = 0;
      let front = n - data.highlighted;
      for (let i = 0; i < n; i += 1) {
        const on = isHighlighted(bits, i);
        const point = this.points[i];
        point[2] = on ? this.codes[i] : data.dimmed;
        point[3] = on;
        if (on) order[front++] = i;
        else order[back++] = i;
      }
    } else {
      for (let i = 0; i < n; i += 1) {
        this.points[i][2] = this.codes[i];
        this.points[i][3] = 0;
      }
    }
    this.plot.set({
      pointColor: data.palette.map(([hex, alpha]) => rgba(hex, alpha)),
      colorBy: "valueA",
      pointSize: [data.pointSize, data.highlightSize],
      sizeBy: highlight ? "valueB" : null,
      pointOrder: order,
      pointSizeSelected: SELECTED_GROWTH_PX,
      pointOutlineWidth: SELECTED_OUTLINE_PX,
    });
  }

  /** After a draw: the legend's filter, the selection, the hover (asked again for this view), labels and status. */
  restore(hover) {
    this.applyFilter();
    if (this.selected.length) this.plot.select(this.selected, { preventEvent: true });
    else this.plot.deselect({ preventEvent: true });
    if (hover) this.hoverTexts.set(hover.row, hover);
    this.hovered = -1;
    this.hoverPick(); // the point under the pointer now, and its text for this view
    this.paintOverlay();
    const { n, highlight, highlighted } = this.data;
    const lit = highlight ? `, ${highlighted.toLocaleString("en")} highlighted` : "";
    this.status.textContent = `${n.toLocaleString("en")} points${lit}`;
  }

  // The hooks of the browser tests and `make bench`, all here: the canvas on its element, its draws counted, and the
  // last draw's times (from the view's arrival, or its newest column's if that came later, until it was on screen).
  recordDraw(data, started) {
    this.canvas.getContext("2d").getImageData(0, 0, 1, 1); // the frame is on the screen from here
    const arrived = [data.positions, data.codes, data.highlight].filter(Boolean).map(this.columns.arrivedAt);
    const fresh = arrived.filter((t) => t >= this.lastDraw.ended);
    this.lastDraw = { started: Math.min(started, ...fresh), ended: performance.now() };
    this.draws += 1;
    this.root.mapCanvas = this;
    Object.assign(this.root.dataset, { draws: String(this.draws), points: String(data.n),
      highlight: data.highlight ?? "", codes: data.codes });
  }

  fitView(animated) {
    const [x0, y0, x1, y1] = this.data.bounds;
    const pad = FIT_MARGIN * Math.max(x1 - x0, y1 - y0);
    const done = this.plot.zoomToArea(
      { x: x0 - pad, y: y0 - pad, width: x1 - x0 + 2 * pad, height: y1 - y0 + 2 * pad },
      { transition: animated, transitionDuration: RESET_VIEW_MS });
    if (!animated) this.fitted = this.plot.get("camera").view[0]; // zoom 1: labels' coarsest level
    return done;
  }

  applyFilter() {
    if (!this.plot || !this.codes) return;
    const hidden = this.legend.hidden;
    if (!hidden.size) {
      if (this.plot.get("isPointsFiltered")) this.plot.unfilter({ preventEvent: true });
      return;
    }
    const kept = [];
    for (let i = 0; i < this.codes.length; i += 1) if (!hidden.has(this.codes[i])) kept.push(i);
    this.plot.filter(kept, { preventEvent: true });
  }

  // `points` to Python; then drawn on the linked maps and on `alsoOn` once Python's answer is on the screen (or
  // after SELECTION_WAIT_MS). Drawing a selection of 1,000,000 points is a frame of 0.8 s in software WebGL that
  // holds the page's thread: drawn first, it held back both the sending and the answer (lasso → answer 1.5 s).
  selectionMade(points, alsoOn = []) {
    this.selected = points;
    this.host.select(points);
    clearTimeout(this.pending?.timer);
    this.pending = { points, maps: [...alsoOn, ...this.linked()],
      timer: setTimeout(() => this.drawSelection(), SELECTION_WAIT_MS) };
  }

  /** A selection Python made (a notebook's `selection = rows`): drawn, and not sent back. */
  selectFromPython(points) {
    clearTimeout(this.pending?.timer);
    this.pending = null;
    this.selected = points;
    if (!this.plot || !this.x) return; // drawn with the points (restore)
    if (points.length) this.plot.select(points, { preventEvent: true });
    else this.plot.deselect({ preventEvent: true });
    this.sketch.hold(null);
  }

  drawSelection() {
    if (!this.pending) return;
    const { points, maps, timer } = this.pending;
    this.pending = null;
    clearTimeout(timer);
    for (const map of maps) {
      map.selected = points;
      if (points.length) map.plot.select(points, { preventEvent: true });
      else map.plot.deselect({ preventEvent: true });
    }
    this.sketch.hold(null);
  }

  visible() {
    const hidden = this.legend.hidden;
    return hidden.size ? (i) => !hidden.has(this.codes[i]) : () => true;
  }

  drawnSize() { // pixels, at the fitted zoom
    return this.data.highlight ? this.data.highlightSize : this.data.pointSize;
  }

  pickRadius() {
    return Math.max(PICK_RADIUS_PX, this.drawnSize());
  }

  transform() {
    const { width, height } = this.stage.getBoundingClientRect();
    return screenTransform(this.plot.get("camera").view, width, height);
  }

  hoverPick() {
    this.hoverFrame = 0;
    if (!this.plot || !this.x) return;
    const at = this.pointerAt;
    const i = at ? nearest(this.x, this.y, this.visible(), this.transform(), at[0], at[1], this.pickRadius()) : -1;
    if (i === this.hovered) return;
    this.hovered = i;
    clearTimeout(this.hoverTimer);
    if (i >= 0 && !this.hoverTexts.has(i)) {
      this.hoverTimer = setTimeout(() => this.host.askHover(i), HOVER_DELAY_MS);
    }
    this.showTooltip();
  }

  hoverAnswered(hover) {
    if (hover) this.hoverTexts.set(hover.row, hover);
    this.showTooltip();
  }

  sketched(shape) {
    if (!this.plot || !this.x) return;
    const t = this.transform();
    if (shape.length > 2) {
      this.sketch.hold(shape); // the outline stays until the selection is drawn
      this.selectionMade(inside(this.x, this.y, this.visible(), t, shape), [this]);
      return;
    }
    // a click: the point under it (a click beside every point leaves the selection as it is)
    const [mx, my] = shape[shape.length - 1];
    const i = nearest(this.x, this.y, this.visible(), t, mx, my, this.pickRadius());
    if (i >= 0) this.selectionMade([i], [this]);
  }

  showTooltip() {
    const i = this.hovered;
    if (i < 0 || !this.plot) {
      this.tooltip.hidden = true;
      this.sketch.showRing(null);
      return;
    }
    const [sx, sy] = this.plot.getScreenPosition(i) ?? [0, 0];
    this.sketch.showRing([sx, sy, Math.max(RING_MIN_RADIUS_PX, this.drawnSize() / 2 + RING_GAP_PX)]);
    const answer = this.hoverTexts.get(i);
    this.tooltip.textContent = answer?.text ?? `#${i} …`;
    if (answer?.image) { // a picture's thumbnail above its text; the text says what it is
      this.tooltip.prepend(Object.assign(document.createElement("img"), { src: answer.image, alt: "" }));
    }
    this.tooltip.hidden = false;
    // kept inside the map: to the point's left near the map's right edge, above it near the bottom
    const stage = this.stage.getBoundingClientRect();
    const tip = this.tooltip.getBoundingClientRect();
    this.tooltip.style.left = `${Math.max(0, Math.min(sx + TOOLTIP_OFFSET_PX, stage.width - tip.width))}px`;
    const below = sy + TOOLTIP_OFFSET_PX;
    this.tooltip.style.top = `${below + tip.height <= stage.height ? below
      : Math.max(0, sy - TOOLTIP_OFFSET_PX - tip.height)}px`;
  }

  paintOverlay() {
    if (!this.plot || !this.data) return;
    const view = this.plot.get("camera").view;
    const t = this.transform();
    drawOverlay(this.overlay, this.data, (x, y) => toScreen(t, x, y), view[0] / (this.fitted ?? view[0]));
    if (this.hovered >= 0) this.showTooltip();
  }

  resize() {
    const { width, height } = this.stage.getBoundingClientRect();
    if (!this.plot || width < 1 || height < 1) return;
    this.plot.set({ width: Math.floor(width), height: Math.floor(height) });
    this.paintOverlay();
  }

  joinLink(group) {
    if (this.link === group) return;
    if (this.link) links.get(this.link)?.delete(this);
    this.link = group;
    if (group) links.set(group, (links.get(group) ?? new Set()).add(this));
  }

  linked() {
    return this.link ? [...links.get(this.link)].filter((other) => other !== this && other.plot) : [];
  }

  shareView(view) {
    // a view that came from a linked map is not sent back to it
    if (this.followed && this.followed.every((v, i) => v === view[i])) return;
    for (const other of this.linked()) {
      other.followed = Array.from(view);
      other.plot.set({ cameraView: view });
    }
  }

  /** Into another parent element, drawn as it is (a remount). */
  moveTo(parent) {
    if (this.root.parentNode !== parent) parent.appendChild(this.root);
  }

  destroy() {
    this.joinLink(null);
    clearTimeout(this.hoverTimer);
    clearTimeout(this.pending?.timer);
    this.plot?.destroy();
    this.root.remove();
  }
}
