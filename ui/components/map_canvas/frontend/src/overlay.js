// What the points canvas does not draw: the query star with lines to its nearest texts (full space), and cluster
// labels placed by zoom level (coarse clusters far out, finer ones close in), none overlapping another.
const QUERY = "#c2255c";
const LEVEL_ZOOM = [0, 2.5, 6]; // the zoom (1 = every point in view) from which each level of labels shows

export function drawOverlay(canvas, { width, height }, data, toScreen, zoom) {
  const ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  const ctx = canvas.getContext("2d");
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  const placed = data.query ? [drawQuery(ctx, data.query, toScreen)] : [];
  drawLabels(ctx, data.labels, toScreen, zoom, width, height, placed);
}

function drawLabels(ctx, labels, toScreen, zoom, width, height, placed) {
  const level = LEVEL_ZOOM.filter((from) => zoom >= from).length - 1;
  // the current level's labels first (largest clusters first), then coarser ones where they still fit
  const order = labels.filter((l) => l.level <= level)
    .sort((a, b) => (b.level - a.level) || (b.size - a.size));
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (const label of order) {
    const [x, y] = toScreen(label.x, label.y);
    if (x < 0 || y < 0 || x > width || y > height) continue;
    const fine = label.level < level;
    ctx.font = `${fine ? 600 : 700} ${fine ? 12 : 14}px "Source Sans Pro", "Source Sans 3", sans-serif`;
    const w = ctx.measureText(label.text).width + 8;
    const box = [x - w / 2, y - 10, x + w / 2, y + 10];
    if (placed.some((p) => box[0] < p[2] && box[2] > p[0] && box[1] < p[3] && box[3] > p[1])) continue;
    placed.push(box);
    ctx.lineWidth = 4;
    ctx.strokeStyle = "rgba(255,255,255,0.9)";
    ctx.strokeText(label.text, x, y);
    ctx.fillStyle = "#1f2328";
    ctx.fillText(label.text, x, y);
  }
}

function drawQuery(ctx, query, toScreen) {
  const [qx, qy] = toScreen(query.x, query.y);
  ctx.strokeStyle = QUERY;
  ctx.lineWidth = 1.25;
  for (const [x, y] of query.neighbours) {
    const [sx, sy] = toScreen(x, y);
    ctx.beginPath();
    ctx.moveTo(qx, qy);
    ctx.lineTo(sx, sy);
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(sx, sy, 6, 0, 2 * Math.PI);
    ctx.lineWidth = 2;
    ctx.stroke();
    ctx.lineWidth = 1.25;
  }
  star(ctx, qx, qy, 11);
  ctx.font = '600 13px "Source Sans Pro", "Source Sans 3", sans-serif';
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  const text = `query: ${query.text.length > 60 ? `${query.text.slice(0, 59)}…` : query.text}`;
  const width = ctx.measureText(text).width;
  // on the left where there is no room on the right (and room on the left)
  const left = qx + 14 + width > ctx.canvas.clientWidth && qx - 14 - width >= 0;
  ctx.textAlign = left ? "right" : "left";
  const tx = left ? qx - 14 : qx + 14;
  ctx.lineWidth = 4;
  ctx.strokeStyle = "rgba(255,255,255,0.9)";
  ctx.strokeText(text, tx, qy);
  ctx.fillStyle = QUERY;
  ctx.fillText(text, tx, qy);
  return left ? [tx - width, qy - 10, tx, qy + 10] : [tx, qy - 10, tx + width, qy + 10]; // where no label may go
}

function star(ctx, x, y, r) {
  ctx.beginPath();
  for (let i = 0; i < 10; i += 1) {
    const radius = i % 2 ? r * 0.45 : r;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    ctx.lineTo(x + radius * Math.cos(angle), y + radius * Math.sin(angle));
  }
  ctx.closePath();
  ctx.fillStyle = QUERY;
  ctx.strokeStyle = "white";
  ctx.lineWidth = 1.5;
  ctx.fill();
  ctx.stroke();
}
