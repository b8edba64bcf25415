// Every tunable of the map canvas, as regl-scatterplot keeps its own in src/constants.js. (loader.js is sent as it is,
// not bundled, so it keeps its two: a column's 32-byte key, KEY_CHARS in core/plots/map_canvas.py, and how many
// columns the page keeps.)

// Colours: text and marks in ACCENT and INK have WCAG AA contrast on white.
export const INK = "#1f2328"; // text, the hover ring, the pressed tool
export const ACCENT = "#c2255c"; // the query, the Box or Lasso, the keyboard focus
export const ACCENT_FILL = "rgba(194, 37, 92, 0.08)"; // inside a Box or Lasso (ACCENT, faint)
export const SELECTED_COLOUR = "#d6336b"; // selected points
export const HALO = "rgba(255, 255, 255, 0.9)"; // around text drawn over points, so it stays readable
export const BACKGROUND = "#ffffff";

// Text
export const FONT_FAMILY = '"Source Sans Pro", "Source Sans 3", sans-serif'; // Streamlit's
export const FONT_PX = 14;
export const font = (weight, px) => `${weight} ${px}px ${FONT_FAMILY}`;

// Pointer
export const PICK_RADIUS_PX = 6; // a hover or click finds a point this near (or within the point's size, if larger)
export const RING_MIN_RADIUS_PX = 4; // the hover ring: at least this, and this much outside the point
export const RING_GAP_PX = 3;
export const CLICK_SLOP_PX = 3; // a press and release closer than this is a click, not a pan
export const TOOLTIP_WIDTH_PX = 320; // the tooltip's widest (its CSS max-width, style.js)
export const TOOLTIP_OFFSET_PX = 12; // below and right of the point
export const THUMBNAIL_PX = 96; // a picture's thumbnail in the tooltip, at most (core/data/thumbnails.py: SIZE)

// Time
export const HOVER_DELAY_MS = 120; // a pointer resting this long on a point asks Python for its text
export const SELECTION_WAIT_MS = 1500; // the longest a selection waits for Python's answer before it is drawn
export const RESET_VIEW_MS = 300; // Reset view's animation
export const REMOUNT_KEEP_MS = 2000; // how long an unmounted map waits for Streamlit to mount it again (main.js)

// Points (sizes in pixels come with the view: pointSize, highlightSize)
export const SELECTED_GROWTH_PX = 2; // a selected point is drawn this much larger, with an outline
export const SELECTED_OUTLINE_PX = 2;
export const FIT_MARGIN = 0.04; // space around the points when they are fitted, a share of their extent

// Labels and the query (overlay.js)
export const LABEL_LEVEL_ZOOM = [0, 2.5, 6]; // the zoom (1 = every point in view) from which each level shows
export const LABEL_HALF_HEIGHT_PX = 10; // a label's box, for keeping labels apart
export const LABEL_PADDING_PX = 8;
export const QUERY_STAR_PX = 11;
export const QUERY_RING_PX = 6; // around each of the query's nearest texts
export const QUERY_GAP_PX = 14; // between the star and its text
export const QUERY_TEXT_CHARS = 60;
