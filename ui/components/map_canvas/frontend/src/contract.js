// The contract with Python, on this side. Python's is CanvasData in ui/components/map_canvas/__init__.py (Streamlit)
// and MapWidget's traits in core/notebook/map_widget.py (a notebook), whose view keys are CanvasViewData in
// core/plots/map_canvas.py; each key is documented there.

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
 * @property {{row: number, text: string, image: (string|null)}|null} hover the row last asked for, for this view:
 *   its text and, for a picture, its thumbnail (a data URI) shown above it
 * @property {number} answered counts Python's answers to selections
 * @property {string} element the map's key in Python: an element Streamlit mounts again shows the same canvas
 * @property {string|null} selected key of the rows Python keeps selected (uint32, little-endian), or null for none:
 *   taken when the points are new
 */

/**
 * How a canvas reaches Python, whichever host mounted it (main.js, widget.js).
 * @typedef {Object} Host
 * @property {function(number[]): void} select the user selected these rows (none: cleared)
 * @property {function(number): void} askHover the pointer rests on this row: Python answers with its text
 * @property {{blob: function(string): Promise<ArrayBuffer>, arrivedAt: function(string): number|undefined}} columns
 *   a binary column's bytes by its key, once arrived, and when it arrived (performance.now())
 */

/**
 * The notebook widget's synced traits (Python: MapWidget, each declared there once with its type). A binary one comes
 * as a DataView: a column is its 32-character content key followed by its bytes, as in Streamlit.
 * @typedef {Object} WidgetState
 * @property {Object} view the map's view: MapData without code, hover, answered and element (Python: CanvasViewData)
 * @property {DataView} positions the column the view's `positions` names
 * @property {DataView} codes the column the view's `codes` names
 * @property {DataView} highlight_bits the column the view's `highlight` names; empty without a highlight
 * @property {DataView} selected the selected rows, uint32 little-endian: set by a click, Box or Lasso, or by Python
 * @property {number} answered counts Python's answers to selections
 */

// What goes back to Python, by name: in Streamlit a state and a trigger; in a notebook a trait and custom messages:
// {hover: row}, answered {hover: {row, text, image}}; and, once the points are drawn, {labels: true}, answered by the
// view with its zoom labels (the first frame does not wait the seconds they take at 1,000,000 points).
export const SELECTION = "selection"; // the selected rows (a state)
export const HOVER = "hover"; // the row whose text the canvas asks for (a trigger)
export const SELECTED = "selected"; // WidgetState's
export const LABELS = "labels";

/** The positions column as two views of its bytes, x and y. */
export function positionsOf(buffer, n) {
  return { x: new Float32Array(buffer, 0, n), y: new Float32Array(buffer, 4 * n, n) };
}

export const KEY_BYTES = 32; // a column's content key (core/plots/map_canvas.py: KEY_CHARS)

/** A binary value as its bytes, whether a host gives it as a DataView, a typed array or an ArrayBuffer. */
export const bytesOf = (value) => (value instanceof ArrayBuffer ? new Uint8Array(value)
  : new Uint8Array(value.buffer, value.byteOffset, value.byteLength));

/** Row numbers as they travel in a notebook: uint32, little-endian (as x86 and ARM browsers hold them). */
export const rowsOf = (value) => (value ? Array.from(new Uint32Array(bytesOf(value).slice().buffer)) : []);
export const rowBytes = (rows) => new DataView(Uint32Array.from(rows).buffer);

/** Whether point i is highlighted: bit i, least significant first within each byte (numpy's bitorder="little"). */
export const isHighlighted = (bits, i) => (bits[i >> 3] >> (i & 7)) & 1;
