// Not bundled: this is the JavaScript Streamlit sends with every element of the map (it sends a component's code
// with each of its elements, so the 300 kB bundle went out again with each new view, highlight and hover text).
// It keeps the binary columns by content key; the bundle itself comes once as such a column, which each view names
// (`code`), and is loaded from it and handed the view.
const KEY_BYTES = 32;
const KEEP = 12; // columns kept in the page: a few maps' worth (two compared maps hold up to eight)
const store = (globalThis.__explorerMapBlobs ||= { blobs: new Map(), waiting: new Map(), arrived: new Map() });
const modules = (globalThis.__explorerMapModules ||= new Map()); // bundle key -> its module, once loaded

function keep(bytes) {
  const key = new TextDecoder().decode(bytes.subarray(0, KEY_BYTES));
  if (!store.blobs.has(key)) {
    store.arrived.set(key, performance.now()); // for make bench: from a column's arrival to the map drawn
    // an aligned copy: Float32Array views need a byte offset that is a multiple of 4
    store.blobs.set(key, bytes.slice(KEY_BYTES).buffer);
    while (store.blobs.size > KEEP) {
      const oldest = store.blobs.keys().next().value;
      store.blobs.delete(oldest);
      store.arrived.delete(oldest);
    }
  }
  for (const resolve of store.waiting.get(key) ?? []) resolve(store.blobs.get(key));
  store.waiting.delete(key);
}

function blob(key) {
  if (store.blobs.has(key)) return Promise.resolve(store.blobs.get(key));
  return new Promise((resolve) => store.waiting.set(key, [...(store.waiting.get(key) ?? []), resolve]));
}

const arrivedAt = (key) => store.arrived.get(key);

function bundle(key) {
  if (!modules.has(key)) {
    modules.set(key, blob(key).then((code) => import(URL.createObjectURL(new Blob([code], { type: "text/javascript" })))));
  }
  return modules.get(key);
}

export default function mount(args) {
  if (args.data instanceof Uint8Array) {
    keep(args.data);
    return undefined;
  }
  let cleanup = null;
  let gone = false;
  bundle(args.data.code).then((module) => {
    if (!gone) cleanup = module.default(args, { blob, arrivedAt });
  });
  return () => {
    gone = true;
    cleanup?.();
  };
}
