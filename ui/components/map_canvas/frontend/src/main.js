// The map canvas in Streamlit, loaded by loader.js (which Streamlit sends as the component's JavaScript) and handed
// each view; `columns.blob(key)` gives a binary column's bytes once they have arrived, `columns.arrivedAt(key)` when.
// A selection is the component's state, a hover its trigger (contract.js).
import { MapCanvas } from "./canvas.js";
import { HOVER, SELECTION } from "./contract.js";

const maps = new WeakMap(); // parent element -> its MapCanvas, kept across reruns

export default function mount({ data, parentElement, setStateValue, setTriggerValue }, columns) {
  let map = maps.get(parentElement);
  if (!map) {
    map = new MapCanvas(parentElement, { columns, select: (rows) => setStateValue(SELECTION, rows),
      askHover: (row) => setTriggerValue(HOVER, row) });
    maps.set(parentElement, map);
  }
  map.update(data);
  return () => {
    map.destroy();
    maps.delete(parentElement);
  };
}
