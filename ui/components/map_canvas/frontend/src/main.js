// The map canvas in Streamlit, loaded by loader.js (which Streamlit sends as the component's JavaScript) and handed
// each view; `columns.blob(key)` gives a binary column's bytes once they have arrived, `columns.arrivedAt(key)` when.
// A selection is the component's state, a hover its trigger (contract.js).
import { MapCanvas } from "./canvas.js";
import { REMOUNT_KEEP_MS } from "./constants.js";
import { HOVER, SELECTION } from "./contract.js";

// The map's key in Python -> its canvas, kept across reruns and across remounts. When a hover's rerun and a
// selection's cross, Streamlit sometimes unmounts the element and mounts a new one, with a new frontend key, a moment
// later (9 clicks in 175 under load); a new canvas there lost the zoom, the drawn selection, and a click made between.
const maps = new Map();

export default function mount(args, columns) {
  const { data, parentElement } = args;
  const key = data.element;
  let kept = maps.get(key);
  if (kept) {
    clearTimeout(kept.release);
    kept.map.moveTo(parentElement);
  } else {
    kept = {};
    kept.map = new MapCanvas(parentElement, { columns,
      select: (rows) => kept.args.setStateValue(SELECTION, rows),
      askHover: (row) => kept.args.setTriggerValue(HOVER, row) });
    maps.set(key, kept);
  }
  kept.args = args; // the newest mount's setters
  kept.map.update(data);
  return () => {
    if (kept.args !== args) return; // a newer mount holds the canvas now
    kept.release = setTimeout(() => {
      kept.map.destroy();
      maps.delete(key);
    }, REMOUNT_KEEP_MS);
  };
}
