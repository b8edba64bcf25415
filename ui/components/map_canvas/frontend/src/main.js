// The map canvas as a Streamlit v2 component. Bytes are a blob (see blobs.js); anything else is a map's view.
import { keepBlob } from "./blobs.js";
import { MapCanvas } from "./canvas.js";

const maps = new WeakMap(); // parent element -> its MapCanvas, kept across reruns

export default function mount({ data, parentElement, setStateValue, setTriggerValue }) {
  if (data instanceof Uint8Array) {
    keepBlob(data);
    return undefined;
  }
  let map = maps.get(parentElement);
  if (!map) {
    map = new MapCanvas(parentElement, { setStateValue, setTriggerValue });
    maps.set(parentElement, map);
  }
  map.update(data);
  return () => {
    map.destroy();
    maps.delete(parentElement);
  };
}
