// The component's own styles (it is mounted in a shadow root, so the page's do not reach it); colours chosen for
// WCAG AA contrast on white.
import { ACCENT, FONT_PX, INK, THUMBNAIL_PX, TOOLTIP_WIDTH_PX, font } from "./constants.js";

export const STYLE = `
.explorer-map { font: ${font(400, FONT_PX)}; color: ${INK}; }
.toolbar { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; margin-bottom: 6px; }
.toolbar button { font: inherit; padding: 3px 10px; border: 1px solid #adb5bd; border-radius: 6px;
  background: white; color: ${INK}; cursor: pointer; }
.toolbar button[aria-pressed="true"] { background: ${INK}; color: white; border-color: ${INK}; }
.toolbar button:focus-visible, .legend-item:focus-visible { outline: 2px solid ${ACCENT}; outline-offset: 1px; }
.status { margin-left: auto; color: #495057; }
.body { display: flex; flex-wrap: wrap; gap: 10px; } /* the legend goes below a narrow map */
.stage { position: relative; flex: 1 1 420px; min-width: 0; border: 1px solid #dee2e6; border-radius: 6px;
  overflow: hidden; }
.stage canvas { position: absolute; inset: 0; width: 100%; height: 100%; }
.stage canvas.overlay, .stage canvas.sketch { pointer-events: none; }
.stage canvas.sketch { cursor: crosshair; }
.tooltip { position: absolute; box-sizing: border-box; width: max-content; max-width: ${TOOLTIP_WIDTH_PX}px;
  padding: 6px 8px; background: rgba(255,255,255,0.96); border: 1px solid #868e96; border-radius: 4px;
  pointer-events: none; white-space: pre-wrap; font-size: 13px; box-shadow: 0 1px 4px rgba(0,0,0,0.15); }
.tooltip img { display: block; width: ${THUMBNAIL_PX}px; height: ${THUMBNAIL_PX}px; object-fit: contain;
  object-position: left; margin-bottom: 4px; } /* a fixed box: the tooltip is placed before the picture decodes */
.legend { flex: 0 0 190px; max-height: 100%; overflow-y: auto; }
.legend-title { font-weight: 700; margin-bottom: 2px; }
.legend-hint { color: #495057; font-size: 12px; margin-bottom: 4px; }
.legend-item { display: flex; align-items: center; gap: 6px; width: 100%; padding: 2px 4px; font: inherit;
  color: inherit; background: none; border: 0; border-radius: 4px; cursor: pointer; text-align: left; }
.legend-item:hover { background: #f1f3f5; }
.legend-item[aria-pressed="false"] { color: #6c757d; text-decoration: line-through; }
.legend-item[aria-pressed="false"] .swatch { opacity: 0.25; }
.swatch { flex: 0 0 12px; height: 12px; border-radius: 50%; }
.name { flex: 1 1 auto; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.count { color: #495057; font-variant-numeric: tabular-nums; }
.scale { display: flex; gap: 6px; height: 180px; margin: 6px 0; }
.scale-bar { width: 14px; border-radius: 3px; }
.scale-ends { display: flex; flex-direction: column; justify-content: space-between; }
`;
