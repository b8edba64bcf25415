// The contract with Python, on this side. Python's is CanvasData in ui/components/map_canvas/__init__.py, whose view
// keys are CanvasViewData in core/plots/map_canvas.py; each key is documented there.

/**
 * One map, as Python sends it on each rerun (Python: CanvasData). Binary columns come apart, each in an element of
 * its own, as a 32-character content key followed by its bytes (loader.js keeps them); the view names them by key.
 * @typedef {Object} MapData
 * @property {number} n points
 * @property {string} positions key of the positions: float32, every x then every y, in [-1, 1] (`positionsOf`)
 * @property {string} codes key of the colour codes: one uint8 per point, an index into `palette`
 * @property {string|null} highlight key of the highlight bitmask (`isHighlighted`), or null for no highlight
 * @property {number} highlighted points highlighted (n without a highlight)
 * @property {number} highlightSize pixels of a highlighted point at the fitted zoom
 * @property {number} pointSize pixels of a point at the fitted zoom
 * @property {Array<[string, number]>} palette [hex colour, alpha] for each code
 * @property {number} dimmed the code of a point a highlight leaves out
 * @property {{title: string, items: Array<{code: number, name: string, count: number}>,
 *             scale?: {stops: string[], min: string, max: string}}} legend categories, or a colour scale
 * @property {[number, number, number, number]} bounds x0, y0, x1, y1 of the positions
 * @property {string} label the map's accessible name
 * @property {number} height pixels
 * @property {Array<{x: number, y: number, text: string, level: number, size: number}>} labels cluster labels,
 *   level 0 the coarsest, in the positions' units
 * @property {{x: number, y: number, text: string, neighbours: Array<[number, number]>}|null} query the star
 * @property {string} link maps with the same link pan, zoom and select together ("" for none)
 * @property {string} code key of this canvas's own code, a column like the others
 * @property {{row: number, text: string}|null} hover the text of the row last asked for, for this view
 * @property {number} answered counts Python's answers to selections
 */

// What goes back to Python: state the canvas sets, by name.
export const SELECTION = "selection"; // the selected rows (a state)
export const HOVER = "hover"; // the row whose text the canvas asks for (a trigger)

/** The positions column as two views of its bytes, x and y. */
export function positionsOf(buffer, n) {
  return { x: new Float32Array(buffer, 0, n), y: new Float32Array(buffer, 4 * n, n) };
}

/** Whether point i is highlighted: bit i, least significant first within each byte (numpy's bitorder="little"). */
export const isHighlighted = (bits, i) => (bits[i >> 3] >> (i & 7)) & 1;
