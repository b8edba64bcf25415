// The two 2-D canvases over the points (overlay.js, pointer.js): sized for the screen's pixel ratio, and text with a
// halo that keeps it readable over points.
import { HALO } from "./constants.js";

/** The canvas's 2-D context, its bitmap matched to its CSS size at the screen's pixel ratio, cleared. */
export function context2d(canvas) {
  const { width, height } = canvas.getBoundingClientRect();
  const ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio)) canvas.width = Math.round(width * ratio);
  if (canvas.height !== Math.round(height * ratio)) canvas.height = Math.round(height * ratio);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return ctx;
}

/** `text` at (x, y) in `colour`, on a white halo; the font and alignment are the context's. */
export function haloText(ctx, text, x, y, colour) {
  ctx.lineWidth = 4;
  ctx.strokeStyle = HALO;
  ctx.strokeText(text, x, y);
  ctx.fillStyle = colour;
  ctx.fillText(text, x, y);
}
