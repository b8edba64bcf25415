// The map canvas in a notebook: an anywidget, written to anywidget's standard API alone (`render({ model, el })`), so
// any front end that runs anywidgets can show it (JupyterLab and Notebook, VS Code, Colab, marimo). Python's side is
// MapWidget (core/notebook/map_widget.py); its traits are WidgetState (contract.js). The canvas goes in a shadow root,
// as in Streamlit, so the notebook's styles and the canvas's own keep apart.
import { MapCanvas } from "./canvas.js";
import { HOVER, KEY_BYTES, LABELS, SELECTED, bytesOf, rowBytes, rowsOf } from "./contract.js";

const COLUMNS = ["positions", "codes", "highlight_bits"]; // WidgetState's binary columns

/** The model's columns by content key (the Host's `columns`): each copied once, aligned, as it arrives. */
class Columns {
  constructor(model) {
    this.model = model;
    this.blobs = new Map();
    this.arrived = new Map();
    this.waiting = new Map();
  }

  take() {
    const current = new Set();
    for (const name of COLUMNS) {
      const value = this.model.get(name);
      const bytes = value ? bytesOf(value) : new Uint8Array(0);
      if (bytes.length < KEY_BYTES) continue;
      const key = new TextDecoder().decode(bytes.subarray(0, KEY_BYTES));
      current.add(key);
      if (!this.blobs.has(key)) {
        this.arrived.set(key, performance.now());
        this.blobs.set(key, bytes.slice(KEY_BYTES).buffer); // Float32Array views need an offset a multiple of 4
      }
      for (const resolve of this.waiting.get(key) ?? []) resolve(this.blobs.get(key));
      this.waiting.delete(key);
    }
    for (const key of this.blobs.keys()) {
      if (!current.has(key)) {
        this.blobs.delete(key);
        this.arrived.delete(key);
      }
    }
  }

  blob = (key) => {
    if (this.blobs.has(key)) return Promise.resolve(this.blobs.get(key));
    return new Promise((resolve) => this.waiting.set(key, [...(this.waiting.get(key) ?? []), resolve]));
  };

  arrivedAt = (key) => this.arrived.get(key); // called unbound, as loader.js's is
}

function render({ model, el }) {
  const columns = new Columns(model);
  let sent = null; // the selection this view set, which comes back as a change of the trait
  const map = new MapCanvas(el.shadowRoot ?? el.attachShadow({ mode: "open" }), {
    columns,
    select(rows) {
      sent = rowBytes(rows);
      model.set(SELECTED, sent);
      model.save_changes();
    },
    askHover: (row) => model.send({ [HOVER]: row }),
  });
  let drawn = false;
  const handlers = {
    "change:view": async () => {
      await map.update({ ...model.get("view"), code: "", hover: null, answered: model.get("answered") });
      if (!drawn && map.draws) model.send({ [LABELS]: true }); // the points are on the screen: now the labels
      drawn ||= map.draws > 0;
    },
    "change:answered": () => map.answerArrived(model.get("answered")),
    [`change:${SELECTED}`]: () => {
      if (model.get(SELECTED) !== sent) map.selectFromPython(rowsOf(model.get(SELECTED)));
    },
    "msg:custom": (message) => {
      if (message?.[HOVER]) map.hoverAnswered(message[HOVER]);
    },
  };
  for (const name of COLUMNS) handlers[`change:${name}`] = () => columns.take();
  for (const [event, handler] of Object.entries(handlers)) model.on(event, handler);
  columns.take();
  map.selectFromPython(rowsOf(model.get(SELECTED))); // drawn with the points
  handlers["change:view"]();
  return () => {
    for (const [event, handler] of Object.entries(handlers)) model.off(event, handler);
    map.destroy();
  };
}

export default { render };
