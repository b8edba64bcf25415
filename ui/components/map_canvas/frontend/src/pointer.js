// Hover, click and Box/Lasso selection, done here rather than by regl-scatterplot: it redraws every point on each
// hover and on each pointer move of a lasso, and one frame of 1,000,000 points takes 0.5-0.8 s in software WebGL
// (measured in headless Chromium: hover → text 0.5 s, lasso → Python 1.5 s, nearly all of it in those frames); and
// its picking needs a spatial index built before the first frame (0.85 s at 1,000,000 points). Here a hover is a
// scan of the points' screen positions (about 3 ms at 1,000,000) and a ring on a 2-D canvas, and a lasso is a path
// on that canvas; regl-scatterplot then draws the selection once.
import { context2d } from "./canvas2d.js";
import { ACCENT, ACCENT_FILL, INK } from "./constants.js";

// Screen pixels of a point at canvas units (x, y), as regl-scatterplot places it: projection (view aspect) × camera
// view × model. The result is the affine map [ax, bx, cx, ay, by, cy]: sx = ax·x + bx·y + cx, sy = ay·x + by·y + cy.
export function screenTransform(view, width, height) {
  const aspect = width / height;
  const sx = width / (2 * aspect);
  return [view[0] * sx, view[4] * sx, width / 2 + view[12] * sx,
    -view[1] * height / 2, -view[5] * height / 2, height / 2 - view[13] * height / 2];
}

/** Screen pixels of canvas units (x, y) under the affine map `t` of `screenTransform`. */
export const toScreen = ([ax, bx, cx, ay, by, cy], x, y) => [ax * x + bx * y + cx, ay * x + by * y + cy];

// The visible point nearest to (mx, my) within `radius` pixels, or -1.
export function nearest(x, y, visible, t, mx, my, radius) {
  const [ax, bx, cx, ay, by, cy] = t;
  let best = -1;
  let bestD = radius * radius;
  for (let i = 0; i < x.length; i += 1) {
    const dx = ax * x[i] + bx * y[i] + cx - mx;
    if (dx > radius || dx < -radius) continue;
    const dy = ay * x[i] + by * y[i] + cy - my;
    const d = dx * dx + dy * dy;
    if (d <= bestD && visible(i)) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

// The visible points whose screen positions lie inside `polygon` ([[sx, sy], ...], closed implicitly).
export function inside(x, y, visible, t, polygon) {
  const [ax, bx, cx, ay, by, cy] = t;
  const xs = polygon.map((p) => p[0]);
  const ys = polygon.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const found = [];
  for (let i = 0; i < x.length; i += 1) {
    const px = ax * x[i] + bx * y[i] + cx;
    if (px < x0 || px > x1) continue;
    const py = ay * x[i] + by * y[i] + cy;
    if (py < y0 || py > y1 || !within(polygon, px, py) || !visible(i)) continue;
    found.push(i);
  }
  return found;
}

function within(polygon, px, py) { // even-odd rule
  let odd = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i, i += 1) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if ((yi > py) !== (yj > py) && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) odd = !odd;
  }
  return odd;
}

// The top canvas: the hovered point's ring, and the Box or Lasso being drawn. In Box and Lasso modes it takes the
// pointer, so regl-scatterplot sees no drag; `done(polygon)` gets the shape in pixels (a click: one point).
export class Sketch {
  constructor(canvas, done) {
    this.canvas = canvas;
    this.done = done;
    this.mode = "panZoom";
    this.path = null; // being drawn
    this.held = null; // drawn, waiting for its selection to be drawn
    this.ring = null;
    canvas.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      canvas.setPointerCapture(event.pointerId);
      this.path = [this.at(event)];
      this.held = null;
      this.paint();
    });
    canvas.addEventListener("pointermove", (event) => {
      if (!this.path) return;
      const point = this.at(event);
      if (this.mode === "rectangle") this.path = [this.path[0], point];
      else this.path.push(point);
      this.paint();
    });
    canvas.addEventListener("pointerup", () => {
      if (!this.path) return;
      const path = this.path;
      this.path = null;
      this.paint();
      done(this.mode === "rectangle" && path.length > 1 ? box(path[0], path[1]) : path);
    });
  }

  setMode(mode) {
    this.mode = mode;
    this.canvas.style.pointerEvents = mode === "panZoom" ? "none" : "auto";
  }

  at(event) {
    const rect = this.canvas.getBoundingClientRect();
    return [event.clientX - rect.left, event.clientY - rect.top];
  }

  hold(shape) {
    this.held = shape;
    this.paint();
  }

  showRing(ring) { // [sx, sy, radius] or null
    this.ring = ring;
    this.paint();
  }

  paint() {
    const ctx = context2d(this.canvas);
    if (this.ring) {
      const [sx, sy, r] = this.ring;
      ctx.beginPath();
      ctx.arc(sx, sy, r, 0, 2 * Math.PI);
      ctx.lineWidth = 2;
      ctx.strokeStyle = INK;
      ctx.stroke();
    }
    const drawing = this.path && this.path.length > 1 ? this.path : null;
    const shape = drawing && this.mode === "rectangle" ? box(drawing[0], drawing[1]) : drawing ?? this.held;
    if (shape) {
      ctx.beginPath();
      shape.forEach(([px, py], i) => (i ? ctx.lineTo(px, py) : ctx.moveTo(px, py)));
      ctx.closePath();
      ctx.fillStyle = ACCENT_FILL;
      ctx.fill();
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = ACCENT;
      ctx.stroke();
    }
  }
}

const box = ([x0, y0], [x1, y1]) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
