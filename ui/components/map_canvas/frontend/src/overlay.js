// What the points canvas does not draw: the query star with lines to its nearest texts (full space), and cluster
// labels placed by zoom level (coarse clusters far out, finer ones close in), none overlapping another.
import { context2d, haloText } from "./canvas2d.js";
import {
  ACCENT, INK, LABEL_HALF_HEIGHT_PX, LABEL_LEVEL_ZOOM, LABEL_PADDING_PX, QUERY_GAP_PX, QUERY_RING_PX, QUERY_STAR_PX,
  QUERY_TEXT_CHARS, font,
} from "./constants.js";

/** The query and the labels of `data` (MapData) on `canvas`; `toScreen(x, y)` gives pixels, `zoom` 1 is fitted. */
export function drawOverlay(canvas, data, toScreen, zoom) {
  const ctx = context2d(canvas);
  const placed = data.query ? [drawQuery(ctx, data.query, toScreen)] : [];
  drawLabels(ctx, data.labels, toScreen, zoom, placed);
}

function drawLabels(ctx, labels, toScreen, zoom, placed) {
  const { clientWidth: width, clientHeight: height } = ctx.canvas;
  const level = LABEL_LEVEL_ZOOM.filter((from) => zoom >= from).length - 1;
  // the current level's labels first (largest clusters first), then coarser ones where they still fit
  const order = labels.filter((l) => l.level <= level)
    .sort((a, b) => (b.level - a.level) || (b.size - a.size));
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (const label of order) {
    const [x, y] = toScreen(label.x, label.y);
    if (x < 0 || y < 0 || x > width || y > height) continue;
    const coarser = label.level < level; // a level above the zoom's own: written smaller
    ctx.font = coarser ? font(600, 12) : font(700, 14);
    const w = ctx.measureText(label.text).width + LABEL_PADDING_PX;
    const box = [x - w / 2, y - LABEL_HALF_HEIGHT_PX, x + w / 2, y + LABEL_HALF_HEIGHT_PX];
    if (placed.some((p) => box[0] < p[2] && box[2] > p[0] && box[1] < p[3] && box[3] > p[1])) continue;
    placed.push(box);
    haloText(ctx, label.text, x, y, INK);
  }
}

function drawQuery(ctx, query, toScreen) {
  const [qx, qy] = toScreen(query.x, query.y);
  ctx.strokeStyle = ACCENT;
  for (const [x, y] of query.neighbours) {
    const [sx, sy] = toScreen(x, y);
    ctx.beginPath();
    ctx.moveTo(qx, qy);
    ctx.lineTo(sx, sy);
    ctx.lineWidth = 1.25;
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(sx, sy, QUERY_RING_PX, 0, 2 * Math.PI);
    ctx.lineWidth = 2;
    ctx.stroke();
  }
  star(ctx, qx, qy, QUERY_STAR_PX);
  ctx.font = font(600, 13);
  ctx.textBaseline = "middle";
  const cut = query.text.length > QUERY_TEXT_CHARS ? `${query.text.slice(0, QUERY_TEXT_CHARS - 1)}…` : query.text;
  const text = `query: ${cut}`;
  const width = ctx.measureText(text).width;
  // on the left where there is no room on the right (and room on the left)
  const left = qx + QUERY_GAP_PX + width > ctx.canvas.clientWidth && qx - QUERY_GAP_PX - width >= 0;
  ctx.textAlign = left ? "right" : "left";
  const tx = left ? qx - QUERY_GAP_PX : qx + QUERY_GAP_PX;
  haloText(ctx, text, tx, qy, ACCENT);
  const [top, bottom] = [qy - LABEL_HALF_HEIGHT_PX, qy + LABEL_HALF_HEIGHT_PX];
  return left ? [tx - width, top, tx, bottom] : [tx, top, tx + width, bottom]; // where no label may go
}

function star(ctx, x, y, r) {
  ctx.beginPath();
  for (let i = 0; i < 10; i += 1) {
    const radius = i % 2 ? r * 0.45 : r;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    ctx.lineTo(x + radius * Math.cos(angle), y + radius * Math.sin(angle));
  }
  ctx.closePath();
  ctx.fillStyle = ACCENT;
  ctx.strokeStyle = "white";
  ctx.lineWidth = 1.5;
  ctx.fill();
  ctx.stroke();
}
